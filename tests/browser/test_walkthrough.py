"""What the issue asks a learner to see, checked in the built site: the explainer's figures,
the course's tie, the tie rule, the arrow keys, and the slider following a retraining."""
from __future__ import annotations

import re

import pytest

from conftest import DEEP_HELPERS, new_page, open_site

DEEP = DEEP_HELPERS + """
window.bpeWinnerIds = () => window.bpeDeepAll('.bpe-candidates tr.bpe-winner .bpe-chip').map((c) => c.dataset.id);
window.bpeWinnerTexts = () => window.bpeDeepAll('.bpe-candidates tr.bpe-winner .bpe-chip').map((c) => c.textContent);
"""


@pytest.fixture(scope="module")
def page(profile, site_url):
    page = new_page(profile, script=DEEP)
    open_site(page, site_url)
    yield page
    page.close()


def choose_preset(page, name: str) -> None:
    page.locator(".preset-select select").first.select_option(name)
    page.wait_for_function("() => /Round 0 of/.test(window.bpeText('.bpe-caption'))", timeout=60_000)


def go_to_round(page, wanted: int) -> None:
    """Step with the arrow keys, from wherever the page is, until the caption says `wanted`."""
    page.locator(".bpe-caption").first.click()  # focus off any input, so the keys reach the page
    current = int(re.search(r"Round (\d+) of", page.evaluate("() => window.bpeText('.bpe-caption')")).group(1))
    for _ in range(abs(wanted - current)):
        page.keyboard.press("ArrowRight" if wanted > current else "ArrowLeft")
    page.wait_for_function("(k) => new RegExp('Round ' + k + ' of').test(window.bpeText('.bpe-caption'))", arg=wanted)


def test_explainer_round_one_stars_a_l_and_round_six_has_59_tokens(page):
    choose_preset(page, "explainer")
    page.wait_for_function("() => /\\b137 tokens/.test(window.bpeText('.bpe-corpus-summary'))")
    go_to_round(page, 1)
    # The panes update one after another: wait for the table, not just the caption.
    page.wait_for_function("() => window.bpeWinnerTexts().join('|') === 'a|l|al'")
    winner_row = page.evaluate("() => window.bpeText('.bpe-candidates tr.bpe-winner')")
    assert "★" in winner_row and "19" in winner_row
    go_to_round(page, 6)
    page.wait_for_function("() => /\\b59 tokens/.test(window.bpeText('.bpe-corpus-summary'))")


def test_walkable_at_round_six_is_walk_a_b_l_e(page):
    box = page.locator(".encode-input input").first
    box.fill("")
    box.press_sequentially("walkable", delay=20)
    page.wait_for_function(
        "() => window.bpeDeepAll('.bpe-encoded .bpe-chip').map((c) => c.textContent).join('|') === 'walk|a|b|l|e'")


def test_course_round_two_has_three_pairs_tied_at_one_and_97_98_wins(page):
    choose_preset(page, "course")
    go_to_round(page, 2)
    page.wait_for_function("() => window.bpeDeepAll('.bpe-candidates tr.bpe-tied').length === 3")
    page.wait_for_function("() => window.bpeWinnerIds().slice(0, 2).join(',') === '97,98'")
    assert "3 pairs tied at 1" in page.evaluate("() => window.bpeText('.bpe-tie')")


def test_changing_the_tie_rule_changes_the_winner(page):
    page.locator(".tie-select select").first.select_option("largest-text")
    # b + a beats aa + a and a + b: its left text, "b", is the largest
    page.wait_for_function("() => window.bpeWinnerIds().slice(0, 2).join(',') === '98,97'", timeout=60_000)
    page.locator(".tie-select select").first.select_option("smallest")
    page.wait_for_function("() => window.bpeWinnerIds().slice(0, 2).join(',') === '97,98'", timeout=60_000)


def test_arrow_keys_move_the_round_both_ways(page):
    go_to_round(page, 2)
    go_to_round(page, 0)
    page.wait_for_function("() => /\\b6 tokens/.test(window.bpeText('.bpe-corpus-summary'))")


def test_the_slider_reaches_the_last_round_after_retraining(page):
    choose_preset(page, "explainer")
    go_to_round(page, 10)
    size = page.locator(".budget-size input").first
    size.fill("12")
    size.press("Enter")
    page.wait_for_function("() => /of 12/.test(window.bpeText('.bpe-caption'))", timeout=60_000)
    handle = page.locator(".round-slider .noUi-handle").first
    handle.focus()
    assert handle.get_attribute("aria-valuemax") in ("12", "12.0")
    for _ in range(3):  # one past the end: the slider stops at the last round
        handle.press("ArrowRight")
    page.wait_for_function("() => /Round 12 of 12/.test(window.bpeText('.bpe-caption'))")
