"""Two trainings compared round by round: the rounds that differ, and the first one explained."""

import pytest
from hypothesis import HealthCheck, given, settings as hsettings

import bpe
from bpe.explain import difference
from bpe.presets import PRESETS
from tests.test_trainers import configurations, documents


def pairs(training: bpe.Training) -> list[tuple[bytes, bytes]]:
    """Each merge as the text of its two parts, the plain way."""
    return [(training.vocab[m.left], training.vocab[m.right]) for m in training.merges]


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, configurations, configurations)
def test_differing_rounds_are_the_rounds_whose_pairs_differ(docs, a_settings, b_settings):
    a, b = bpe.train(docs, a_settings), bpe.train(docs, b_settings)
    ours, theirs = pairs(a), pairs(b)
    longest = max(len(ours), len(theirs))
    ours, theirs = ours + [None] * (longest - len(ours)), theirs + [None] * (longest - len(theirs))
    expected = [k + 1 for k, (x, y) in enumerate(zip(ours, theirs)) if x != y]
    assert difference.differing_rounds(a, b) == expected
    sentence = difference.first_difference(a, b)
    if not expected:
        assert sentence == ""
        return
    first = expected[0]
    assert sentence.startswith(f"Round {first}: ")
    for side, pair in (("A", ours[first - 1]), ("B", theirs[first - 1])):
        if pair is None:
            assert f"{side} has stopped" in sentence
        else:
            assert f"{side} takes {difference.shown(pair)}" in sentence


def test_a_training_never_differs_from_itself():
    preset = PRESETS["code"]
    training = bpe.train(preset.documents, preset.settings)
    assert difference.differing_rounds(training, training) == [] and difference.first_difference(training, training) == ""


def test_specials_shift_ids_but_not_pairs():
    """octlm's five specials move every merge's id by five; the pairs, compared as text, are the same.
    At the same vocabulary size they also take five merges' room, so B goes on for five more rounds."""
    preset = PRESETS["octlm"]
    a = bpe.train(preset.documents, preset.settings)
    b = bpe.train(preset.documents, preset.settings.replace(specials="none"))
    assert [m.id for m in a.merges] == [m.id + 5 for m in b.merges[:len(a.merges)]]
    assert difference.differing_rounds(a, b) == list(range(len(a.merges) + 1, len(a.merges) + 6))
    assert difference.first_difference(a, b).startswith(f"Round {len(a.merges) + 1}: A has stopped (budget reached); B takes")
    assert difference.setting_differences(a.settings, b.settings) == ["special tokens: octlm (A), none (B)"]


def test_the_explainer_tie_rounds():
    """The explainer's rounds 1, 4 and 5 are ties; with the other rule, round 1 already differs."""
    preset = PRESETS["explainer"]
    a = bpe.train(preset.documents, preset.settings)
    b = bpe.train(preset.documents, preset.settings.replace(**preset.contrast))
    assert [k + 1 for k, m in enumerate(a.merges) if m.ties > 1][:3] == [1, 4, 5]
    assert difference.first_difference(a, b) == (
        "Round 1: A takes (a, l) by the smallest-ids rule, B takes (l, k) by the largest-text rule; both counted 19.")


def test_different_cuts_are_named():
    preset = PRESETS["english-japanese"]
    a = bpe.train(preset.documents, preset.settings)
    b = bpe.train(preset.documents, preset.settings.replace(alphabet="chars"))
    sentence = difference.first_difference(a, b)
    assert "counted" in sentence and sentence.endswith("They cut the corpus differently (alphabet: bytes (A), chars (B)).")


def test_a_stop_is_explained():
    preset = PRESETS["course"]
    a = bpe.train(preset.documents, preset.settings)
    b = bpe.train(preset.documents, preset.settings.replace(min_frequency=2))
    assert difference.first_difference(a, b) == (
        f"Round 2: B has stopped ({b.stopped}); A takes (a, b), counted 1.")


@pytest.mark.parametrize("name", [name for name, preset in PRESETS.items() if preset.contrast])
def test_every_suggested_contrast_changes_something(name):
    """A preset's suggested comparison is worth making: B learns other merges, and the reason is given."""
    preset = PRESETS[name]
    a = bpe.train(preset.documents, preset.settings)
    b = bpe.train(preset.documents, preset.settings.replace(**preset.contrast))
    assert difference.differing_rounds(a, b) and preset.contrast_why
