"""The real tokenizers beyond GPT-4's, in the built site: each loaded when first chosen, giving the
ids its own npm package gives (computed now, under Node), with the text's share of the context window."""
from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import expect

from bpe import real
from bpe_app.state import COMPARISONS
from tests.test_real_npm import ids_from_node

#: One line (the encoder is a one-line box) of English, Japanese, code, digits and emoji.
TEXT = "Tokenizers see bytes: def f(x): return x**2 # 2024-12-01 東京は日本の首都です 🍣👍🏽 WE'LL pay 1,234.50"
NEW = ("r50k_base", "p50k_base", "claude_legacy")
LABELS = {name: label for label, name in COMPARISONS.items()}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the npm packages")
def test_each_new_tokenizer_gives_its_packages_ids(app):
    expected = ids_from_node(list(NEW), TEXT)
    app.open()
    page = app.page
    box = page.locator(".encode-input input").first
    box.fill(TEXT)
    box.press("Enter")
    for name in NEW:
        page.locator(".compare-select select").first.select_option(label=LABELS[name])
        expect(page.locator(".bpe-compare .bpe-heading").first).to_have_text(LABELS[name], timeout=60_000)
        ids = page.locator(".bpe-compare .bpe-encoded .bpe-chip").evaluate_all(
            "chips => chips.map(chip => Number(chip.dataset.id))")
        assert ids == expected[name], name
        model, window = real.CONTEXTS[name]
        row = page.locator(".bpe-compare .bpe-counts tbody tr").last
        expect(row).to_contain_text(f"{len(ids) / window:.2%} of {model}'s {window:,}")
    assert not app.errors, app.errors


#: The tokenizers taken from PyPI packages, each checked against its own package (tests/test_real_packages.py).
PYPI = ("tekken", "mistral_v1", "mistral_v3", "whisper", "dolma2")


def test_pypi_tokenizers_give_their_packages_ids(app):
    """Each is fetched when first chosen (dolma2 shares cl100k_base's table), gives its package's
    ids, and SentencePiece says how it differs from byte-level BPE."""
    from tests.test_real_packages import package_ids

    text = TEXT + " 한국어 Ελληνικά русский\u00a0текст"
    app.open()
    page = app.page
    fetched = []
    page.on("request", lambda request: fetched.append(request.url.rsplit("/", 1)[-1]))
    box = page.locator(".encode-input input").first
    box.fill(text)
    box.press("Enter")
    for name in PYPI:
        assert real.data_file(name) not in fetched, name
        page.locator(".compare-select select").first.select_option(label=LABELS[name])
        expect(page.locator(".bpe-compare .bpe-heading").first).to_have_text(LABELS[name], timeout=60_000)
        assert real.data_file(name) in fetched, name
        ids = page.locator(".bpe-compare .bpe-encoded .bpe-chip").evaluate_all(
            "chips => chips.map(chip => Number(chip.dataset.id))")
        assert ids == package_ids(name, text), name
        model, window = real.CONTEXTS[name]
        row = page.locator(".bpe-compare .bpe-counts tbody tr").last
        expect(row).to_contain_text(f"of {model}'s {window:,}")
        differences = page.locator(".bpe-compare .bpe-differences li")
        if name in ("mistral_v1", "mistral_v3"):
            expect(differences.first).to_have_text("▁Token: a space becomes ▁ and is part of the token.")
            expect(differences.nth(2)).to_contain_text("so it falls back to its 4 UTF-8 bytes")
            page.locator(".bpe-compare .bpe-encoded .bpe-chip").first.click()
            expect(page.locator(".bpe-inspector")).to_contain_text("score")
            page.keyboard.press("Escape")
            stepper = page.locator(".bpe-piece-stepper").first
            expect(stepper).to_contain_text("join 0 of")
            stepper.locator("button[data-value='+1']").click()
            expect(stepper.locator(".bpe-step-words")).to_contain_text("join 1")
            expect(stepper.locator(".bpe-chip.bpe-new").first).to_be_visible()
            stepper.locator("button[data-value='last']").click()
            expect(stepper.locator(".bpe-step-words")).to_contain_text("No adjacent pair joins into a piece")
        else:
            expect(differences).to_have_count(0)
            expect(page.locator(".bpe-piece-stepper")).to_have_count(0)
    assert not app.errors, app.errors
