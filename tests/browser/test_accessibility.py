"""axe-core (from npm, pinned in pins.json and fetched by `build.py test`) on the live page.

The goal of issue 13: no critical or serious violation, at the start and after the page has
been used (another preset, a few rounds), on a desktop and on a phone, in the light and the
dark colour scheme. Screenshots of each go to test-output/.
"""
from __future__ import annotations

import pytest
from bpe_build.fetch import fetch_npm
from playwright.sync_api import expect

from conftest import OUTPUT, new_page, open_site

BLOCKING = ("critical", "serious")


def violations(page) -> list[str]:
    """The critical and serious violations, one line each, with up to three of their elements."""
    page.wait_for_timeout(1000)  # the names AccessibleNames gives redrawn controls
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(fetch_npm("axe_core") / "axe.min.js"))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
      .map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' >> '))}))""")
    return [f"{v['impact']} {v['id']}: {v['nodes']}" for v in found if v["impact"] in BLOCKING]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [{"width": 1400, "height": 1000}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_no_critical_or_serious_violations(profile, site_url, viewport, scheme):
    """In both colour schemes: the page follows the system's (prefers-color-scheme)."""
    page = new_page(profile, viewport=viewport, color_scheme=scheme, script="")
    open_site(page, site_url)
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(13, 17, 23)") == (scheme == "dark"), background
    assert violations(page) == []
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"page-{scheme}-{viewport['width']}x{viewport['height']}.png"), full_page=True)
    # After use: a byte-level preset, a few rounds on.
    page.locator(".preset-select select").first.select_option("octlm")
    expect(page.locator(".bpe-caption").first).to_contain_text("of 20", timeout=60_000)
    for _ in range(3):
        page.locator(".next-round button").first.click()
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 3 of 20")
    assert violations(page) == []
    page.close()


def test_every_control_has_a_name(profile, site_url):
    page = new_page(profile, script="")
    open_site(page, site_url)
    page.wait_for_timeout(1000)
    for role, name in [("slider", "Round"), ("button", "Play the rounds"), ("button", "Pause"),
                       ("button", "Minimum pair count: one more"), ("main", "Byte pair encoding")]:
        expect(page.get_by_role(role, name=name).first).to_be_attached()
    assert page.locator("h1").count() == 1
    page.close()
