"""Encoding, step by step: walk the merge rules from first to last, and wherever one matches, apply it.

The text is cut into chunks and each chunk starts as base units (bytes or characters). Each
step applies the next rule, by rank, whose pair is present somewhere in the text, to every
chunk at once, left to right. The last step is what `Tokenizer.encode` returns.

>>> import bpe
>>> t = bpe.train(["walk", "walked", "talk", "able"], bpe.Settings(alphabet="chars", pretokenizer="none", merges=3))
>>> steps = encode_steps(t.tokenizer, "walkable", rounds=3)
>>> [(s.rank, s.places) for s in steps]
[(None, 0), (0, 1), (1, 1), (2, 1)]
>>> [t.vocab[i] for i in steps[-1].ids]
[b'walk', b'a', b'b', b'l', b'e']
"""
from __future__ import annotations

import dataclasses

from ..encoding.sequence import pair
from ..encoding.tokenizer import Tokenizer


@dataclasses.dataclass(frozen=True)
class Step:
    rank: int | None  # the rule applied (from 0); None for the start, before any rule
    places: int  # how many times it was applied, over the whole text
    chunks: tuple[tuple[int | None, ...], ...]  # every chunk of the text, in order, as ids after this step

    @property
    def ids(self) -> list[int | None]:
        return [i for chunk in self.chunks for i in chunk]


def encode_steps(tokenizer: Tokenizer, text: str, rounds: int | None = None) -> list[Step]:
    """The start, then one step per rule (of the first `rounds`) that matches somewhere in `text`."""
    limit = len(tokenizer.merges) if rounds is None else min(rounds, len(tokenizer.merges))
    seqs = [tokenizer.alphabet.sequence(chunk) for chunk in tokenizer.split(text)]
    steps = [Step(None, 0, tuple(map(tokenizer.ids, seqs)))]
    applied: set[int] = set()
    for seq in set(seqs):
        applied.update(_applied(tokenizer, seq, limit))
    for rank in sorted(applied):
        target, token = pair(*tokenizer.merges[rank]), chr(tokenizer.first_merge_id + rank)
        places = sum(seq.count(target) for seq in seqs)
        seqs = [seq.replace(target, token) for seq in seqs]
        steps.append(Step(rank, places, tuple(map(tokenizer.ids, seqs))))
    return steps


def _applied(tokenizer: Tokenizer, seq: str, limit: int) -> list[int]:
    """The ranks below `limit` that apply to one chunk, in the order they apply.

    The lowest-ranked pair present goes first. Any pair it creates holds its new token, so has
    a higher rank (a merge can only use a token made before it): one pass in rank order."""
    applied = []
    while True:
        ranks = [r for r in map(tokenizer.rank, map(ord, seq), map(ord, seq[1:])) if r is not None and r < limit]
        if not ranks:
            return applied
        rank = min(ranks)
        seq = seq.replace(pair(*tokenizer.merges[rank]), chr(tokenizer.first_merge_id + rank))
        applied.append(rank)


def pairs_left(tokenizer: Tokenizer, step: Step) -> list[tuple[int, int, int | None]]:
    """Each distinct adjacent pair left after `step`, in text order, with the rank that would
    merge it (None if no rule does): why encoding stopped there.

    >>> import bpe
    >>> t = bpe.train(["abab abab"], bpe.Settings(alphabet="chars", pretokenizer="none", merges=2, min_frequency=1))
    >>> pairs_left(t.tokenizer, encode_steps(t.tokenizer, "abab", rounds=1)[-1])  # ab + ab is rule 1, not yet
    [(3, 3, 1)]
    """
    seen: dict[tuple[int, int], int | None] = {}
    for chunk in step.chunks:
        for left, right in zip(chunk, chunk[1:]):
            if left is not None and right is not None and (left, right) not in seen:
                seen[left, right] = tokenizer.rank(left, right)
    return [(left, right, rank) for (left, right), rank in seen.items()]

