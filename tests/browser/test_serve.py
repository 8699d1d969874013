"""`bpe serve`: the same app on a Panel server in CPython, for a corpus too big for the browser. A
2.5 MB corpus (the page trains at most 2 MB) is trained at start and shown; the encoder answers
what is typed, with the trained tokenizer's own pieces, and nothing is fetched from outside."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

import bpe
from bpe.options import DOCUMENTS
from conftest import DEEP_HELPERS
from processes import free_port, serving

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve")
    texts = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "bpe" / "corpora").glob("what-is-debian.*.txt"))]
    corpus = folder / "corpus.txt"
    corpus.write_text("\n\n".join(texts) * 250, encoding="utf-8")
    assert corpus.stat().st_size > 2 * 1024 * 1024  # more than the browser's page trains
    port = free_port()
    command = [sys.executable, "-m", "bpe", "serve", "--port", str(port), str(corpus), "--documents", "paragraph",
               "--merges", "40"]
    with open(folder / "serve.log", "w") as log, serving(command, f"http://127.0.0.1:{port}/", log, timeout=300):
        yield f"http://127.0.0.1:{port}/", corpus


def test_the_served_page_shows_the_big_corpus_and_encodes_what_is_typed(browser, served):
    url, corpus = served
    documents = DOCUMENTS.choose("paragraph").split(corpus.read_text(encoding="utf-8"))  # as the command reads it
    training = bpe.train(documents, bpe.Settings(merges=40))
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(DEEP_HELPERS)
    page = context.new_page()
    outside = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:http://127.0.0.1")) else None)
    try:
        page.goto(url)
        expect(page.locator(".bpe-corpus-summary").first).to_contain_text(
            f"{training.tokens[-1]:,} tokens after 40 merges", timeout=120_000)
        expect(page.locator(".bpe-caption").first).to_contain_text("Round 40 of 40")
        box = page.locator(".encode-input input").first
        box.fill("")
        box.press_sequentially("Debian strawberry", delay=20)
        pieces = training.tokenizer.encode_pieces("Debian strawberry")
        expect(page.locator(".bpe-encoding-pane .bpe-ids").first).to_contain_text(" ".join(map(str, pieces.ids)),
                                                                                 timeout=30_000)
        page.keyboard.press("Escape")
        page.locator(".bpe-corpus").first.click()
        page.keyboard.press("ArrowLeft")  # the scrubber answers as on the site
        expect(page.locator(".bpe-caption").first).to_contain_text("Round 39 of 40")
        assert outside == []
    finally:
        context.close()
