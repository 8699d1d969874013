"""The reference trainer: a full recount every round, short enough to read in a minute.

It shares nothing with the fast trainer but the input (the tie rule's key among
it), so tests can hold one against the other.

>>> from bpe.options import TIE
>>> result = train(["aaa", "aba"], [1, 1], [bytes([i]) for i in range(256)],
...                first_id=256, tie=TIE.choose("smallest"), min_frequency=1, max_merges=2)
>>> [(m.left, m.right, m.id, m.count, m.replacements, m.ties) for m in result.merges]
[(97, 97, 256, 2, 1, 1), (97, 98, 257, 1, 1, 3)]
"""
from __future__ import annotations

from collections import Counter

from ..options import TieRule
from .merge import Merge, Result


def count_pairs(chunks: list[tuple[int, ...]], counts: list[int]) -> Counter:
    """Every adjacent window in every chunk, weighted by the chunk's count."""
    pairs: Counter = Counter()
    for chunk, count in zip(chunks, counts):
        for pair in zip(chunk, chunk[1:]):
            pairs[pair] += count
    return pairs


def choose(pairs: Counter, tie: TieRule, vocab: list[bytes]) -> tuple[int, int]:
    """The winning pair: highest count, then the smallest tie key."""
    key = tie.key(vocab)
    return min(pairs, key=lambda pair: (-pairs[pair], key(*pair)))


def replace(chunk: tuple[int, ...], pair: tuple[int, int], new_id: int) -> tuple[tuple[int, ...], int]:
    """One left-to-right pass: a match emits new_id and skips both tokens."""
    out, replaced, i = [], 0, 0
    while i < len(chunk):
        if i + 1 < len(chunk) and (chunk[i], chunk[i + 1]) == pair:
            out.append(new_id)
            replaced += 1
            i += 2
        else:
            out.append(chunk[i])
            i += 1
    return tuple(out), replaced


def train(chunks, counts, vocab, first_id, tie, min_frequency, max_merges) -> Result:
    """Learn up to max_merges merges; `vocab` (id -> bytes) is extended in place.

    Chunks come as strings of token code points (see `sequence.py`); here they
    become plain tuples of ids."""
    chunks = [tuple(map(ord, chunk)) for chunk in chunks]
    merges: list[Merge] = []
    while len(merges) < max_merges:
        pairs = count_pairs(chunks, counts)
        if not pairs:
            return Result(merges, "no pairs left")
        best = choose(pairs, tie, vocab)
        if pairs[best] < min_frequency:
            return Result(merges, f"the best pair occurs {pairs[best]} times, below the minimum of {min_frequency}")
        new_id = first_id + len(merges)
        replaced_total = 0
        for i, chunk in enumerate(chunks):
            chunks[i], replaced = replace(chunk, best, new_id)
            replaced_total += replaced * counts[i]
        ties = sum(1 for count in pairs.values() if count == pairs[best])
        merges.append(Merge(len(merges), *best, new_id, pairs[best], replaced_total, ties))
        vocab.append(vocab[best[0]] + vocab[best[1]])
    return Result(merges, "budget reached")
