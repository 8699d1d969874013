"""A long training in the built site: it shows its progress, a cancel stops it, and a newer choice
replaces it, with the panes never showing the stopped one."""
from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from conftest import new_page, open_site

MERGES = 3000


def big_corpus(seed: int) -> bytes:
    """About 1.2 MB of made-up words, one sentence a line: seconds of training in the page."""
    rng = random.Random(seed)
    syllables = ["ka", "lo", "mi", "tra", "ven", "sho", "pi", "qua", "rel", "do", "nu", "ste", "ing", "ed", "an"]
    words = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(4000)]
    lines = [" ".join(rng.choice(words) for _ in range(rng.randint(6, 16))) for _ in range(16000)]
    return "\n".join(lines).encode()


@pytest.fixture(scope="module")
def page(profile, site_url):
    page = new_page(profile, viewport={"width": 1400, "height": 1000})
    open_site(page, site_url)
    ask_for_many_merges(page)
    yield page
    page.close()


def ask_for_many_merges(page) -> None:
    """The explainer's settings with MERGES merges (it stops after 15, so this trains at once)."""
    page.get_by_label("how many", exact=True).fill(str(MERGES))
    page.get_by_label("how many", exact=True).press("Enter")
    expect(page.locator(".bpe-caption").first).to_contain_text("Training stopped after 15 merges")


def start_big_training(page, seed: int) -> None:
    page.locator("input[type=file]").first.set_input_files(
        files=[{"name": f"words-{seed}.txt", "mimeType": "text/plain", "buffer": big_corpus(seed)}])
    # Progress in merges, of the number asked for, while the old training stays on screen.
    page.wait_for_function("(want) => window.bpeText('[role=status]').includes(want)", arg=f"of {MERGES:,} merges",
                           timeout=90_000)
    expect(page.locator(".bpe-caption").first).to_contain_text("Training stopped after 15 merges")


def test_a_long_training_shows_progress_and_cancel_keeps_the_last_finished_one(page):
    start_big_training(page, 1)
    page.locator(".cancel-training button").first.click()
    expect(page.locator(".bpe-message").first).to_contain_text("Training cancelled")
    page.wait_for_function("() => window.bpeText('[role=status]') === ''")
    page.wait_for_timeout(1500)  # the stopped training never shows up afterwards
    expect(page.locator(".bpe-caption").first).to_contain_text("Training stopped after 15 merges")


def test_a_newer_choice_stops_a_running_training(page):
    start_big_training(page, 2)
    page.locator(".preset-select select").first.select_option("course")
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 0 of 2", timeout=30_000)
    page.wait_for_timeout(2000)  # the stopped training never shows up afterwards
    caption = page.locator(".bpe-caption").first.inner_text()
    assert "of 2" in caption and f"of {MERGES}" not in caption
    page.wait_for_function("() => window.bpeText('[role=status]') === ''")


def test_a_long_upload_waits_outside_the_text_box_until_asked(page):
    """1.2 MB in the text box would cost the browser seconds of layout: it is trained on, and shown
    in the box only when the person asks."""
    page.locator(".preset-select select").first.select_option("explainer")
    expect(page.locator(".bpe-caption").first).to_contain_text("of 10:")  # loaded, before its budget is changed
    ask_for_many_merges(page)
    start_big_training(page, 3)
    box = page.locator(".corpus-input textarea").first
    expect(box).to_be_hidden()
    expect(page.locator(".corpus-long").first).to_contain_text(
        f"{len(big_corpus(3).decode()):,} characters: the editor shows at most 100,000 unless asked")
    page.locator(".corpus-show button").first.click()
    expect(box).to_be_visible(timeout=60_000)  # the seconds of layout this test is about
    assert box.input_value() == big_corpus(3).decode()
    page.locator(".cancel-training button").first.click()
    expect(page.locator(".bpe-message").first).to_contain_text("Training cancelled")
