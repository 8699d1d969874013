"""The cost-across-languages passage: the same paragraph in seven languages, and what each costs."""
from __future__ import annotations

import pytest

import bpe
from bpe import real
from bpe.explain import languages
from bpe.presets import PRESETS


def test_the_passages_are_one_paragraph_in_seven_translations():
    texts = languages.passages()
    assert set(texts) == set(languages.LANGUAGES)
    for code, text in texts.items():
        assert "1993" in text and "1000" in text, code  # the year the project began; its developers
        assert ("Debian" in text and "Ian Murdock" in text) or (code == "ko" and "데비안" in text), code  # Hangul names
        assert "<" not in text and "\n" not in text and 150 < len(text) < 1000


@pytest.mark.parametrize("name", real.NAMES)
def test_costs_are_the_tokenizers_own_counts(name):
    encoding = real.load(name)
    rows = languages.cost({name: encoding.encode_ordinary})
    english = len(encoding.encode_ordinary(languages.passages()["en"]))
    for row in rows:
        tokens = len(encoding.encode_ordinary(languages.passages()[row.code]))
        cost = row.costs[name]
        assert (cost.tokens, cost.characters) == (tokens, len(languages.passages()[row.code]))
        assert cost.ratio == tokens / english and cost.per_character == tokens / cost.characters
    assert rows[0].costs[name].ratio == 1.0


def test_english_is_cheapest_for_gpt2s_vocabulary():
    """The point of the view, on a real vocabulary: r50k_base learned from English web text."""
    rows = languages.cost({"r50k": real.load("r50k_base").encode_ordinary})
    assert all(row.costs["r50k"].ratio > 3 for row in rows if row.code != "en")


def test_a_chars_alphabet_counts_its_unknown_characters():
    preset = PRESETS["explainer"]  # chars: the corpus's own 14 letters
    tokenizer = bpe.train(preset.documents, preset.settings).tokenizer
    row = next(row for row in languages.cost({"ours": tokenizer.encode}) if row.code == "ja")
    assert row.costs["ours"].tokens == len(tokenizer.encode(languages.passages()["ja"]))  # each unknown: one
