"""The vocabulary as a table: every token with its text, sizes, birth and counts; searched and sorted.

>>> import bpe
>>> t = bpe.train(["walk", "walked", "talk"], bpe.Settings(alphabet="chars", pretokenizer="none", merges=3))
>>> rows = training_vocabulary(t, rounds=2)
>>> [(e.text, e.born, e.count, e.now) for e in find(rows, "al")]
[('al', 1, 3, 0), ('alk', 2, 3, 3)]
>>> [e.text for e in find(rows, "", column="now", descending=True)][:3]
['alk', 'w', 'd']
"""
from __future__ import annotations

import functools
from collections import Counter
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from ..encoding.vocab import render

if TYPE_CHECKING:
    from ..real import Encoding
    from ..trainers.training import Training

#: Marks a number a table has no value for (a base unit's count at birth; any count of a real tokenizer).
NONE = -1


class Entry(NamedTuple):
    id: int
    token: bytes
    text: str  # `render`ed: bytes that are not valid UTF-8 on their own written as \xNN
    n_bytes: int
    n_chars: int  # whole characters: the bytes of a split character count for none
    born: int  # the round that made it (0: a base unit or a special); a real tokenizer's rank
    count: int  # how often its pair was counted in the round that made it, or NONE
    replaced: int  # how many tokens that round's merge made, or NONE
    now: int  # occurrences in the corpus at the selected round, or NONE


#: The columns a table sorts by: heading -> the field it reads.
COLUMNS = {"id": "id", "text": "token", "bytes": "n_bytes", "characters": "n_chars", "born": "born",
           "count at birth": "count", "now": "now"}


def _entry(token_id: int, token: bytes, born: int, count: int = NONE, replaced: int = NONE, now: int = NONE) -> Entry:
    return Entry(token_id, token, render(token), len(token), len(token.decode("utf-8", "ignore")),
                 born, count, replaced, now)


@functools.lru_cache(maxsize=2)
def _base_counts(training: Training) -> Counter:
    """How many times each base unit occurs in the corpus before any merge."""
    counts: Counter = Counter()
    for chunk, weight in zip(training.corpus.chunks, training.corpus.counts):
        for token, n in Counter(chunk).items():
            counts[ord(token)] += n * weight
    return counts


def occurrences(training: Training, rounds: int) -> Counter:
    """How many times each token id occurs in the corpus after `rounds` merges.

    Each replacement a merge made took one left and one right token and made one new one, so
    the counts follow from round 0's and the merges' replacement counts: a scrub step costs a
    few thousand additions, not a pass over every chunk."""
    counts = Counter(_base_counts(training))
    for merge in training.merges[:rounds]:
        counts[merge.id] += merge.replacements
        counts[merge.left] -= merge.replacements
        counts[merge.right] -= merge.replacements
    return counts


def training_vocabulary(training: Training, rounds: int) -> list[Entry]:
    """Every token of the vocabulary as it stands after `rounds` merges, by id."""
    vocab, first, now = training.vocab, training.tokenizer.first_merge_id, occurrences(training, rounds)
    rows = [_entry(i, vocab[i], 0, now=now[i]) for i in range(first)]
    rows += [_entry(m.id, vocab[m.id], m.rank + 1, m.count, m.replacements, now[m.id]) for m in training.merges[:rounds]]
    return rows


@functools.lru_cache(maxsize=2)
def real_vocabulary(encoding: Encoding) -> list[Entry]:
    """Every token of a real tokenizer, by id (its 'born' is its rank: the id, less any specials
    numbered before the ranks, as Tekken's 1,000 are)."""
    offset = getattr(encoding, "rank_offset", 0)
    return [_entry(i, token, max(i - offset, 0)) for i, token in enumerate(encoding.tokens)]


def find(entries: list[Entry], query: str = "", column: str = "id", descending: bool = False) -> list[Entry]:
    """The entries (in id order) whose text holds `query` (case as typed), sorted by a `COLUMNS`
    heading. Ties stay in id order either way: the sort is stable, also when reversed."""
    found = [e for e in entries if query in e.text] if query else list(entries)
    found.sort(key=attrgetter(COLUMNS[column]), reverse=descending)
    return found
