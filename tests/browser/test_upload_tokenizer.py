"""Your own tokenizer file in the built site: the page's own Hugging Face download, uploaded
again, becomes a comparison; a broken file leaves the view as it was.

One page for the module: each test uploads over what the one before left, as a user would."""
from __future__ import annotations

import json
from pathlib import Path

import bpe
from bpe.formats import to_hf_json
from bpe.presets import PRESETS
from conftest import chip_ids_once_shown
from playwright.sync_api import expect

from bpe_app.state import COMPARISONS, UPLOAD

UPLOAD_LABEL = next(label for label, name in COMPARISONS.items() if name == UPLOAD)

TEXT = "def walk(self, text): return text  # 2024"  # one line: the encoder is a one-line box


def choose_code(page) -> None:
    page.locator(".preset-select select").first.select_option("code")
    expect(page.locator(".bpe-caption").first).to_contain_text("of 100")


def test_the_pages_own_export_uploaded_again_is_compared(module_app, tmp_path: Path):
    app = module_app
    page = app.page
    choose_code(page)
    with page.expect_download(timeout=30_000) as download:
        page.locator("button").filter(has_text="Hugging Face").first.click()
    saved = tmp_path / "tokenizer.json"
    download.value.save_as(saved)
    preset = PRESETS["code"]
    expected = bpe.train(preset.documents, preset.settings).tokenizer
    # Ours, as the download made it. (Not byte for byte: the split pattern spells out Unicode classes
    # from the running Python's tables, Unicode 15 in the page and 14 in CPython 3.11.)
    model = json.loads(saved.read_text(encoding="utf-8"))["model"]
    assert model["merges"] == json.loads(to_hf_json(expected))["model"]["merges"]

    page.locator(".tokenizer-upload input[type=file]").first.set_input_files(str(saved))
    expect(page.locator(".compare-select select").first).to_have_value(UPLOAD_LABEL)
    box = page.locator(".encode-input input").first
    box.fill(TEXT)
    box.press("Enter")
    heading = page.locator(".bpe-compare .bpe-heading").first
    expect(heading).to_have_text("tokenizer.json")
    row = page.locator(".bpe-compare .bpe-counts tbody tr").last
    expect(row.locator("td").nth(1)).to_have_text(str(len(expected.encode(TEXT))))
    assert chip_ids_once_shown(page, ".bpe-compare .bpe-encoded", expected.encode(TEXT)) == expected.encode(TEXT)

    # Its tokens open in the inspector, with the file's merges.
    page.locator(".bpe-compare .bpe-chip").filter(has_text="return").first.click()
    expect(page.locator(".bpe-inspector").first).to_contain_text("tokenizer.json id")
    expect(page.locator(".bpe-inspector").first).to_contain_text("Merge tree")
    assert not app.errors, app.errors


def test_a_broken_upload_leaves_the_view_unchanged(module_app, tmp_path: Path):
    app = module_app
    page = app.page
    choose_code(page)
    page.locator(".compare-select select").first.select_option(label="GPT-4's cl100k_base")
    expect(page.locator(".bpe-compare .bpe-heading").first).to_have_text("GPT-4's cl100k_base", timeout=60_000)
    before = page.locator(".bpe-compare").first.inner_text()
    caption = page.locator(".bpe-caption").first.inner_text()
    broken = tmp_path / "broken.json"
    broken.write_text('{"model": {"type": "WordPiece", "vocab": {"<b>x</b>": 0}}}', encoding="utf-8")
    page.locator(".tokenizer-upload input[type=file]").first.set_input_files(str(broken))
    message = page.locator(".bpe-message").first
    expect(message).to_contain_text("This tokenizer file could not be used: broken.json: the model is 'WordPiece'")
    assert page.locator(".compare-select select").first.input_value() == "GPT-4's cl100k_base"
    assert page.locator(".bpe-compare").first.inner_text() == before
    assert page.locator(".bpe-caption").first.inner_text() == caption
    assert not app.errors, app.errors


HOSTILE = '<img src=x onerror="window.__xss=1">'


def test_tokens_holding_html_show_as_text(module_app, tmp_path: Path):
    """A file whose merges make markup-like tokens, named like markup too: shown as text, run never."""
    tokenizer = bpe.train([HOSTILE * 4], bpe.Settings(pretokenizer="none", merges=60, min_frequency=2)).tokenizer
    hostile = tmp_path / "<img src=x onerror=window.__xss=2>.json"
    hostile.write_text(to_hf_json(tokenizer), encoding="utf-8")
    app = module_app
    page = app.page
    page.locator(".tokenizer-upload input[type=file]").first.set_input_files(str(hostile))
    expect(page.locator(".bpe-compare .bpe-heading").first).to_have_text(hostile.name)
    box = page.locator(".encode-input input").first
    box.fill(HOSTILE)
    box.press("Enter")
    pieces = [tokenizer.token_text(i).replace(" ", "␣") for i in tokenizer.encode(HOSTILE)]
    assert "".join(pieces).replace("␣", " ") == HOSTILE and len(pieces) < len(HOSTILE)  # merged, markup-like
    # Waits for the new chips: the default text's chips are on the page until the encoder answers.
    expect(page.locator(".bpe-compare .bpe-encoded .bpe-chip")).to_have_text(pieces)
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__xss") is None
    assert page.locator("img[src='x']").count() == 0  # Playwright's locators pierce the shadow roots
    assert not app.errors, app.errors


def test_a_file_made_by_tokenizers_keeps_its_own_ids(module_app, tmp_path: Path):
    """A tokenizer.json from tokenizers' own trainer: the chips, the inspector and the vocabulary
    give the file's ids (its added <|endoftext|> at 0 among them), as tokenizers encodes."""
    from tests.test_file_ids import hf_trained_file

    path, theirs = hf_trained_file(tmp_path / "trained.json")
    page = module_app.page
    page.locator(".tokenizer-upload input[type=file]").first.set_input_files(str(path))
    expect(page.locator(".bpe-compare .bpe-heading").first).to_have_text("trained.json")
    text = "walkable <|endoftext|>strawberry 2024"
    box = page.locator(".encode-input input").first
    box.fill(text)
    box.press("Enter")
    chips = page.locator(".bpe-compare .bpe-encoded .bpe-chip")
    expect(chips.first).to_have_attribute("data-vocab", UPLOAD)
    # The chips of the test before's text stay until the encoder answers (CI once read those).
    expected = theirs.encode(text).ids
    assert chip_ids_once_shown(page, ".bpe-compare .bpe-encoded", expected) == expected
    chips.filter(has_text="<|endoftext|>").first.click()
    expect(page.locator(".bpe-inspector").first).to_contain_text("An added token")
    expect(page.locator(".bpe-inspector").first).to_contain_text("trained.json id 0")
    assert not module_app.errors, module_app.errors
