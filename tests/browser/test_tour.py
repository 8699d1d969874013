"""The guided tour in the built site: every seed tour walked step by step (the round, the caption, the
starred winner, the encoder's chips, B), the keys, the back button, an upload's story, axe with the
tour open, and the box on a phone."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bpe.explain import tours
from bpe.explain.story import shown
from bpe.presets import PRESETS
from bpe.panes.chips import pair_positions
from bpe_app.state.tour import PANE_CLASSES
from conftest import DEEP_HELPERS, OUTPUT, new_page, open_site
from test_accessibility import violations

TOUR_HELPERS = DEEP_HELPERS + """
window.bpeTour = () => window.bpeDeepAll('.bpe-tour')[0] || null;
window.bpeFocused = () => { let node = document.activeElement; while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement; return node; };
window.bpeWinner = () => window.bpeDeepAll('.bpe-candidates tr.bpe-winner .bpe-chip').map((c) => c.textContent).join(' ');
"""


@pytest.fixture(scope="module")
def page(profile, site_url):
    page = new_page(profile, viewport={"width": 1400, "height": 1000}, script=TOUR_HELPERS)
    errors = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text[:2000]))
    open_site(page, site_url)
    yield page
    page.close()
    assert not errors, errors


def box(page):
    return page.locator(".bpe-tour").first


def expect_step(page, name: str, number: int) -> None:
    """The page is as step `number` of tour `name` says: the box, the round, the pane, the chips."""
    steps = tours.tour(name)
    step = steps[number - 1]
    a, b = tours.trainings(name)
    expect(box(page)).to_have_attribute("data-step", str(number))
    expect(box(page)).to_contain_text(f"step {number} of {len(steps)}")
    expect(box(page).locator("p")).to_have_text(step.text)
    expect(page.locator(".bpe-caption").first).to_contain_text(f"Round {step.round} of {len(a.merges)}")
    assert box(page).get_attribute("data-pane") == PANE_CLASSES[step.pane]
    if 0 < step.round <= len(a.merges) and step.pane == "candidates":
        merge = a.merges[step.round - 1]
        expected = " ".join(shown(a, i) for i in (merge.left, merge.right, merge.id)).replace("␣", " ")
        page.wait_for_function("(want) => window.bpeWinner().replace(/␣/g, ' ') === want", arg=expected)
    if step.encode:
        expect(page.locator(".encode-input input").first).to_have_value(step.encode)
        ids = a.tokenizer.encode(step.encode, rounds=step.round)
        page.wait_for_function(
            "(n) => window.bpeDeepAll('.bpe-encoded .bpe-chip').length === n", arg=len(ids))
    expect(page.locator(".compare-b input").first).to_be_checked(checked=step.b)
    # The pane the step speaks about is outlined, and focus is on the box.
    page.wait_for_function("(css) => (window.bpeDeepAll('.' + css)[0] || {style: {}}).style.outline.includes('3px')",
                           arg=PANE_CLASSES[step.pane])
    # Focus is in the step's box: on the box itself, or on Next when Next was clicked (Enter goes on).
    page.wait_for_function("(n) => { const f = window.bpeFocused(); const box = f && f.closest('.bpe-tour');"
                           " return !!box && box.dataset.step === String(n) }", arg=number)


def expect_address_step(page, number: int) -> None:
    """The address holds the step: its history entry comes in a message of its own from the worker,
    just after the step is shown, so it is waited for (5 s at most), not read at once."""
    page.wait_for_function("n => new URLSearchParams(location.search).get('step') === String(n)", arg=number,
                           timeout=5_000)


@pytest.mark.parametrize("name", tours.NAMES)
def test_each_seed_tour_walks_step_by_step(page, site_url, name):
    page.bring_to_front()
    page.goto(f"{site_url}?tour={name}")
    page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
    steps = tours.tour(name)
    expect_step(page, name, 1)
    for number in range(2, len(steps) + 1):
        if number % 2:
            box(page).locator(".bpe-tour-next").click()
        else:
            page.keyboard.press("ArrowRight")  # focus is on the box
        expect_step(page, name, number)
        expect_address_step(page, number)
    expect(box(page).locator(".bpe-tour-next")).to_be_disabled()
    page.keyboard.press("ArrowLeft")
    expect_step(page, name, len(steps) - 1)


def test_the_back_button_walks_the_steps_and_escape_leaves_the_page_live(page, site_url):
    page.goto(f"{site_url}")
    page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
    page.locator(".tour-open button").first.click()
    expect_step(page, "explainer", 1)
    for number in (2, 3, 4):
        box(page).locator(".bpe-tour-next").click()
        expect_step(page, "explainer", number)
        expect_address_step(page, number)  # back is pressed after the entry is written, as a person would
    page.go_back()
    expect_step(page, "explainer", 3)
    page.go_back()
    expect_step(page, "explainer", 2)
    page.keyboard.press("Escape")
    expect(page.locator(".bpe-tour")).to_have_count(0)
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 1 of 10")  # where the tour was
    page.locator(".next-round button").first.click()
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 2 of 10")  # and live


def test_on_a_desktop_the_settings_stay_beside_the_visualization(page):
    expect(page.locator(".bpe-settings-jump").first).to_be_hidden()
    sides = page.evaluate("""() => ['.bpe-sidebar', '.bpe-main'].map((s) => window.bpeDeepAll(s)[0].getBoundingClientRect().left)""")
    assert sides[0] < sides[1]


def test_an_uploaded_corpus_gets_its_own_story(page, site_url):
    page.goto(site_url)
    page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
    text = "the cat sat on the mat\nthe rat sat on the hat\nこれはペンです。これはペンです。\n" * 3
    page.locator("input[type=file]").first.set_input_files(
        files=[{"name": "mine.txt", "mimeType": "text/plain", "buffer": text.encode()}])
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 0 of")
    page.locator(".tour-corpus button").first.click()
    expect(box(page)).to_contain_text("Tour of this corpus · step 1 of")
    total = int(re.search(r"step 1 of (\d+)", box(page).inner_text()).group(1))
    titles = [box(page).locator("h3").inner_text()]
    for number in range(2, total + 1):
        page.keyboard.press("ArrowRight")
        expect(box(page)).to_have_attribute("data-step", str(number))
        titles.append(box(page).locator("h3").inner_text())
    assert titles[:2] == ["The corpus", "The first merge"] and "Several scripts" in titles


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_open_tour_has_no_serious_accessibility_problem(profile, site_url, scheme):
    page = new_page(profile, viewport={"width": 1400, "height": 1000}, color_scheme=scheme, script=TOUR_HELPERS)
    open_site(page, site_url + "?tour=explainer&step=2")
    expect(box(page)).to_have_attribute("data-step", "2")
    assert box(page).locator("[aria-live]").count() == 1
    assert violations(page) == []
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"tour-{scheme}-1400x1000.png"))
    page.close()


def test_on_a_phone_the_box_is_a_sheet_that_leaves_the_pane_in_view(profile, site_url):
    page = new_page(profile, viewport={"width": 390, "height": 844}, script=TOUR_HELPERS)
    open_site(page, site_url + "?tour=course&step=2")
    expect(box(page)).to_have_attribute("data-step", "2")
    sheet = box(page).bounding_box()
    assert sheet["width"] >= 380 and sheet["y"] + sheet["height"] >= 840  # along the bottom
    pane = page.evaluate("""() => { const r = window.bpeDeepAll('.bpe-candidates-pane')[0].getBoundingClientRect();
                                    return [r.top, r.bottom]; }""")
    assert -1 <= pane[0] < sheet["y"] - 100  # the pane starts at the top of the window, above the sheet
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "tour-light-390x844.png"))
    page.close()


#: The animation the chips of the corpus rows run: [new chips' name, left parts' name, the rows' way].
MOTION = """() => {
  const rows = window.bpeDeepAll('.bpe-rows')[0];
  const name = (selector) => { const chip = rows.querySelector(selector); return chip ? getComputedStyle(chip).animationName : null };
  return [name('.bpe-chip.bpe-new'), name('.bpe-chip.bpe-part-l'), rows.dataset.motion || ''];
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_merge_joins_its_pair_one_round_on_and_parts_it_one_round_back(profile, site_url, motion):
    page = new_page(profile, viewport={"width": 1400, "height": 1000}, script=TOUR_HELPERS)
    page.emulate_media(reduced_motion=motion)
    open_site(page, site_url)
    page.locator(".next-round button").first.click()
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 1 of 10")
    page.wait_for_function("() => (window.bpeDeepAll('.bpe-rows')[0].dataset.motion || '') === 'forward'")
    joined, _, _ = page.evaluate(MOTION)
    assert joined == ("bpe-join" if motion == "no-preference" else "none")
    page.locator(".prev-round button").first.click()
    expect(page.locator(".bpe-caption").first).to_contain_text("Round 0 of 10")
    page.wait_for_function("() => window.bpeDeepAll('.bpe-rows')[0].dataset.motion === 'back'")
    _, parted, _ = page.evaluate(MOTION)  # a + l, merged at round 1, parts again
    assert parted == ("bpe-part-l" if motion == "no-preference" else "none")
    # The animations move nothing but the chips' transforms: the rows' layout is the same afterwards.
    page.wait_for_timeout(300)
    a, _ = tours.trainings("explainer")
    first = a.merges[0]
    pairs = sum(list(pair_positions(a.tokenizer.encode(doc, rounds=0), first.left, first.right).values()).count("l")
                for doc in set(PRESETS["explainer"].documents))  # each distinct document is one row
    assert page.evaluate("() => window.bpeDeepAll('.bpe-rows .bpe-part-l').length") == pairs
    page.close()
