"""Inputs in a user's hands (issue 13, part 4): uploads, bad numbers, the preset menu, ▶.

One page for the module, driven from test to test like test_features.py.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError, expect

from conftest import new_page, open_site


@pytest.fixture(scope="module")
def shared(profile, site_url):
    page = new_page(profile)
    errors = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text[:2000]))
    open_site(page, site_url)
    yield page, errors
    page.close()


def message(page):
    return page.locator(".bpe-message").first


def upload(page, name: str, data: bytes) -> None:
    page.locator("input[type=file]").first.set_input_files(files=[{"name": name, "mimeType": "text/plain", "buffer": data}])


def test_an_upload_error_names_the_file_just_chosen(shared):
    page, errors = shared
    upload(page, "ls", b"\x7fELF\x00\x00binary")
    expect(message(page)).to_contain_text("ls looks like a binary file")
    upload(page, "latin.txt", "café crème".encode("latin-1"))
    expect(message(page)).to_contain_text("latin.txt is not UTF-8 text (byte 3 is 0xE9)")
    upload(page, "empty.txt", b"")
    expect(message(page)).to_contain_text("empty.txt is empty")
    assert errors == []


def test_an_upload_says_whose_corpus_is_shown_until_a_preset_is_chosen(shared):
    page, errors = shared
    upload(page, "my notes.txt", b"walk walked walking talk")
    expect(page.get_by_text("my notes.txt: 24 characters, uploaded.")).to_be_visible()
    select = page.locator(".preset-select select").first
    # The menu no longer names a preset whose corpus this is not.
    expect(select.locator("option:checked")).to_have_text(re.compile(r"^your corpus \(settings from "))
    select.select_option("course")
    expect(page.get_by_text("my notes.txt: 24 characters")).to_have_count(0)
    # The file chooser no longer names a file the corpus is not from.
    page.wait_for_function("() => document.querySelector('input[type=file]') === null"
                           " || window.bpeDeepAll('input[type=file]')[0].files.length === 0")
    select.select_option("explainer")
    expect(page.locator(".bpe-caption").first).to_contain_text("of 10")
    assert errors == []


def test_a_bad_number_gets_a_message_not_silence(shared):
    page, errors = shared
    box = page.locator(".min-frequency input").first
    box.fill("0")
    box.press("Enter")
    expect(message(page)).to_contain_text("at least 1, not 0")
    box.fill("2")
    box.press("Enter")
    expect(message(page)).to_have_count(0)
    assert errors == []


def test_the_current_preset_can_be_loaded_again(shared):
    page, errors = shared
    corpus = page.locator(".corpus-input textarea").first
    corpus.fill("")
    corpus.blur()
    expect(message(page)).to_contain_text("The corpus is empty")
    page.locator(".reload-preset button").first.click()
    expect(message(page)).to_have_count(0)
    expect(corpus).to_have_value(re.compile(r"^walk\nwalk\n"))
    expect(page.locator(".reload-preset button").first).to_be_hidden()  # nothing left to undo
    assert errors == []


@pytest.mark.parametrize("key", ["Enter", " "])
def test_a_download_button_works_from_the_keyboard(shared, key):
    page, errors = shared
    page.wait_for_timeout(1000)  # the page's key forwarding is in place
    button = page.locator("button").filter(has_text="merge table CSV").first
    button.focus()
    with page.expect_download(timeout=30_000) as download:
        page.keyboard.press(key)
    assert download.value.suggested_filename.endswith(".csv")
    assert errors == []


def test_end_on_the_slider_goes_to_the_last_round_of_a_longer_training(shared):
    page, errors = shared
    caption = page.locator(".bpe-caption").first
    page.locator(".preset-select select").first.select_option("octlm")
    expect(caption).to_contain_text("of 20", timeout=60_000)
    handle = page.locator(".round-slider .noUi-handle").first
    handle.focus()
    handle.press("End")
    expect(caption).to_contain_text("Round 20 of 20")
    expect(handle).to_have_attribute("aria-valuenow", "20.0")
    handle.press("Home")
    expect(caption).to_contain_text("Round 0 of 20")
    page.locator(".preset-select select").first.select_option("explainer")
    expect(caption).to_contain_text("of 10", timeout=60_000)
    assert errors == []


def test_play_at_the_last_round_starts_again_and_is_one_history_entry(shared):
    page, errors = shared
    caption = page.locator(".bpe-caption").first
    handle = page.locator(".round-slider .noUi-handle").first
    handle.focus()
    handle.press("End")
    expect(caption).to_contain_text("Round 10 of 10")
    page.wait_for_timeout(1000)  # the address follows the round
    before = page.evaluate("() => history.length")
    page.locator("button.play").first.click()
    expect(caption).to_contain_text("Round 2 of 10", timeout=10_000)
    page.locator("button.pause").first.click()
    page.wait_for_timeout(1000)
    assert page.evaluate("() => history.length") == before + 1
    assert errors == []


def test_clicking_the_chart_goes_to_that_round(shared):
    page, errors = shared
    caption = page.locator(".bpe-caption").first
    expect(caption).to_contain_text("of 10")
    chart = page.locator("svg.bpe-chart").first
    chart.scroll_into_view_if_needed()
    x0, x1 = (float(chart.get_attribute(name)) for name in ("data-x0", "data-x1"))
    box = chart.bounding_box()
    scale = box["width"] / 640
    chart.click(position={"x": (x0 + (x1 - x0) * 0.7) * scale, "y": box["height"] / 2})
    expect(caption).to_contain_text("Round 7 of 10")
    chart.click(position={"x": x0 * scale, "y": box["height"] / 2})
    expect(caption).to_contain_text("Round 0 of 10")
    assert errors == []


def test_hovering_the_chart_shows_that_rounds_figures(shared):
    page, errors = shared
    expect(page.locator(".bpe-caption").first).to_contain_text("of 10")
    page.wait_for_timeout(500)  # a round change just before redraws the chart: hover the one that stays
    chart = page.locator("svg.bpe-chart").first
    for attempt in range(3):  # the chart can still be swapped for its redrawn copy under the scroll
        try:
            chart.scroll_into_view_if_needed()
            break
        except PlaywrightError:
            page.wait_for_timeout(500)
    x0, x1 = (float(chart.get_attribute(name)) for name in ("data-x0", "data-x1"))
    box = chart.bounding_box()
    scale = box["width"] / 640
    page.mouse.move(box["x"] + (x0 + (x1 - x0) * 0.3) * scale, box["y"] + box["height"] / 2)
    tip = page.locator(".bpe-chart-tip").first
    expect(tip).to_have_text("round 3: 86 tokens, vocabulary 17")  # explainer: 137 - 19 - 19 - 13; 14 + 3
    page.mouse.move(box["x"] - 20, box["y"] - 20)
    expect(page.locator(".bpe-chart-tip")).to_have_count(0)
    assert errors == []
