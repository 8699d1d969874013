"""The page's explanations without a browser: the inspector, the stepper, the vocabulary table,
split characters, and the actions the page's clicks ask for, on every preset."""
from __future__ import annotations

import doctest
import html
import re

import pytest

import bpe
from bpe import real
from bpe.presets import PRESETS
from bpe_app import actions, inspector_view, notes, settings_view, vocabulary_view
from bpe_app.actions import Actions
from bpe.panes import chips
from bpe.panes import corpus, stepper
from bpe_app.state import AppState


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.mark.parametrize("module", [actions, chips, corpus, inspector_view, settings_view, stepper,
                                    vocabulary_view, notes])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


@pytest.fixture(scope="module", params=list(PRESETS))
def state(request):
    return AppState(preset=request.param)


def test_every_token_of_every_preset_has_an_inspector_card(state):
    training, rounds = state.training, state.rounds // 2
    for token_id in range(len(training.vocab)):
        card = inspector_view.inspector_html(training, rounds, ("", token_id), None)
        assert f'data-id="{token_id}"' in card and "<script" not in card
        rank = token_id - training.tokenizer.first_merge_id
        if rank >= rounds:
            assert f'data-value="{rank + 1}"' in card and "Not made yet" in card
        elif rank >= 0:
            assert f"At round {rounds} it occurs" in card and "Merge tree" in card


def test_the_inspectors_count_is_the_corpus_count(state):
    training, rounds = state.training, state.rounds
    counted = {}
    for document in training.documents(rounds):
        for i in document:
            counted[i] = counted.get(i, 0) + 1
    for merge in training.merges[-3:]:
        card = text_of(inspector_view.token_html(training, rounds, merge.id))
        n = counted.get(merge.id, 0)
        assert f"it occurs {n:,} time{'' if n == 1 else 's'} in the corpus" in card


def test_the_stepper_ends_at_the_encoders_chips(state):
    training = state.training
    for text in ("walkable", "stalking", "東京は日本の首都です。", "I ❤️ 🍣 2024"):
        last = stepper.last_step(training, text, state.rounds)
        final = stepper.stepper_html(training, text, state.rounds, last)
        ids = [int(i) for i in re.findall(r'data-id="(\d+)"', final.split('class="bpe-step-chips"')[1])]
        assert ids == [i for i in training.tokenizer.encode(text, state.rounds) if i is not None]
        assert f"step {last} of {last}" in final
        assert "step 0 of" in stepper.stepper_html(training, text, state.rounds, 0)


def test_the_stepper_steps_only_a_long_texts_first_characters():
    state = AppState(preset="explainer")
    text = "walking " * 200
    page = text_of(stepper.stepper_html(state.training, text, state.rounds, 0))
    assert f"of {len(text):,}" in page and "Stepping through the first" in page


def test_the_vocabulary_table_pages_and_searches(state):
    training = state.training
    page = vocabulary_view.vocabulary_html(training, state.rounds, None, "", "", "id", False, 0)
    rows = re.findall(r'<tr class="bpe-vrow" data-id="(\d+)"', page)
    assert rows == [str(i) for i in range(min(vocabulary_view.PAGE_ROWS, training.vocab_size(state.rounds)))]
    assert page.count('tabindex="0"') == 1  # one tab stop; arrows move between rows


def test_the_vocabulary_of_a_real_tokenizer_is_searchable():
    state = AppState(preset="explainer")
    state.vocab_source = "cl100k_base"
    assert state.compare == "cl100k_base" and state.reference.name == "cl100k_base"  # loaded by the choice
    page = vocabulary_view.vocabulary_html(state.training, 0, state.reference, "cl100k_base", "tokenizer", "id",
                                           False, 0)
    ids = [int(i) for i in re.findall(r'<tr class="bpe-vrow" data-id="(\d+)"', page)]
    assert ids and all(b"tokenizer" in state.reference.tokens[i] for i in ids)
    assert 'data-vocab="cl100k_base"' in page and "rank" in page


def test_a_split_character_is_boxed_with_its_character():
    state = AppState(preset="octlm")  # bytes
    state.round = 0
    from bpe.panes.encoding import encoding_html
    page = encoding_html(state.training, "東京", 0)
    assert re.findall(r'<span class="bpe-split-char">(.*?)</span>', page) == ["東", "京"]
    assert 'title="東: 3 bytes over 3 tokens"' in page


def test_actions_open_close_step_and_sort():
    state = AppState(preset="explainer")
    state.round, state.encode_text = 6, "walkable"
    act = Actions(state)
    act.do("encode-step", "last", "")
    assert state.encode_step == 3
    act.do("step", "-1", "")  # the page's running total of arrow presses: one ←
    assert state.encode_step == 2
    act.do("step", "1", "")
    act.do("step", "1", "")  # the same total again: no press since
    assert state.encode_step == 3
    act.do("encode-play", "1", "")  # ▶ at the end plays from the start
    assert state.stepping and state.encode_step == 0
    act.do("encode-step", "+1", "")  # a step by hand stops playing
    assert not state.stepping and state.encode_step == 1
    act.do("vocab-sort", "bytes", "")
    assert (state.vocab_sort, state.vocab_descending) == ("bytes", True)
    for bad in [("inspect", "x", ""), ("round", "", ""), ("vocab-sort", "<b>", ""), ("nonsense", "1", "")]:
        act.do(*bad)  # what a page sends is not trusted: nothing breaks, nothing changes
    assert state.round == 6 and state.inspected is None and state.vocab_sort == "bytes"


def test_a_retraining_closes_an_inspector_whose_token_is_gone():
    state = AppState(preset="explainer")
    state.inspect("", len(state.training.vocab) - 1)
    state.budget_size = 2
    assert state.inspected is None
