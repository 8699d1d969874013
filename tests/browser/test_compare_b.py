"""A and B in the built site: the explainer against its other tie rule, and a link that holds B."""
from __future__ import annotations

import bpe
from bpe.explain import difference
from bpe.presets import EXPLAINER_WORDS, PRESETS
from playwright.sync_api import expect

from bpe_app.state import DEFAULT_PRESET
from conftest import DEEP_HELPERS, new_page, open_site
from test_accessibility import violations

EXPLAINER = PRESETS["explainer"]


def trained(tie: str) -> bpe.Training:
    return bpe.train(EXPLAINER.documents, EXPLAINER.settings.replace(tie=tie))


def expect_counts(page, rows: list[tuple[str, int]]) -> None:
    """The table under B's encoding says, row by row, 'A after round k' and its token count."""
    cells = page.locator(".bpe-encoded-b .bpe-counts tbody tr")
    for k, (label, count) in enumerate(rows):
        expect(cells.nth(k).locator("td").nth(0)).to_have_text(label)
        expect(cells.nth(k).locator("td").nth(1)).to_have_text(str(count))
    expect(cells).to_have_count(len(rows))


def counts(text: str, rounds: int, a: bpe.Training, b: bpe.Training) -> list[tuple[str, int]]:
    return [(f"{side} after round {rounds}", len(t.tokenizer.encode(text, rounds=rounds))) for side, t in (("A", a), ("B", b))]


def test_the_explainer_against_the_other_tie_rule(app):
    assert DEFAULT_PRESET == "explainer"
    app.open()
    page = app.page
    page.locator(".compare-b input").first.check()
    expect(page.locator(".b-tie-select select").first).to_have_value("largest-text")
    expect(page.locator(".tie-select select").first).to_have_value("smallest")

    # The first difference: the round where the two rules first pick different pairs, and why.
    a, b = trained("smallest"), trained("largest-text")
    first = next(k for k, (x, y) in enumerate(zip(a.merges, b.merges), 1)
                 if (a.vocab[x.left], a.vocab[x.right]) != (b.vocab[y.left], b.vocab[y.right]))
    assert a.merges[first - 1].ties > 1  # a tie, which the rule decided
    shown = page.locator(".bpe-first-difference").first
    expect(shown).to_contain_text(f"Round {first}: A takes")
    expect(shown).to_contain_text("by the smallest-ids rule")
    expect(shown).to_contain_text("by the largest-text rule")
    assert shown.get_attribute("data-round") == str(first)
    expect(shown).to_contain_text(difference.explain(a, b, first))
    marked = page.locator(".bpe-aligned tr.bpe-first td.bpe-num").first
    expect(marked).to_contain_text(str(first))

    # The encoder shows both counts; one scrubber moves both.
    box = page.locator(".encode-input input").first
    box.fill("")
    box.press_sequentially("walking", delay=20)
    page.locator(".next-round button").first.click()
    page.locator(".next-round button").first.click()
    expect(page.locator(".bpe-encoded-b .bpe-heading").first).to_contain_text("B, after round 2")
    expect_counts(page, counts("walking", 2, a, b))

    # The corpus rows show both, and the chart draws both.
    assert page.locator(".bpe-side-b").count() == 7
    assert page.locator(".bpe-chart .bpe-line-b").count() == 2
    page.wait_for_function("() => location.search.includes('b=1')")

    # The same rule on both sides: no difference left.
    page.locator(".b-tie-select select").first.select_option("smallest")
    expect(page.locator(".bpe-first-difference").first).to_contain_text(
        f"A and B take the same pairs at all {len(a.merges)} rounds")
    assert not app.errors, app.errors


def test_a_link_with_b_restores_both_panes(app):
    app.url += "?b=1&b_min_frequency=3&round=4&text=talking"
    app.open()
    page = app.page
    expect(page.locator(".compare-b input").first).to_be_checked()
    expect(page.locator(".b-tie-select select").first).to_be_visible()
    expect(page.locator(".b-tie-select select").first).to_have_value("largest-text")
    expect(page.locator(".b-min-frequency input").first).to_have_value("3")
    b = bpe.train(EXPLAINER.documents, EXPLAINER.settings.replace(tie="largest-text", min_frequency=3))
    a = trained("smallest")
    expect(page.locator(".bpe-first-difference").first).to_contain_text(difference.first_difference(a, b))
    assert page.locator(".bpe-side-b").count() == 7
    expect(page.locator(".bpe-encoded-b .bpe-heading").first).to_contain_text("B, after round 4")
    expect_counts(page, counts("talking", 4, a, b))
    assert page.locator(".bpe-chart .bpe-line-b").count() == 2
    assert "b=1" in page.evaluate("location.search")
    assert violations(page) == []
    assert not app.errors, app.errors


def test_b_on_a_phone_in_the_dark(profile, site_url):
    """Both panes fit a phone's width (wide tables scroll in their own box), with nothing axe calls serious."""
    page = new_page(profile, viewport={"width": 390, "height": 844}, color_scheme="dark", script="")
    open_site(page, site_url + "?preset=english-japanese&b=1&round=30")
    expect(page.locator(".bpe-first-difference").first).to_contain_text("They cut the corpus differently")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert violations(page) == []
    page.close()


def test_bs_tokens_open_as_bs_and_outline_bs_rows(app):
    """Id 14 is A's "al" and B's "lk" (round 1 makes both): a click on B's chip inspects B's token and
    outlines B's chips alone."""
    app.page.add_init_script(DEEP_HELPERS)
    app.url += "?b=1&round=1"
    app.open()
    page = app.page
    chip = page.locator('.bpe-aligned .bpe-chip[data-vocab="b"][data-id="14"]').first
    expect(chip).to_have_text("lk")
    chip.click()
    card = page.locator(".bpe-inspector").first
    expect(card).to_contain_text("B's id 14")
    expect(card).to_contain_text("Made in round 1")
    page.wait_for_function("""() => window.bpeDeepAll('.bpe-rows .bpe-chip').some((c) =>
        getComputedStyle(c).outlineWidth === '3px')""")
    outlined = page.evaluate("""() => window.bpeDeepAll('.bpe-rows .bpe-chip')
        .filter((c) => getComputedStyle(c).outlineStyle === 'solid' && getComputedStyle(c).outlineWidth === '3px')
        .map((c) => [c.dataset.vocab || '', c.textContent])""")
    words_with_lk = [word for word, _ in EXPLAINER_WORDS if "lk" in word]  # each distinct word is one row
    assert len(outlined) == len(words_with_lk) and {tuple(pair) for pair in outlined} == {("b", "lk")}, outlined
    assert not app.errors, app.errors
