"""Token sequences stored as strings: one character per token, its code point the token id.

Storing ids this way lets the hot loops run at C speed: `str.replace` is exactly
BPE's left-to-right replacement pass (non-overlapping, leftmost first), `str.count`
counts the replacements, and `in` finds a pair.

>>> seq = from_ids([97, 97, 97])
>>> list(pairs(seq))  # every adjacent window, overlaps included
['aa', 'aa']
>>> to_ids(seq.replace(pair(97, 97), chr(256)))  # one pass: aaa -> [256, 97]
[256, 97]
"""
from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator


def from_ids(ids: Iterable[int]) -> str:
    return "".join(map(chr, ids))


def to_ids(seq: str) -> list[int]:
    return list(map(ord, seq))


def pair(left: int, right: int) -> str:
    return chr(left) + chr(right)


def pair_ids(pair_: str) -> tuple[int, int]:
    return ord(pair_[0]), ord(pair_[1])


def pairs(seq: str) -> Iterator[str]:
    """Every adjacent window of two tokens, overlaps included."""
    return map(operator.add, seq, seq[1:])
