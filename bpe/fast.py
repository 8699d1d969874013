"""The fast trainer: incremental pair counts, in the shape of Hugging Face's BPE trainer.

- chunks are deduplicated and weighted by their count (done by `Corpus`);
- `where` maps a pair to the chunks that may hold it, so a merge touches only those;
- a heap orders pairs by (count, tie key), with lazy invalidation: a popped entry
  whose count is stale goes back with its current count (counts only fall, except
  for pairs with the new token, which are pushed when they appear);
- `histogram` counts pairs per count, so "how many pairs tied" costs nothing.

Sequences are strings of token code points (see `sequence.py`), so replacing a pair
in a chunk is one `str.replace`.

>>> from bpe.options import TIE
>>> result = train(["aaa", "aba"], [1, 1], [bytes([i]) for i in range(256)],
...                first_id=256, tie=TIE.choose("smallest"), min_frequency=1, max_merges=2)
>>> [(m.left, m.right, m.id, m.count, m.replacements, m.ties) for m in result.merges]
[(97, 97, 256, 2, 1, 1), (97, 98, 257, 1, 1, 3)]
"""
from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Generator

from .merge import Merge, Result
from .options import TieRule
from .sequence import pair_ids, pairs


class _Counts:
    """Pair counts with a heap for the best pair and a histogram for ties."""

    def __init__(self, chunks: list[str], counts: list[int], tie: TieRule, vocab: list[bytes]):
        self.count: dict[str, int] = defaultdict(int)
        self.where: dict[str, set[int]] = defaultdict(set)
        for i, (chunk, weight) in enumerate(zip(chunks, counts)):
            for pair in pairs(chunk):
                self.count[pair] += weight
                self.where[pair].add(i)
        self.key = tie.pair_key(vocab)  # reads vocab as it grows
        self.histogram = Counter(self.count.values())
        self.heap = [(-count, self.key(pair), pair) for pair, count in self.count.items()]
        heapq.heapify(self.heap)

    def best(self) -> tuple[str, int] | None:
        """The winning pair and its count, or None when no pair is left."""
        heap, count = self.heap, self.count
        while heap:
            stored, key, pair = heap[0]
            current = count.get(pair, 0)
            if current == -stored:
                return pair, current
            heapq.heapreplace(heap, (-current, key, pair)) if current else heapq.heappop(heap)
        return None

    def apply(self, delta: dict[str, int]) -> None:
        count, histogram = self.count, self.histogram
        for pair, change in delta.items():
            if not change:
                continue
            old = count.get(pair, 0)
            new = old + change
            if old:
                histogram[old] -= 1
            if new:
                histogram[new] += 1
                count[pair] = new
            else:
                del count[pair]
            if change > 0:
                heapq.heappush(self.heap, (-new, self.key(pair), pair))


def merge_chunk(chunk: str, pair: str, token: str, weight: int, delta: dict[str, int]) -> tuple[str, list[str], int]:
    """Replace `pair` in one chunk and record how every pair count changes.

    Returns the merged chunk, the pairs it gained (those holding the new token) and
    how many replacements it made (0 for a stale index entry)."""
    first = chunk.find(pair)
    if first < 0:
        return chunk, [], 0
    if chunk.find(pair, first + 2) < 0:
        return _merge_once(chunk, first, pair, token, weight, delta)
    # Only the tokens next to a match matter, so each stretch between matches is cut
    # down to its first and last token: the cut creates the same made-up pair before
    # and after, which cancels in the delta.
    parts = chunk.split(pair)
    edges = [part if len(part) <= 2 else part[0] + part[-1] for part in parts]
    for old in pairs(pair.join(edges)):
        delta[old] -= weight
    gained = []
    for new in pairs(token.join(edges)):
        delta[new] += weight
        if token in new:
            gained.append(new)
    return token.join(parts), gained, len(parts) - 1


def _merge_once(chunk: str, at: int, pair: str, token: str, weight: int, delta: dict[str, int]):
    """The common case, one match: the windows touching it change, nothing else."""
    before, after = chunk[at - 1:at] if at else "", chunk[at + 2:at + 3]
    delta[pair] -= weight
    gained = []
    if before:
        delta[before + pair[0]] -= weight
        gained.append(before + token)
        delta[before + token] += weight
    if after:
        delta[pair[1] + after] -= weight
        gained.append(token + after)
        delta[token + after] += weight
    return chunk[:at] + token + chunk[at + 2:], gained, 1


def train(chunks, counts, vocab, first_id, tie, min_frequency, max_merges) -> Result:
    """Learn up to max_merges merges; `vocab` (id -> bytes) is extended in place."""
    return collect(learn(chunks, counts, vocab, first_id, tie, min_frequency, max_merges))


def collect(steps: Generator[Merge, None, str]) -> Result:
    """Every merge `learn` yields, and the reason it returns."""
    merges = []
    while True:
        try:
            merges.append(next(steps))
        except StopIteration as done:
            return Result(merges, done.value)


def learn(chunks, counts, vocab, first_id, tie, min_frequency, max_merges) -> Generator[Merge, None, str]:
    """`train`, one merge at a time: yields each merge as it is learned and returns why it stopped,
    so that a caller can report progress, or stop early, between any two merges.

    >>> from bpe.options import TIE
    >>> steps = learn(["abab"], [1], [bytes([i]) for i in range(256)], 256, TIE.choose("smallest"), 1, 5)
    >>> next(steps).id, next(steps).id
    (256, 257)
    """
    chunks = list(chunks)
    state = _Counts(chunks, counts, tie, vocab)
    merges = 0
    while merges < max_merges:
        found = state.best()
        if found is None:
            return "no pairs left"
        pair, count = found
        if count < min_frequency:
            return f"the best pair occurs {count} times, below the minimum of {min_frequency}"
        new_id = first_id + merges
        token = chr(new_id)
        delta: dict[str, int] = defaultdict(int)
        replaced = 0
        for i in state.where.pop(pair):  # some entries are stale: an earlier merge took the pair away
            chunks[i], gained, matches = merge_chunk(chunks[i], pair, token, counts[i], delta)
            replaced += matches * counts[i]
            for new in gained:
                state.where[new].add(i)
        left, right = pair_ids(pair)
        vocab.append(vocab[left] + vocab[right])  # before apply(): the tie key of new pairs reads it
        merge = Merge(merges, left, right, new_id, count, replaced, state.histogram[count])
        state.apply(delta)
        merges += 1
        yield merge
    return "budget reached"
