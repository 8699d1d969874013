"""tiktoken's merge rule on one piece of bytes: join the adjacent pair whose bytes have the
lowest rank (leftmost on a tie) until no adjacent pair is a token.

The same rule serves the real tokenizers' encoding and the tiktoken format, which asks
how tiktoken would build one token from lower ranks (`below`).

>>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"d": 3, b"cd": 4, b"bcd": 5, b"ab": 6}
>>> byte_pair_merge(b"abcd", ranks), parts(b"abcd", ranks, below=5)
([0, 5], [b'a', b'b', b'cd'])
"""
from __future__ import annotations

import heapq
from collections.abc import Callable

#: Pieces up to this long are merged by rescanning a list (quicker for short ones); longer ones
#: through a heap, so that one long chunk (a pasted run of letters) costs n log n, not n².
SHORT_PIECE = 64


def byte_pair_merge(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """The ranks of the parts tiktoken's rule leaves."""
    return [ranks[part] for part in parts(piece, ranks)]


def parts(piece: bytes, ranks: dict[bytes, int], below: int | None = None) -> list[bytes]:
    """The parts tiktoken's rule leaves, using only ranks below `below` (all by default)."""
    get = ranks.get if below is None else _below(ranks, below)
    bounds = (_bounds_by_rescan if len(piece) <= SHORT_PIECE else _bounds_by_heap)(piece, get)
    return [piece[a:b] for a, b in zip(bounds, bounds[1:])]


def _below(ranks: dict[bytes, int], below: int) -> Callable:
    def get(key: bytes, default=None):
        rank = ranks.get(key)
        return rank if rank is not None and rank < below else default
    return get


def _bounds_by_rescan(piece: bytes, get: Callable) -> list[int]:
    starts = list(range(len(piece) + 1))  # part i is piece[starts[i]:starts[i + 1]]
    none = 1 << 62  # no such token
    pair_rank = [get(piece[i:i + 2], none) for i in range(len(piece) - 1)]  # of parts i and i+1
    while pair_rank:
        best = min(pair_rank)
        if best == none:
            break
        i = pair_rank.index(best)
        del starts[i + 1], pair_rank[i]
        if i < len(pair_rank):
            pair_rank[i] = get(piece[starts[i]:starts[i + 2]], none)
        if i:
            pair_rank[i - 1] = get(piece[starts[i - 1]:starts[i + 1]], none)
    return starts


def _bounds_by_heap(piece: bytes, get: Callable) -> list[int]:
    """The same rule in n log n. Parts form a linked list by start offset (`after[i]` is the
    start of the part after the one at i, -1 once that part has been absorbed). The heap holds
    `rank << 32 | start` for every adjacent pair (lowest rank, then leftmost, pops first);
    an entry whose pair has since changed is dropped when popped (its bytes, so its rank, differ)."""
    n, push, pop = len(piece), heapq.heappush, heapq.heappop
    after, before = list(range(1, n + 1)), list(range(-1, n - 1))
    heap = [rank << 32 | i for i, rank in enumerate(map(get, (piece[i:i + 2] for i in range(n - 1))))
            if rank is not None]
    heapq.heapify(heap)
    while heap:
        key = pop(heap)
        i = key & 0xFFFFFFFF
        j = after[i]
        if j < 0 or j >= n or get(piece[i:after[j]]) != key >> 32:
            continue
        k = after[j]
        after[i], after[j] = k, -1
        if k < n:
            before[k] = i
            rank = get(piece[i:after[k]])
            if rank is not None:
                push(heap, rank << 32 | i)
        h = before[i]
        if h >= 0:
            rank = get(piece[h:k])
            if rank is not None:
                push(heap, rank << 32 | h)
    bounds, i = [0], 0
    while i < n:
        i = after[i]
        bounds.append(i)
    return bounds
