"""Dark mode on every control, from the first screen on: in the system's dark colour scheme no
button, input, select, text box or file chooser is drawn light, before Panel takes over (the
still page or the prerendered page the first screen answers on) or after (the full app). Screenshots of both, at
1400×1000 and 390×844, go to test-output/ to be looked at."""
from __future__ import annotations

import pytest

from conftest import DEEP_HELPERS, INTERACTIVE_TIMEOUT_MS, OUTPUT, SECOND_VISIT

FIRST = "() => document.body.classList.contains('bpe-first')"
FULL = "() => !document.body.classList.contains('pn-loading')"

#: Each visible control and the colour it is drawn on: its own background or, where that is
#: transparent, the first ancestor's that is not (across shadow roots); a file input's button too.
BACKGROUNDS = """() => {
  const opaque = (colour) => colour && colour !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(colour);
  const drawnOn = (element) => {
    for (let node = element; node; node = node.parentElement || (node.getRootNode() || {}).host) {
      const colour = getComputedStyle(node).backgroundColor;
      if (opaque(colour)) return colour;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const shown = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
  const found = [];
  // The page's, and the still page's while it shows (its closed shadow root, see test_still_page.py).
  const still = window.bpeFirstScreen && window.bpeFirstScreen.still && window.bpeFirstScreen.still.root();
  const controls = [document, ...(still ? [still] : [])].flatMap((root) => window.bpeDeepAll('button, input, select, textarea', root));
  for (const element of controls.filter(shown)) {
    if (element.type === 'checkbox' || element.type === 'radio' || element.type === 'range') continue;  // drawn by the browser in its scheme
    const name = `${element.tagName.toLowerCase()}.${element.className || ''} "${(element.textContent || element.value || '').trim().slice(0, 24)}"`;
    found.push([name, drawnOn(element)]);
    if (element.type === 'file') {
      found.push([`${name} ::file-selector-button`, getComputedStyle(element, '::file-selector-button').backgroundColor]);
    }
  }
  return found;
}"""


def luminance(colour: str) -> float:
    """WCAG's relative luminance of an `rgb(...)` or `rgba(...)` colour (0 black, 1 white)."""
    red, green, blue = (int(float(part)) / 255 for part in colour[colour.index("(") + 1:-1].split(",")[:3])
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def light_controls(page) -> list[str]:
    return [f"{name} on {colour}" for name, colour in page.evaluate(BACKGROUNDS) if luminance(colour) > 0.4]


@pytest.mark.skipif(SECOND_VISIT, reason="holds Panel back, which only a cold start can")
@pytest.mark.parametrize("viewport", [{"width": 1400, "height": 1000}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_no_light_control_in_dark_mode_before_or_after_the_hand_over(browser, site_url, viewport):
    OUTPUT.mkdir(exist_ok=True)
    # The still page (Bokeh held back), the first screen (Panel held back), the full app.
    for where, hold in (("still-page", "window.bpeHoldPanel = true; window.bpeHoldBokeh = true"),
                        ("first-screen", "window.bpeHoldPanel = true"), ("full-app", "")):
        context = browser.new_context(viewport=viewport, color_scheme="dark")
        context.add_init_script(DEEP_HELPERS + hold)
        page = context.new_page()
        page.goto(site_url)
        page.wait_for_function(FIRST if hold else FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        page.wait_for_timeout(500)
        if where == "still-page":
            assert page.evaluate("() => Boolean(window.bpeFirstScreen.still.root())")
        controls = page.evaluate(BACKGROUNDS)
        assert len(controls) > 20  # the settings, the scrubber, the encoder and its examples at least
        assert light_controls(page) == []
        page.screenshot(path=str(OUTPUT / f"dark-{where}-{viewport['width']}x{viewport['height']}.png"))
        context.close()


def test_the_check_finds_light_controls_in_light_mode(browser, site_url):
    """The same check, in the light scheme, does see light controls (so it reads the colours)."""
    context = browser.new_context(color_scheme="light")
    context.add_init_script(DEEP_HELPERS)
    page = context.new_page()
    page.goto(site_url)
    page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
    light = light_controls(page)
    assert any("Tour this corpus" in line for line in light) and any("textarea" in line for line in light)
    assert any("::file-selector-button" in line for line in light)
    context.close()
