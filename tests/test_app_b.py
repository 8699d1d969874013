"""A second configuration, B, trained on the same corpus and shown beside A, without a browser."""
from __future__ import annotations

import doctest
import html
import re

import pytest

pytest.importorskip("panel")

import bpe  # noqa: E402
from bpe.explain import difference  # noqa: E402
from bpe.presets import PRESETS  # noqa: E402
from bpe_app import b_settings_view, difference_view, inspector_view, share  # noqa: E402
from bpe_app.difference_view import difference_html  # noqa: E402
from bpe.panes import chart, corpus, encoding  # noqa: E402
from bpe_app.state import AppState  # noqa: E402

HOSTILE = '<img src=x onerror=alert(1)> <script>alert("x")</script>'


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.fixture
def explainer() -> AppState:
    state = AppState(preset="explainer")
    state.compare_b = True
    return state


@pytest.mark.parametrize("module", [b_settings_view, encoding, difference_view])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_b_settings_are_made_when_b_is_first_on_and_then_kept():
    state = AppState(preset="explainer")
    view = b_settings_view.BSettingsView(state)
    assert view.body.objects == [] and not view.body.visible
    state.compare_with_b(True)
    assert view.body.visible
    names = [getattr(widget, "name", "") for widget in view.body.objects]
    assert "B's tie rule" in names and "↺ B from A, as the preset suggests" in names
    made = list(view.body.objects)
    state.compare_with_b(False)
    state.compare_with_b(True)
    assert view.body.objects == made  # made once
    linked = AppState(preset="explainer")
    linked.compare_b = True  # as a share link sets it, before the view exists
    assert b_settings_view.BSettingsView(linked).body.objects


def test_no_b_until_asked():
    state = AppState(preset="explainer")
    assert state.training_b is None and state.rounds_b == 0
    assert difference_html(state.training, None, 3) == "" and encoding.b_encoding_html(state.training, None, "x", 3) == ""
    assert corpus.corpus_html(state.training, 3, None) == corpus.corpus_html(state.training, 3)
    assert "bpe-line-b" not in chart.chart_svg(state.training, 3, None)


def test_b_starts_from_the_presets_suggestion(explainer):
    preset = PRESETS["explainer"]
    assert explainer.training_b.settings == bpe.Settings(**{**vars(preset.settings), **preset.contrast})
    assert explainer.training_b.merges == bpe.train(preset.documents, explainer.training_b.settings).merges
    explainer.preset = "code"  # another preset: B follows its suggestion
    assert explainer.b_pretokenizer == "words" and explainer.training_b.settings.pretokenizer == "words"
    assert explainer.training_b.settings.alphabet == explainer.training.settings.alphabet == "bytes"


def test_any_b_setting_retrains_b_alone(explainer):
    a = explainer.training
    explainer.b_min_frequency = 5
    assert explainer.training is a and explainer.training_b.settings.min_frequency == 5
    explainer.b_budget = "vocab size"  # converted, as A's is: the same training
    assert explainer.b_budget_size == explainer.training_b.vocab_size(0) + 10 and explainer.rounds_b <= 10
    explainer.compare_b = False
    assert explainer.training_b is None


def test_a_bad_b_setting_says_so_and_keeps_b(explainer):
    b = explainer.training_b
    explainer.b_min_frequency = 0
    assert explainer.message.startswith("B: Minimum count") and explainer.training_b is b


def test_the_first_difference_is_shown_and_marked(explainer):
    page = difference_html(explainer.training, explainer.training_b, 0)
    rounds = difference.differing_rounds(explainer.training, explainer.training_b)
    assert difference.first_difference(explainer.training, explainer.training_b) in text_of(page)
    assert f'data-round="{rounds[0]}"' in page and "smallest-ids rule" in page and "largest-text rule" in page
    rows = re.findall(r'<tr class="([^"]*)"><td class="bpe-num">(\d+)', page)
    assert [int(k) for classes, k in rows if "bpe-differs" in classes] == rounds
    assert [int(k) for classes, k in rows if "bpe-first" in classes] == rounds[:1]


def test_a_copy_of_a_differs_nowhere():
    state = AppState(preset="numbers")  # suggests nothing: B starts as A
    state.compare_b = True
    page = text_of(difference_html(state.training, state.training_b, 0))
    assert "none: B is a copy of A" in page and "A and B take the same pairs at all 60 rounds" in page


def test_corpus_rows_show_both(explainer):
    page = corpus.corpus_html(explainer.training, 2, explainer.training_b)
    pairs = re.findall(r'<div class="bpe-pair">(.*?)</div></div>', page)
    assert len(pairs) == 7  # the explainer's seven distinct words
    a_chips = re.findall(r'<div class="bpe-row bpe-side-a">(.*?)</div>', page)[0]
    b_chips = re.findall(r'<div class="bpe-row bpe-side-b">(.*?)</div>', page)[0]
    assert 'data-vocab="b"' in b_chips and 'data-vocab' not in a_chips
    # walk after round 2: A has made "alk" (w alk), B "a" + "lk" -> "alk" as well, by another road
    assert text_of(a_chips).startswith("A") and text_of(b_chips).startswith("B")


def test_the_encoder_counts_both(explainer):
    page = encoding.b_encoding_html(explainer.training, explainer.training_b, "walking", 1)
    counts = re.findall(r'<td>([AB]) after round (\d+)</td><td class="bpe-num">(\d+)</td>', page)
    expected = [("A", "1", str(len(explainer.training.tokenizer.encode("walking", rounds=1)))),
                ("B", "1", str(len(explainer.training_b.tokenizer.encode("walking", rounds=1))))]
    assert counts == expected


def test_the_chart_draws_both(explainer):
    svg = chart.chart_svg(explainer.training, 4, explainer.training_b)
    assert svg.count("<polyline") == 4 and svg.count("bpe-line-b") == 2 and "A solid, B dashed" in svg and svg.index("A solid") > svg.index("</svg>")


def test_b_tokens_are_inspected_as_bs(explainer):
    token = explainer.training_b.merges[0].id
    explainer.inspect("b", token)
    assert explainer.inspected == ("b", token)
    card = inspector_view.inspector_html(explainer.training, 1, explainer.inspected, None, explainer.training_b)
    assert "B's id" in card and "lk" in text_of(card)
    explainer.compare_b = False  # B is gone: so is its card
    assert explainer.inspected is None


def test_a_link_holds_b():
    state = AppState(preset="explainer")
    state.compare_b, state.b_min_frequency, state.round = True, 3, 4
    query = share.state_to_query(state)
    assert "b=1" in query and "b_min_frequency=3" in query
    changes, message = share.query_to_changes(query)
    restored = AppState(preset="code")
    restored.restore(changes, changes["round"])
    assert message is None and restored.round == 4
    assert restored.training_b.settings == state.training_b.settings and restored.training_b.merges == state.training_b.merges


def test_a_link_without_b_holds_none_of_bs_settings():
    state = AppState(preset="explainer")
    state.b_tie = "smallest"  # changed, then B is not shown
    assert share.state_to_query(state) == ""


def test_a_link_with_an_impossible_b_is_refused():
    changes, message = share.query_to_changes("preset=explainer&b=1&b_specials=octlm")
    assert changes == {} and message.startswith("This link could not be opened: B's ")


def test_hostile_corpus_text_stays_text_in_both_rows():
    state = AppState(preset="explainer")
    state.corpus_text = HOSTILE
    state.compare_b = True
    page = corpus.corpus_html(state.training, state.rounds, state.training_b)
    assert "<img" not in page and "<script" not in page
    assert "<script" not in difference_html(state.training, state.training_b, state.rounds)


def test_bs_vocabulary_can_be_browsed(explainer):
    from bpe_app.vocabulary_view import vocabulary_html

    page = vocabulary_html(explainer.training, 2, None, "b", "lk", "id", False, 0, explainer.training_b)
    assert "of B at round 2" in page and 'data-vocab="b"' in page
    assert [int(i) for i in re.findall(r'<tr class="bpe-vrow" data-id="(\d+)"', page)] == [
        m.id for m in explainer.training_b.merges[:2] if b"lk" in explainer.training_b.vocab[m.id]]
    explainer.vocab_source = "b"
    assert explainer.compare == ""  # B is no real tokenizer to load
    assert "There is no B" in vocabulary_html(explainer.training, 2, None, "b", "", "id", False, 0, None)


def test_ticking_b_starts_it_from_as_settings_as_they_are():
    state = AppState(preset="code")
    state.param.update(min_frequency=4, budget_size=30)  # A edited
    state.compare_with_b(True)
    assert (state.b_min_frequency, state.b_budget_size, state.b_pretokenizer) == (4, 30, "words")
    assert state.training_b.settings == bpe.Settings(alphabet="bytes", pretokenizer="words", tie="smallest",
                                                     min_frequency=4, merges=30)
    state.b_tie = "largest-text"
    state.compare_with_b(True)  # already on: B keeps its own settings
    assert state.b_tie == "largest-text"
    state.compare_with_b(False)
    assert state.training_b is None


def test_a_restored_link_keeps_its_own_b():
    """A link's B is its own, not A's settings copied: restoring sets them as they are."""
    changes, _ = share.query_to_changes("preset=code&b=1&b_pretokenizer=none&min_frequency=3")
    state = AppState()
    state.restore(changes, 0)
    assert state.b_pretokenizer == "none" and state.b_min_frequency == 2 and state.min_frequency == 3


def test_the_languages_table_counts_every_chosen_tokenizer(explainer):
    from bpe import real
    from bpe.explain import languages
    from bpe_app.languages_view import state_languages_html

    explainer.counted = ["r50k_base", "claude_legacy"]
    assert sorted(explainer.loaded) == ["claude_legacy", "r50k_base"]
    page = state_languages_html(explainer.training, 3, explainer.training_b, "", None, explainer.counted,
                                explainer.loaded)
    for label in ("A, round 3", "B, round 3", real.LABELS["r50k_base"], real.LABELS["claude_legacy"]):
        assert html.escape(label) in page
    japanese = languages.passages()["ja"]
    row = re.search(r'<th scope="row">Japanese \(kana and kanji\)</th>(.*?)</tr>', page).group(1)
    numbers = re.findall(r'<td class="bpe-num">([^<]*)</td>', row)
    assert numbers[0] == f"{len(japanese):,}"
    assert numbers[1] == f"{len(explainer.training.tokenizer.encode(japanese, rounds=3)):,}"
    assert numbers[7] == f"{len(real.load('r50k_base').encode_ordinary(japanese)):,}"


def test_counting_a_tokenizer_adds_it_to_the_encoders_counts(explainer):
    from bpe_app.compare_view import comparison_html

    explainer.counted = ["p50k_base"]
    page = comparison_html(explainer.training, 2, "walking", "", None, explainer.training_b, explainer.counted,
                           explainer.loaded)
    assert "Token counts" in page and "Codex&#x27;s p50k_base" in page and "of text-davinci-003" in page


def test_b_learning_more_rounds_than_a_says_where_they_are():
    state = AppState(preset="course")  # A: min count 1, 2 merges
    state.compare_b = True
    state.param.update(b_min_frequency=1, b_budget_size=4)  # B: 4 merges asked, 3 possible on aaa | aba
    extra = state.rounds_b - state.rounds
    assert extra > 0
    page = text_of(difference_html(state.training, state.training_b, state.rounds))
    assert f"B learns {extra} more round" in page and f"its last round, {state.rounds}" in page
