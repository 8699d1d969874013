"""The app's features in the built site, through the DOM hooks the app provides.

One page is loaded for the whole module (a cold start costs seconds); each test drives it from
whatever state the previous one left and checks relative changes. Hooks: token chips `.bpe-chip`
(with data-id and title) inside `.bpe-corpus`, `.bpe-candidates`, `.bpe-encoded`; widgets with the
css classes encode-input, preset-select, next-round, prev-round, round-slider.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import OUTPUT, new_page, open_site

VISIBLE_SPACE = "␣"


@pytest.fixture(scope="module")
def shared(profile, site_url):
    page = new_page(profile)
    requests, errors = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text[:2000]))
    open_site(page, site_url)
    yield page, requests, errors
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "site-features.png"), full_page=True)
    page.close()


def encoded_text(page) -> str:
    return page.evaluate("() => window.bpeChipText('.bpe-encoded')")


def type_and_wait(page, text: str) -> None:
    box = page.locator(".encode-input input").first
    box.fill("")
    box.press_sequentially(text, delay=20)
    page.wait_for_function("(want) => window.bpeChipText('.bpe-encoded') === want",
                           arg=text.replace(" ", VISIBLE_SPACE), timeout=30_000)


def corpus_pieces(page) -> int:
    summary = page.locator(".bpe-corpus").first.inner_text()
    return int(re.search(r"(\d[\d,]*) tokens?", summary).group(1).replace(",", ""))


def test_typing_encodes_each_keystroke_into_chips(shared):
    page, _, errors = shared
    type_and_wait(page, "the cat")
    chips = page.evaluate(
        "() => window.bpeDeepAll('.bpe-encoded .bpe-chip').map((c) => [c.dataset.id, c.title, c.textContent])")
    assert chips, "no chips"
    for data_id, title, _ in chips:
        assert data_id == "unknown" or data_id.isdigit(), chips
        assert title, chips
    # Walkable: one more key press re-encodes; a deleted key encodes the shorter text again.
    box = page.locator(".encode-input input").first
    box.press("s")
    page.wait_for_function("(want) => window.bpeChipText('.bpe-encoded') === want",
                           arg=f"the{VISIBLE_SPACE}cats")
    box.press("Backspace")
    page.wait_for_function("(want) => window.bpeChipText('.bpe-encoded') === want",
                           arg=f"the{VISIBLE_SPACE}cat")
    assert errors == []


def test_markup_typed_by_the_user_stays_text(shared):
    page, _, errors = shared
    payload = '<img src=x onerror="window.bpeXss=1"><script>window.bpeXss=2</script>'
    type_and_wait(page, payload)
    # The same markup as a training corpus: shown as chips, never parsed.
    corpus = page.locator(".corpus-input textarea").first
    corpus.fill(payload)
    corpus.press("Tab")
    page.wait_for_function("() => window.bpeChipText('.bpe-corpus').includes('<img')", timeout=60_000)
    assert page.evaluate("() => window.bpeXss") is None
    assert page.evaluate("() => window.bpeDeepAll("
                         "'.bpe-encoded img, .bpe-encoded script, .bpe-corpus img, .bpe-corpus script').length") == 0
    assert errors == []


def test_next_round_merges_a_pair_and_updates_the_candidates(shared):
    page, _, errors = shared
    before_pieces = corpus_pieces(page)
    before_candidates = page.locator(".bpe-candidates").first.inner_text()
    assert page.evaluate("() => window.bpeDeepAll('.bpe-candidates .bpe-chip').length") > 0
    page.locator(".next-round button").first.click()
    expect(page.locator(".bpe-candidates").first).not_to_have_text(before_candidates)
    page.wait_for_function(
        "(before) => { const m = window.bpeDeepAll('.bpe-corpus')[0].textContent.match(/([\\d,]+) tokens?/);"
        " return m && Number(m[1].replaceAll(',', '')) < before; }", arg=before_pieces)
    page.locator(".prev-round button").first.click()
    page.wait_for_function(
        "(before) => { const m = window.bpeDeepAll('.bpe-corpus')[0].textContent.match(/([\\d,]+) tokens?/);"
        " return m && Number(m[1].replaceAll(',', '')) === before; }", arg=before_pieces)
    assert errors == []


def test_choosing_another_preset_retrains(shared):
    page, _, errors = shared
    select = page.locator(".preset-select select").first
    options = [o for o in select.locator("option").all_inner_texts()]
    current = select.input_value()
    others = [o for o in options if o != current]
    if not others:
        pytest.skip("only one preset")
    before = page.locator(".bpe-corpus").first.inner_text()
    select.select_option(others[0])
    expect(page.locator(".bpe-corpus").first).not_to_have_text(before, timeout=60_000)
    assert errors == []


def test_no_request_left_localhost_while_using_the_app(shared):
    _, requests, _ = shared
    assert requests
    assert [url for url in requests if not re.match(r"(data:|blob:|http://127\.0\.0\.1:\d+/)", url)] == []
