"""The fast trainer and the reference give the same answer in every configuration."""
import itertools

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

import bpe
from bpe.encoding.pretokenize import PRETOKENIZERS
from bpe.presets import PRESETS
from bpe.settings import ALPHABETS, TIES
from bpe.trainers.training import run, training_steps

# Few distinct symbols make ties and overlapping runs (aaaa, abab) common; the rest
# bring multi-byte UTF-8, combining marks, digits, whitespace kinds and an emoji.
SYMBOLS = "aab ab\n\t_1é\u0301日😀'"
documents = st.lists(
    st.one_of(
        st.text(alphabet=SYMBOLS, max_size=14),
        st.sampled_from(["", "a", "aaaa", "abab", "aaa", "aba"]),
        st.builds(lambda c, n: c * n, st.sampled_from("ab é"), st.integers(1, 9)),
    ),
    max_size=6,
)
configurations = st.builds(
    bpe.Settings,
    alphabet=st.sampled_from(ALPHABETS),
    pretokenizer=st.sampled_from(PRETOKENIZERS),
    tie=st.sampled_from(TIES),
    min_frequency=st.integers(1, 3),
    merges=st.integers(0, 40),
)


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, configurations)
def test_fast_equals_reference(docs, config):
    fast = bpe.train(docs, config, "fast")
    reference = bpe.train(docs, config, "reference")
    assert fast.merges == reference.merges
    assert fast.tokens == reference.tokens
    assert fast.stopped == reference.stopped


@hsettings(max_examples=100, deadline=None)
@given(documents, st.sampled_from(PRETOKENIZERS), st.sampled_from(TIES))
def test_octlm_specials_match_too(docs, pretokenizer, tie):
    config = bpe.Settings(pretokenizer=pretokenizer, tie=tie, specials="octlm", min_frequency=1, merges=20)
    fast = bpe.train(docs, config, "fast")
    assert fast.merges == bpe.train(docs, config, "reference").merges
    assert all(m.id >= 261 and m.left not in range(256, 261) and m.right not in range(256, 261) for m in fast.merges)


@hsettings(max_examples=150, deadline=None)
@given(documents, configurations)
def test_record_is_consistent_round_by_round(docs, config):
    """Each round's table leads with its winner at its count; documents shrink by the replacements."""
    t = bpe.train(docs, config)
    for k, merge in enumerate(t.merges, start=1):
        table = t.candidates(k)
        assert (table[0].left, table[0].right, table[0].count) == (merge.left, merge.right, merge.count)
        assert merge.ties == sum(1 for c in table if c.count == merge.count)
        assert 1 <= merge.replacements <= merge.count
    for k in range(len(t.merges) + 1):
        assert sum(map(len, t.documents(k))) == t.tokens[k]
    final = t.documents(len(t.merges))
    assert final == [t.tokenizer.encode(doc) for doc in docs]


@hsettings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcZ", max_size=16), st.sampled_from(["ab", "aa", "ba", "bb"]), st.integers(1, 5))
def test_merging_one_chunk_moves_exactly_the_windows_that_change(chunk, target, weight):
    """`merge_chunk`'s delta is the weighted difference of the windows before and after, for
    any number of matches, touching or overlapping ("aaaa") or not."""
    from collections import Counter, defaultdict

    from bpe.encoding.sequence import pairs
    from bpe.trainers.fast import merge_chunk

    delta = defaultdict(int)
    merged, gained, replaced = merge_chunk(chunk, target, "T", weight, delta)
    assert merged == chunk.replace(target, "T") and replaced == chunk.count(target)
    expected = Counter(pairs(merged))
    expected.subtract(pairs(chunk))
    assert {p: n for p, n in delta.items() if n} == {p: n * weight for p, n in expected.items() if n}
    assert sorted(gained) == sorted({p for p in pairs(merged) if "T" in p})


def test_overlaps_are_counted_apart_from_replacements():
    t = bpe.train(["aaaaa"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=1))
    assert (t.merges[0].count, t.merges[0].replacements) == (4, 2)


def test_ties_follow_the_rule():
    docs = ["ab", "ba", "cd"]
    smallest = bpe.train(docs, bpe.Settings(pretokenizer="none", min_frequency=1, merges=1))
    largest = bpe.train(docs, bpe.Settings(pretokenizer="none", min_frequency=1, merges=1, tie="largest-text"))
    assert (smallest.merges[0].left, smallest.merges[0].right) == (ord("a"), ord("b"))
    assert (largest.merges[0].left, largest.merges[0].right) == (ord("c"), ord("d"))
    assert smallest.merges[0].ties == 3


def test_largest_text_compares_text_not_ids():
    """A longer token with the same prefix is larger text: 'ab' + 'c' beats 'a' + 'c' style ties."""
    docs = ["abx", "abx", "aby", "aby"]
    t = bpe.train(docs, bpe.Settings(pretokenizer="none", min_frequency=1, merges=3, tie="largest-text"))
    assert t.merges == bpe.train(docs, t.settings, "reference").merges
    assert t.tokenizer.token_text(t.merges[1].id) == "aby"


def test_documents_are_barriers():
    t = bpe.train(["a", "a"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=5))
    assert t.merges == [] and t.candidates(1) == [] and t.stopped == "no pairs left"


def test_min_frequency_stops_training():
    t = bpe.train(["abcd"], bpe.Settings(pretokenizer="none", min_frequency=2, merges=5))
    assert t.merges == [] and "below the minimum of 2" in t.stopped


@hsettings(max_examples=150, deadline=None)
@given(documents, configurations, st.integers(1, 6))
def test_the_leaders_are_the_whole_tables_first_rows(docs, config, limit):
    """`leaders` ranks only the pairs that can lead, yet gives the table's first rows, ties at the cut
    broken as the whole table breaks them, the number of pairs and how many share the top count."""
    t = bpe.train(docs, config)
    for k in range(1, len(t.merges) + 2):
        table = t.candidates(k)
        rows, total, tied = t.leaders(k, limit)
        assert rows == table[:limit] and total == len(table)
        assert tied == (sum(1 for c in table if c.count == table[0].count) if table else 0)


def test_scrubbing_in_any_order_gives_the_same_states():
    """States replayed from cached neighbours equal states computed from scratch, in any visiting order."""
    import random

    text = open(bpe.__file__.replace("__init__.py", "trainers/reference.py"), encoding="utf-8").read()
    t = bpe.train([text], bpe.Settings(pretokenizer="kinds", merges=150))
    fresh = bpe.train([text], t.settings)
    rounds = list(range(len(t.merges) + 1))
    random.Random(3).shuffle(rounds)
    for k in rounds + sorted(rounds) + sorted(rounds, reverse=True):
        expected_chunks, expected_counts = fresh._state_from_scratch(k)
        assert t.chunks(k) == expected_chunks
        assert t._state(k)[1] == expected_counts


@pytest.mark.parametrize("name", list(PRESETS))
def test_training_step_by_step_learns_what_train_learns(name):
    preset = PRESETS[name]
    steps = training_steps(preset.documents, preset.settings)
    seen = [done for done, _ in itertools.islice(steps, 2)]
    training = run(steps)
    assert seen == [0, 1]
    assert training.merges == bpe.train(preset.documents, preset.settings).merges
    assert training.stopped == bpe.train(preset.documents, preset.settings).stopped
