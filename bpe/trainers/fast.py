"""The fast trainer: incremental pair counts, in the shape of Hugging Face's BPE trainer.

- chunks are deduplicated and weighted by their count (done by `Corpus`);
- `where` maps a pair to the chunks that may hold it, so a merge touches only those;
- a chunk holding the pair once is filed under the tokens beside the match, and each of
  those neighbours' windows moves once for all its chunks (see `_merge_all`);
- the merged pair is gone from every chunk afterwards (a left-to-right pass leaves no
  window of it), so its count is dropped whole rather than tracked;
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

from ..encoding.sequence import pair_ids, pairs
from ..options import TieRule
from .merge import Merge, Result


class _Counts:
    """Pair counts with a heap for the best pair and a histogram for ties.

    `where` maps a pair to the chunks that may hold it, as a list: a chunk listed twice,
    or one that lost the pair to an earlier merge, is skipped when the pair's merge finds
    no match in it, which is cheaper than keeping the lists exact."""

    def __init__(self, chunks: list[str], counts: list[int], tie: TieRule, vocab: list[bytes]):
        where: defaultdict[str, list[int]] = defaultdict(list)
        for i, chunk in enumerate(chunks):
            for pair in pairs(chunk):
                where[pair].append(i)
        # A chunk is listed once per window of the pair, so its weights add up to the count.
        weight = counts.__getitem__
        count = {pair: sum(map(weight, held)) for pair, held in where.items()}
        self.count, self.where = count, where
        key = tie.pair_key(vocab)  # reads vocab as it grows
        self.key = None if key is str else key  # the smallest-ids rule keys a pair by itself
        # A defaultdict, not a Counter: a new key costs a Python call in `Counter.__missing__`.
        self.histogram: defaultdict[int, int] = defaultdict(int, Counter(count.values()))
        self.heap = [(-n, pair if self.key is None else self.key(pair), pair) for pair, n in count.items()]
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

    def apply(self, merged: str, delta: dict[str, int]) -> None:
        """The merged pair is gone from every chunk; every other pair changes by its delta."""
        count, histogram, heap, key, push = self.count, self.histogram, self.heap, self.key, heapq.heappush
        histogram[count.pop(merged)] -= 1
        delta.pop(merged, None)  # windows of the merged pair itself, counted in overlaps: all gone
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
                if change > 0:
                    push(heap, (-new, pair if key is None else key(pair), pair))
            else:
                del count[pair]


def _file(delta, where, held: list[int], moved: int, old: str, new: str) -> None:
    """Chunks `held` (of total weight `moved`) each had one window `old` and now have `new`."""
    delta[old] -= moved
    delta[new] += moved
    listed = where.get(new)
    if listed is None:
        where[new] = held  # the usual case, a pair never seen before: no copy
    else:
        listed.extend(held)


def merge_chunk(chunk: str, pair: str, token: str, weight: int, delta: dict[str, int]) -> tuple[str, list[str], int]:
    """Replace `pair` in one chunk and record how every pair count changes.

    Returns the merged chunk, the pairs it gained (those holding the new token) and
    how many replacements it made (0 for a stale index entry).

    >>> delta = defaultdict(int)
    >>> merge_chunk("xabyabab", "ab", "Z", 2, delta)
    ('xZyZZ', ['xZ', 'Zy', 'yZ', 'ZZ'], 3)
    >>> dict(delta)
    {'ab': -6, 'xa': -2, 'xZ': 2, 'by': -2, 'Zy': 2, 'ya': -2, 'yZ': 2, 'ba': -2, 'ZZ': 2}
    """
    first = chunk.find(pair)
    if first < 0:
        return chunk, [], 0
    if chunk.find(pair, first + 2) < 0:
        return _merge_once(chunk, first, pair, token, weight, delta)
    # Only the windows touching a match change: the match itself, the window from the last
    # token of the stretch before it, the one to the first token after it, or the window
    # joining two matches that nothing lies between.
    left, right = pair
    parts = chunk.split(pair)
    delta[pair] -= (len(parts) - 1) * weight
    gained = []
    head, *between, tail = parts
    if head:
        _moved(delta, gained, head[-1] + left, head[-1] + token, weight)
    for part in between:
        if part:
            _moved(delta, gained, right + part[0], token + part[0], weight)
            _moved(delta, gained, part[-1] + left, part[-1] + token, weight)
        else:
            _moved(delta, gained, right + left, token + token, weight)
    if tail:
        _moved(delta, gained, right + tail[0], token + tail[0], weight)
    return token.join(parts), list(dict.fromkeys(gained)), len(parts) - 1


def _moved(delta: dict[str, int], gained: list[str], old: str, new: str, weight: int) -> None:
    """One window of a chunk changed from `old` to `new`."""
    delta[old] -= weight
    delta[new] += weight
    gained.append(new)


def _merge_once(chunk: str, at: int, pair: str, token: str, weight: int, delta: dict[str, int]):
    """The common case, one match: the windows touching it change, nothing else."""
    before, after = chunk[at - 1:at] if at else "", chunk[at + 2:at + 3]
    delta[pair] -= weight
    gained: list[str] = []
    if before:
        _moved(delta, gained, before + pair[0], before + token, weight)
    if after:
        _moved(delta, gained, pair[1] + after, token + after, weight)
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
    where = state.where
    for merges in range(max_merges):
        found = state.best()
        if found is None:
            return "no pairs left"
        pair, count = found
        if count < min_frequency:
            return f"the best pair occurs {count} times, below the minimum of {min_frequency}"
        new_id = first_id + merges
        token = chr(new_id)
        delta: defaultdict[str, int] = defaultdict(int)
        replaced = _merge_all(chunks, counts, where.pop(pair), pair, token, delta, where, count)
        left, right = pair_ids(pair)
        vocab.append(vocab[left] + vocab[right])  # before apply(): the tie key of new pairs reads it
        merge = Merge(merges, left, right, new_id, count, replaced, state.histogram[count])
        state.apply(pair, delta)
        yield merge
    return "budget reached"


def _merge_all(chunks, weights, listed, pair, token, delta, where, count) -> int:
    """Replace `pair` by `token` in every listed chunk, recording the pair deltas and the
    chunks' new pairs in `where`; returns the replacements, weighted. Two windows of a pair
    of different tokens never overlap, so then each of its `count` windows is replaced;
    only a pair like (a, a) needs its replacements counted ("aaa" holds two windows, one
    replaced).

    The usual chunk holds the pair once, and is done here inline: only the two windows
    touching the match change, so it is filed under the tokens before and after the
    match, and each of those tokens' windows is moved once for all its chunks. A listed
    chunk without the pair (see `_Counts`) is skipped.

    >>> chunks, delta, where = ["xaby", "ab", "c", "xab"], defaultdict(int), defaultdict(list)
    >>> _merge_all(chunks, [2, 5, 1, 3], [0, 1, 2, 0, 3], "ab", "Z", delta, where, 10), chunks
    (10, ['xZy', 'Z', 'c', 'xZ'])
    >>> dict(delta), dict(where)
    ({'xa': -5, 'xZ': 5, 'by': -2, 'Zy': 2}, {'xZ': [0, 3], 'Zy': [0]})
    >>> _merge_all(["aaa", "aaaa"], [1, 1], [0, 1], "aa", "Z", defaultdict(int), defaultdict(list), 5)
    3
    """
    left, right = pair
    overlapping = left == right
    replaced = 0
    before: defaultdict[str, list[int]] = defaultdict(list)  # token before the match -> chunks
    after: defaultdict[str, list[int]] = defaultdict(list)
    for i in listed:
        chunk = chunks[i]
        if pair not in chunk:
            continue
        head, _, tail = chunk.partition(pair)
        if pair in tail:  # more than one match: the general case
            chunks[i], gained, matches = merge_chunk(chunk, pair, token, weights[i], delta)
            replaced += matches * weights[i]
            for new in gained:
                where[new].append(i)
            continue
        if overlapping:
            replaced += weights[i]
        if head:
            before[head[-1]].append(i)
        if tail:
            after[tail[0]].append(i)
        chunks[i] = head + token + tail
    weight = weights.__getitem__
    for neighbour, held in before.items():
        _file(delta, where, held, sum(map(weight, held)), neighbour + left, neighbour + token)
    for neighbour, held in after.items():
        _file(delta, where, held, sum(map(weight, held)), right + neighbour, token + neighbour)
    return replaced if overlapping else count
