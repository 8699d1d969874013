"""The decode box in the built site: ids back to chips and text, with this tokenizer or the real one
compared with; a bad entry gets one sentence and the view stays; a share link holds the ids."""
from __future__ import annotations

from playwright.sync_api import expect

from bpe import real
from tests.browser.test_share_links import open_link


def chip_ids(locator) -> list[int]:
    return locator.locator(".bpe-chip").evaluate_all("chips => chips.map(chip => Number(chip.dataset.id))")


def decode(page, text: str) -> None:
    box = page.locator(".decode-input input").first
    box.fill(text)
    box.press("Enter")


def test_decode_good_and_bad_ids_with_this_and_a_real_tokenizer(app):
    app.open()
    page = app.page
    pane = page.locator(".bpe-decode-pane").first
    error = page.locator(".bpe-decode-error").first
    page.locator(".round-slider").first.focus()
    decode(page, "[16, 5]")  # the explainer's walk after its third merge; not made by round 0
    expect(error).to_contain_text("Item 1, 16, is out of range: this tokenizer's ids run from 0 to")
    page.locator(".compare-select select").first.select_option(label=real.LABELS["cl100k_base"])
    expect(page.locator(".bpe-compare .bpe-heading").first).to_have_text(real.LABELS["cl100k_base"], timeout=60_000)
    ids = real.load("cl100k_base").encode("Hello world 語")
    decode(page, f"[{', '.join(map(str, ids[:-1]))}]")  # the last id holds the rest of 語: it is cut
    expect(pane).to_contain_text("Decoded with GPT-4's cl100k_base")
    assert chip_ids(pane.locator(".bpe-decoded")) == ids[:-1]
    expect(pane.locator(".bpe-decoded-text")).to_contain_text("Hello")
    expect(pane.locator(".bpe-decoded-text .bpe-hex")).to_have_text("e8 aa")
    expect(error).to_be_empty()
    for bad, sentence in [("15339 -1", "Item 2, -1, is negative"), ("15339, x", 'Item 2, "x", is not a token id'),
                          ("100277", "Item 1, 100277, is out of range"),
                          (" ".join(["1"] * 10_001), "That is 10,001 ids; at most 10,000"),
                          ("<img src=x onerror=alert(1)>", 'Item 1, "<img')]:
        decode(page, bad)
        expect(error).to_contain_text(sentence)
        assert chip_ids(pane.locator(".bpe-decoded")) == ids[:-1], bad  # the view stays as it was
    assert page.locator("img[src=x]").count() == 0
    assert not app.errors, app.errors


def test_a_share_link_holds_the_ids(app):
    page = open_link(app, "?preset=course&round=2&ids=%5B256%2C%2097%5D")
    pane = page.locator(".bpe-decode-pane").first
    expect(pane).to_contain_text("after round 2")
    assert page.locator(".decode-input input").first.input_value() == "[256, 97]"
    assert chip_ids(pane.locator(".bpe-decoded")) == [256, 97]
    expect(pane.locator(".bpe-decoded-text")).to_have_text("aaa")
    decode(page, "257")
    page.wait_for_function("location.search.includes('ids=257')")
    assert not app.errors, app.errors
