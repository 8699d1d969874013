"""Where tokens come from: merge trees, encoding step by step, and the vocabulary table (bpe.explain.tree,
bpe.explain.steps, bpe.explain.vocabulary), on every preset and on generated text."""
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe import real
from bpe.explain.steps import encode_steps, pairs_left
from bpe.explain.tree import merge_tree, real_parents
from bpe.explain.vocabulary import COLUMNS, NONE, find, occurrences, real_vocabulary, training_vocabulary
from bpe.options import ALPHABET, PRETOKENIZER
from bpe.presets import PRESETS

EXPLAINER_TREES = {  # the explainer's own words: walked ← walk + ed, walk ← w + alk, alk ← al + k ...
    "walked": ("walk", "ed"), "walk": ("w", "alk"), "alk": ("al", "k"), "al": ("a", "l"), "ed": ("e", "d"),
}


@pytest.fixture(scope="module", params=list(PRESETS))
def preset_training(request):
    preset = PRESETS[request.param]
    return bpe.train(preset.documents, preset.settings)


def texts(training, node):
    return training.vocab[node.id].decode("utf-8", "surrogateescape")


def test_explainer_walked_has_the_tree_the_explainer_draws():
    preset = PRESETS["explainer"]
    training = bpe.train(preset.documents, preset.settings)
    walked = next(m.id for m in training.merges if training.vocab[m.id] == b"walked")
    tree = merge_tree(training.tokenizer.parents, walked)
    found = {texts(training, node): tuple(texts(training, child) for child in node.children)
             for node in tree.walk() if node.children}
    assert found == EXPLAINER_TREES
    assert [texts(training, node) for node in tree.walk() if not node.children] == list("walked")


def test_every_tree_of_every_preset_joins_its_parents_down_to_base_units(preset_training):
    training = preset_training
    first = training.tokenizer.first_merge_id
    for merge in training.merges:
        tree = merge_tree(training.tokenizer.parents, merge.id)
        for node in tree.walk():
            if node.children:
                assert len(node.children) == 2 and all(child.id < node.id for child in node.children)
                assert b"".join(training.vocab[child.id] for child in node.children) == training.vocab[node.id]
            else:
                assert node.id < first
        assert tree.size == 2 * len(training.vocab[merge.id]) - 1 or not training.alphabet.byte_level


def test_every_preset_steps_to_the_encoders_output_at_every_round(preset_training):
    training = preset_training
    text = "walkable stalking strawberry 2024 I ❤️ 🍣 東京は日本の首都です。"
    for rounds in sorted({0, 1, len(training.merges) // 2, len(training.merges)}):
        steps = encode_steps(training.tokenizer, text, rounds)
        assert steps[-1].ids == training.tokenizer.encode(text, rounds)
        assert steps[0].ids == training.tokenizer.encode(text, 0)
        check_steps(training, steps, rounds)


def check_steps(training, steps, rounds):
    """Each step applies a rule below `rounds`, in rank order, in as many places as it says; nothing
    left after the last step is a rule below `rounds`."""
    ranks = [step.rank for step in steps[1:]]
    assert ranks == sorted(set(ranks)) and all(rank < rounds for rank in ranks)
    for before, step in zip(steps, steps[1:]):
        made = training.tokenizer.first_merge_id + step.rank
        assert step.places > 0 and step.ids.count(made) == step.places
        assert len(before.ids) - len(step.ids) == step.places
    assert all(rank is None or rank >= rounds for _, _, rank in pairs_left(training.tokenizer, steps[-1]))


def test_walkable_at_round_6_applies_exactly_the_walk_merges():
    preset = PRESETS["explainer"]
    training = bpe.train(preset.documents, preset.settings)
    steps = encode_steps(training.tokenizer, "walkable", 6)
    vocab = training.vocab
    assert [vocab[training.merges[s.rank].id] for s in steps[1:]] == [b"al", b"alk", b"walk"]
    assert [vocab[i] for i in steps[-1].ids] == [b"walk", b"a", b"b", b"l", b"e"]
    left = {(vocab[a], vocab[b]): rank for a, b, rank in pairs_left(training.tokenizer, steps[-1])}
    assert left == {(b"walk", b"a"): None, (b"a", b"b"): None, (b"b", b"l"): None, (b"l", b"e"): None}


TRAIN_TEXT = st.text(st.sampled_from("aab cd\n é日🍣"), min_size=1, max_size=60)


@settings(max_examples=120, deadline=None)
@given(corpus=TRAIN_TEXT, text=st.text(max_size=40).filter(lambda t: not any(0xD800 <= ord(c) < 0xE000 for c in t)),
       alphabet=st.sampled_from(ALPHABET.names), pretokenizer=st.sampled_from(PRETOKENIZER.names),
       merges=st.integers(0, 30), data=st.data())
def test_steps_end_at_the_encoders_output_on_any_text(corpus, text, alphabet, pretokenizer, merges, data):
    training = bpe.train(corpus.split("\n"), bpe.Settings(alphabet=alphabet, pretokenizer=pretokenizer,
                                                          min_frequency=1, merges=merges))
    rounds = data.draw(st.integers(0, len(training.merges)))
    steps = encode_steps(training.tokenizer, text + corpus, rounds)
    assert steps[-1].ids == training.tokenizer.encode(text + corpus, rounds)
    check_steps(training, steps, rounds)


def test_the_vocabulary_table_counts_what_the_corpus_holds(preset_training):
    training = preset_training
    rounds = len(training.merges) // 2
    rows = training_vocabulary(training, rounds)
    assert [e.id for e in rows] == list(range(training.vocab_size(rounds)))
    counted = Counter(i for document in training.documents(rounds) for i in document)
    assert {e.id: e.now for e in rows if e.now} == dict(counted) == {i: n for i, n in occurrences(training, rounds).items() if n}
    for merge in training.merges[:rounds]:
        entry = rows[merge.id]
        assert (entry.born, entry.count, entry.replaced) == (merge.rank + 1, merge.count, merge.replacements)
    assert all(e.born == 0 and e.count == NONE for e in rows[:training.tokenizer.first_merge_id])


def test_searching_finds_the_substring_and_nothing_else():
    preset = PRESETS["explainer"]
    training = bpe.train(preset.documents, preset.settings)
    rows = training_vocabulary(training, 6)
    assert [e.text for e in find(rows, "ing")] == ["ing"]
    assert [e.text for e in find(rows, "in")] == ["in", "ing"]
    assert all("a" in e.text for e in find(rows, "a")) and len(find(rows, "a")) == 4  # a al alk walk


@pytest.mark.parametrize("column", COLUMNS)
def test_sorting_by_any_column_in_either_direction(column):
    rows = real_vocabulary(real.load("cl100k_base"))
    field = COLUMNS[column]
    for descending in (False, True):
        found = find(rows, "ing", column, descending)
        assert len(found) == sum("ing" in e.text for e in rows)
        for a, b in zip(found, found[1:]):
            key_a, key_b = getattr(a, field), getattr(b, field)
            assert (key_a > key_b if descending else key_a < key_b) or (key_a == key_b and a.id < b.id)


tiktoken = pytest.importorskip("tiktoken")
from tiktoken import _educational  # noqa: E402  (after the skip: it needs tiktoken)


class Below:
    """tiktoken's ranks, seen as if only those below `limit` existed (all `bpe_encode` asks of them)."""

    def __init__(self, ranks, limit):
        self.ranks, self.limit = ranks, limit

    def __getitem__(self, key):
        return self.ranks[key]

    def get(self, key, default=None):
        rank = self.ranks.get(key)
        return rank if rank is not None and rank < self.limit else default


@pytest.mark.parametrize("name", real.TIKTOKEN_NAMES)
def test_real_trees_are_the_split_tiktoken_reaches_with_lower_ranks(name):
    encoding = real.load(name)
    parents = real_parents(encoding)
    merged = [rank for token, rank in encoding.ranks.items() if len(token) > 1]  # not bytes, not specials
    sample = random.Random(10).sample(sorted(merged), 2000)
    for rank in sample:
        token = encoding.tokens[rank]
        expected = _educational.bpe_encode(Below(encoding.ranks, rank), token, visualise=None)
        assert list(parents(rank)) == expected
        assert all(part < rank for part in expected)
    word = next(word for word in (b" tokenizer", b" tokens") if word in encoding.ranks)  # GPT-2's has no " tokenizer"
    tree = merge_tree(parents, encoding.ranks[word])
    assert b"".join(encoding.tokens[n.id] for n in tree.walk() if not n.children) == word
