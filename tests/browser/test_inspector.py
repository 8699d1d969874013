"""Every token explains itself, in the built site: the inspector (from every place a chip is shown,
by mouse and by keyboard), its merge tree, the encoder's stepper and the vocabulary table.

One page for the module, on the explainer preset; each test sets the round it needs."""
from __future__ import annotations

import re

import pytest

from conftest import DEEP_HELPERS, OUTPUT, new_page, open_site

TREE_HELPERS = """
window.bpeInspector = () => window.bpeDeepAll('.bpe-inspector')[0] || null;
// {node text: [its parents' texts]} for every node of the inspector's tree that has parents.
window.bpeTree = () => {
  const tree = {};
  for (const item of window.bpeDeepAll('.bpe-inspector .bpe-tree li')) {
    const own = item.querySelector(':scope > .bpe-chip');
    const children = [...item.querySelectorAll(':scope > ul > li > .bpe-chip')].map((c) => c.textContent);
    if (own && children.length) tree[own.textContent] = children;
  }
  return tree;
};
window.bpeFocused = () => { let node = document.activeElement; while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement; return node; };
"""


@pytest.fixture(scope="module")
def page(profile, site_url):
    page = new_page(profile, viewport={"width": 1400, "height": 1000}, script=DEEP_HELPERS + TREE_HELPERS)
    errors = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text[:2000]))
    open_site(page, site_url)
    yield page
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "inspector-1400x1000.png"))
    page.close()
    assert not errors, errors


def go_to_round(page, round_: int) -> None:
    page.evaluate("() => window.bpeDeepAll('.bpe-inspector .bpe-close').forEach((b) => b.click())")
    for _ in range(40):
        shown = int(page.evaluate("() => window.bpeText('.bpe-caption b')").split()[1])
        if shown == round_:
            return
        page.locator(".next-round button" if shown < round_ else ".prev-round button").first.click()
        page.wait_for_function("(old) => window.bpeText('.bpe-caption b') !== old",
                               arg=f"Round {shown} of 10", timeout=10_000)
    raise AssertionError(f"could not reach round {round_}")


def inspected_id(page) -> str:
    page.wait_for_function("() => window.bpeInspector() !== null", timeout=15_000)
    return page.evaluate("() => window.bpeInspector().dataset.id")


def close(page) -> None:
    page.evaluate("() => window.bpeDeepAll('.bpe-inspector .bpe-close').forEach((b) => b.click())")
    page.wait_for_function("() => window.bpeInspector() === null", timeout=10_000)


def set_text(page, text: str) -> None:
    box = page.locator(".encode-input input").first
    box.fill(text)
    page.wait_for_function("(want) => window.bpeChipText('.bpe-encoded') === want && "
                           "window.bpeChipText('.bpe-step-chips') === want", arg=text, timeout=15_000)


def test_walked_in_the_merge_list_shows_its_merge_tree(page):
    go_to_round(page, 10)
    page.locator(".bpe-merges .bpe-chip").filter(has_text=re.compile("^walked$")).last.click()
    inspected_id(page)
    assert page.evaluate("() => window.bpeTree()") == {
        "walked": ["walk", "ed"], "walk": ["w", "alk"], "alk": ["al", "k"], "al": ["a", "l"], "ed": ["e", "d"]}
    text = page.evaluate("() => window.bpeInspector().textContent")
    assert "Made in round 8" in text and "77 61 6c 6b 65 64" in text
    # The corpus rows outline every chip of the token, and only those (the round's new tokens have 2 px).
    outlined = page.evaluate("""() => window.bpeDeepAll('.bpe-rows .bpe-chip')
        .filter((c) => getComputedStyle(c).outlineStyle === 'solid' && getComputedStyle(c).outlineWidth === '3px').map((c) => c.textContent)""")
    assert outlined and set(outlined) == {"walked"}


def test_a_tree_node_opens_its_own_token(page):
    page.locator(".bpe-inspector .bpe-tree .bpe-chip").filter(has_text=re.compile("^alk$")).first.click()
    page.wait_for_function("() => window.bpeInspector() && window.bpeTree().alk && !window.bpeTree().walked")
    assert page.evaluate("() => window.bpeTree()") == {"alk": ["al", "k"], "al": ["a", "l"]}
    close(page)


def test_a_token_not_yet_made_offers_its_round(page):
    go_to_round(page, 2)
    page.locator(".bpe-merges .bpe-chip").filter(has_text=re.compile("^walked$")).last.click()
    inspected_id(page)
    assert "Not made yet at round 2: round 8 makes it" in page.evaluate("() => window.bpeInspector().textContent")
    page.locator(".bpe-inspector .bpe-action").filter(has_text="Go to round 8").click()
    page.wait_for_function("() => window.bpeText('.bpe-caption b').startsWith('Round 8 of')", timeout=10_000)
    page.wait_for_function("() => window.bpeInspector().textContent.includes('At round 8 it occurs')")
    close(page)


@pytest.mark.parametrize("place", [".bpe-rows", ".bpe-candidates", ".bpe-merges", ".bpe-encoded", ".bpe-vocab"])
def test_the_inspector_opens_from_every_place_by_click(page, place):
    chip = page.locator(f"{place} .bpe-chip").first
    expected = chip.get_attribute("data-id")
    chip.click()
    assert inspected_id(page) == expected
    close(page)


def test_the_inspector_opens_by_keyboard_and_escape_closes_it(page):
    chip = page.locator(".bpe-encoded .bpe-chip").first
    chip.focus()
    chip.press("Enter")
    assert inspected_id(page) == chip.get_attribute("data-id")
    page.wait_for_function("() => window.bpeFocused() && window.bpeFocused().classList.contains('bpe-inspector')")
    page.keyboard.press("Escape")
    page.wait_for_function("() => window.bpeInspector() === null", timeout=10_000)
    # The corpus is one tab stop: Enter enters its rows, → moves to the next chip, Enter opens it.
    rows = page.locator(".bpe-rows").first
    rows.focus()
    rows.press("Enter")
    page.keyboard.press("ArrowRight")
    second = page.evaluate("() => window.bpeFocused().dataset.id")
    page.keyboard.press("Enter")
    assert inspected_id(page) == second
    close(page)


def test_a_real_tokenizers_chip_opens_its_rebuilt_tree(page):
    page.locator(".compare-select select").first.select_option(label="GPT-4's cl100k_base")
    page.wait_for_function("() => window.bpeDeepAll('.bpe-compare .bpe-chip').length > 0", timeout=60_000)
    chip = page.locator(".bpe-compare .bpe-chip").first
    chip.click()
    assert inspected_id(page) == chip.get_attribute("data-id")
    text = page.evaluate("() => window.bpeInspector().textContent")
    assert "cl100k_base rank" in text and "Rebuilt from them" in text
    close(page)
    page.locator(".compare-select select").first.select_option(label="nothing")


def test_stepping_through_walkable_at_round_6(page):
    go_to_round(page, 6)
    set_text(page, "walkable")
    words, chips = [], []
    stepper = page.locator(".bpe-stepper").first
    stepper.focus()
    for _ in range(3):
        words.append(page.evaluate("() => window.bpeText('.bpe-step-words')"))
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(old) => window.bpeText('.bpe-step-words') !== old", arg=words[-1], timeout=10_000)
    final = page.evaluate("() => window.bpeText('.bpe-step-words')")
    chips = page.evaluate("() => window.bpeDeepAll('.bpe-step-chips .bpe-chip').map((c) => c.textContent).join('|')")
    assert chips == "walk|a|b|l|e", (words, final)
    assert "step 3 of 3" in page.evaluate("() => window.bpeText('.bpe-step-controls')")
    assert words[0].startswith("The text starts as 8 characters")
    assert [w.split(",")[0] for w in [*words[1:], final]] == ["rank 1: a + l → al", "rank 2: al + k → alk",
                                                             "rank 3: w + alk → walk"]
    assert "That is the encoder's output" in final and "walk + a" in final
    # ← goes back, and the scrubber's round did not move with the arrows.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => window.bpeText('.bpe-step-controls').includes('step 2 of 3')", timeout=10_000)
    assert page.evaluate("() => window.bpeText('.bpe-caption b')").startswith("Round 6 of")
    page.locator(".bpe-stepper .bpe-action").filter(has_text=re.compile("^start$")).click()
    page.wait_for_function("() => window.bpeText('.bpe-step-controls').includes('step 0 of 3')", timeout=10_000)
    # After a click on one of its buttons, the arrow keys still step the stepper, not the rounds.
    page.locator(".bpe-stepper .bpe-action").filter(has_text=re.compile("^next")).click()
    page.wait_for_function("() => window.bpeText('.bpe-step-controls').includes('step 1 of 3')", timeout=10_000)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.bpeText('.bpe-step-controls').includes('step 2 of 3')", timeout=10_000)
    assert page.evaluate("() => window.bpeText('.bpe-caption b')").startswith("Round 6 of")


def test_stalking_shows_what_applies_and_what_is_left(page):
    set_text(page, "stalking")
    page.locator(".bpe-stepper .bpe-action").filter(has_text=re.compile("^end$")).click()
    page.wait_for_function("() => window.bpeText('.bpe-step-controls').includes('step 4 of 4')", timeout=10_000)
    assert page.evaluate("() => window.bpeDeepAll('.bpe-step-chips .bpe-chip').map((c) => c.textContent).join('|')") \
        == "s|t|alk|ing"
    assert "t + alk (rank 7, learned after round 6)" in page.evaluate("() => window.bpeText('.bpe-step-words')")


def search(page, query: str) -> list[str]:
    box = page.locator(".vocab-search input").first
    box.fill(query)
    page.wait_for_function("(q) => window.bpeText('.bpe-vocab-summary').includes(q ? '“' + q + '”' : 'tokens at')",
                           arg=query, timeout=10_000)
    return page.evaluate("() => window.bpeDeepAll('.bpe-vocab .bpe-vrow .bpe-chip').map((c) => c.textContent)")


def test_the_vocabulary_searches_sorts_and_opens_the_inspector(page):
    go_to_round(page, 6)
    assert search(page, "ing") == ["ing"]
    assert search(page, "in") == ["in", "ing"]
    found = search(page, "a")
    assert found and all("a" in text for text in found)
    search(page, "")
    page.locator(".bpe-vocab .bpe-sort").filter(has_text=re.compile("^bytes")).click()  # longest first
    page.wait_for_function("() => window.bpeDeepAll('.bpe-vocab th[aria-sort=\"descending\"]').length === 1")
    first = page.evaluate("() => window.bpeDeepAll('.bpe-vocab .bpe-vrow .bpe-chip')[0].textContent")
    assert first == "walk"
    row = page.locator(".bpe-vocab .bpe-vrow").first
    row.click()
    assert inspected_id(page) == row.get_attribute("data-id")
    close(page)
