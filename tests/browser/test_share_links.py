"""Share links in the built site: a link restores its view, back walks the rounds, hostile links do nothing."""
from __future__ import annotations

import base64

from playwright.sync_api import expect


from bpe_app.share import CORPUS_LIMIT  # noqa: E402
from bpe_app.state import DEFAULT_PRESET, AppState  # noqa: E402

#: Links that must be refused (a message, the default view) without running anything they hold.
HOSTILE = {
    "absurd round": "?round=999999999999",
    "script as preset": "?preset=<script>alert(1)</script>",
    "broken base64 corpus": "?corpus=%%%",
    "non-UTF-8 corpus": "?corpus=" + base64.urlsafe_b64encode(b"\xff\xfeA").decode().rstrip("="),
    "corpus over the limit": "?corpus=" + base64.urlsafe_b64encode(b"a" * (CORPUS_LIMIT + 1)).decode(),
    "image tag as text": "?text=<img src=x onerror=window.__xss=1>",
    "NUL alphabet": "?alphabet=%00",
    "garbled escape": "?text=%E6%9D&round=1",
}


def open_link(app, query: str):
    """Open the site at `query`; dialogs (alert, confirm…) are recorded on `app.dialogs` and dismissed."""
    if not hasattr(app, "dialogs"):
        app.dialogs = []
        app.page.on("dialog", lambda dialog: (app.dialogs.append(dialog.message), dialog.dismiss()))
    app.url = app.url.split("?")[0] + query
    app.open()
    return app.page


def expect_round_shown(page, value: str) -> None:
    """The slider's handle says `value`, waiting as `expect` does: while the live document replaces the
    prerendered page, the first handle in the DOM can still be the prerendered one (round 0) for a moment."""
    expect(page.locator(".round-slider .noUi-handle").first).to_have_attribute("aria-valuenow", value)


def test_a_link_restores_its_view_and_back_walks_the_rounds(app):
    page = open_link(app, "?preset=course&round=1&text=aab")
    summary = page.locator(".bpe-corpus-summary").first
    expect(summary).to_contain_text("5 tokens after 1 merge")
    expect_round_shown(page, "1.0")
    assert page.locator(".preset-select select").first.input_value() == "course"
    assert page.locator(".encode-input input").first.input_value() == "aab"
    chips = page.locator(".bpe-encoded").first.locator(".bpe-chip")
    assert chips.evaluate_all("chips => chips.map(chip => chip.dataset.id)") == ["256", "98"]  # aa, b
    assert page.evaluate("location.search") == "?preset=course&round=1&text=aab"

    # Two new rounds are two new entries; back returns to the one before.
    page.locator(".prev-round button").first.click()
    expect(summary).to_contain_text("6 tokens after 0 merges")
    page.wait_for_function("location.search === '?preset=course&text=aab'")
    page.locator(".next-round button").first.click()
    page.locator(".next-round button").first.click()
    expect(summary).to_contain_text("4 tokens after 2 merges")
    page.wait_for_function("location.search === '?preset=course&round=2&text=aab'")
    page.go_back()
    expect(summary).to_contain_text("5 tokens after 1 merge")
    assert page.evaluate("location.search") == "?preset=course&round=1&text=aab"
    page.go_back()
    expect(summary).to_contain_text("6 tokens after 0 merges")
    page.go_forward()
    expect(summary).to_contain_text("5 tokens after 1 merge")

    # Typing rewrites the current entry instead of adding one.
    page.locator(".encode-input input").first.fill("baa")
    page.wait_for_function("location.search === '?preset=course&round=1&text=baa'")
    assert app.errors == [], "\n".join(app.errors)


def test_a_link_can_open_the_comparison_with_a_real_tokenizer(app):
    page = open_link(app, "?text=2023%202024&compare=cl100k_base")
    compare = page.locator(".bpe-compare").first
    expect(compare).to_contain_text("GPT-4's cl100k_base")
    chips = compare.locator(".bpe-chip")
    expect(chips).to_have_count(5)  # 202 3 ␣ 202 4: numbers in groups of up to three digits
    assert chips.evaluate_all("chips => chips.map(chip => chip.textContent)") == ["202", "3", "␣", "202", "4"]
    expect(compare.locator("table.bpe-counts")).to_contain_text("100,277")
    assert app.errors == [], "\n".join(app.errors)


def test_hostile_links_are_refused_with_a_message_and_the_default_view(app):
    failures = []
    for name, query in HOSTILE.items():
        page = open_link(app, query)
        message = page.locator(".bpe-message").first
        try:
            expect(message).to_contain_text("This link could not be opened")
            assert page.locator(".preset-select select").first.input_value() == DEFAULT_PRESET
            expect_round_shown(page, "0.0")
            assert page.locator(".encode-input input").first.input_value() == AppState.encode_text
            page.wait_for_function("location.search === ''")  # the address is the default view's again
            assert page.evaluate("typeof window.__xss") == "undefined"
            assert app.dialogs == []
            assert page.locator("img[src=x], script:has-text('alert')").count() == 0
        except AssertionError as error:
            failures.append(f"{name} ({query[:60]}): {error}")
    assert failures == [], "\n".join(failures)
    assert app.errors == [], "\n".join(app.errors)
