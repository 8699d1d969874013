"""The page on a phone: 390×844 with mobile emulation (touch, a device pixel ratio of 3)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import DEEP_HELPERS, OUTPUT, open_site

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}


@pytest.fixture(scope="module")
def phone(browser, site_url):
    context = browser.new_context(**PHONE)
    context.add_init_script(DEEP_HELPERS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_site(page, site_url)
    yield page, errors
    context.close()


def test_the_page_fits_the_phone_and_stacks(phone):
    page, errors = phone
    # The layout viewport is the phone's (a meta viewport), and nothing is wider than it.
    assert page.evaluate("() => [innerWidth, document.documentElement.scrollWidth]") == [390, 390]
    boxes = page.evaluate("""() => Object.fromEntries(['.bpe-sidebar', '.bpe-main', '.round-slider', '.prev-round',
                                                       '.bpe-corpus-pane', '.encode-input', '.bpe-candidates-pane']
      .map((s) => { const r = window.bpeDeepAll(s)[0].getBoundingClientRect(); return [s, [r.left, r.top, r.width]]; }))""")
    # The visualization first (title, rounds, corpus, encoder), the settings after it, each the phone's
    # width; the slider on a line of its own, within the first screen.
    assert boxes[".bpe-main"][1] < boxes[".bpe-sidebar"][1]
    assert boxes[".round-slider"][1] < 844
    assert boxes[".bpe-corpus-pane"][1] < boxes[".encode-input"][1] < boxes[".bpe-candidates-pane"][1]
    assert boxes[".bpe-main"][2] >= 360 and boxes[".bpe-sidebar"][2] >= 360
    assert boxes[".round-slider"][1] < boxes[".prev-round"][1] and boxes[".round-slider"][2] >= 340
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "phone-390x844.png"), full_page=True)
    assert errors == []


def test_the_chart_labels_stay_legible_on_the_phone(phone):
    page, _ = phone
    sizes = page.evaluate("""() => {
      const svg = window.bpeDeepAll('svg.bpe-chart')[0];
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    }""")
    assert sizes and min(sizes) >= 11, sizes
    # The chart scrolls in its own box, not the page.
    box = page.evaluate("() => { const b = window.bpeDeepAll('.bpe-chart-box')[0]; return [b.clientWidth, b.scrollWidth]; }")
    assert box[0] <= 390 and box[1] >= 600, box


def test_the_slider_moves_by_touch(phone):
    page, _ = phone
    handle = page.locator(".round-slider .noUi-handle").first
    expect(handle).to_have_attribute("aria-valuenow", "0.0")
    size = handle.bounding_box()
    assert size["width"] >= 30 and size["height"] >= 30, size  # big enough for a finger
    handle.scroll_into_view_if_needed()
    track = page.locator(".round-slider .noUi-base").first.bounding_box()
    page.touchscreen.tap(track["x"] + track["width"] * 0.5, track["y"] + track["height"] / 2)
    expect(handle).to_have_attribute("aria-valuenow", "5.0")
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 5 of 10")


def test_the_settings_are_one_tap_away(phone):
    page, _ = phone
    page.evaluate("() => window.scrollTo(0, 0)")
    jump = page.locator(".bpe-settings-jump").first
    expect(jump).to_be_visible()
    expect(jump).to_have_accessible_name(re.compile("Settings"))
    jump.tap()
    page.wait_for_function("""() => { const r = window.bpeDeepAll('.bpe-sidebar')[0].getBoundingClientRect();
                                      return Math.abs(r.top) < 2; }""")
    focused = page.evaluate("""() => { let n = document.activeElement;
      while (n && n.shadowRoot && n.shadowRoot.activeElement) n = n.shadowRoot.activeElement;
      return n ? n.tagName : null }""")
    assert focused in ("SELECT", "INPUT")


def test_a_link_ending_in_settings_opens_on_them(browser, site_url):
    context = browser.new_context(**PHONE)
    context.add_init_script(DEEP_HELPERS)
    page = context.new_page()
    open_site(page, site_url + "#settings")
    page.wait_for_function("""() => { const r = window.bpeDeepAll('.bpe-sidebar')[0].getBoundingClientRect();
                                      return Math.abs(r.top) < 2; }""")
    context.close()
