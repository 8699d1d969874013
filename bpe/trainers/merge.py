"""One learned merge rule, as both trainers report it.

A named tuple, not a dataclass: a tokenizer file of 100k merges makes 100k of them, and
a tuple is built several times faster than a frozen dataclass.

>>> Merge(0, 97, 97, 256, 2, 1, 1).count
2
"""
from __future__ import annotations

from typing import NamedTuple

from ..record import Record


class Merge(NamedTuple):
    rank: int  # position in the rule table, from 0
    left: int
    right: int
    id: int  # the new token's id
    count: int  # candidate count: every adjacent window, overlaps included (aaa holds (a,a) twice)
    replacements: int  # matches consumed by the left-to-right pass (aaa gets one)
    ties: int  # how many pairs shared the top count, the winner included


class Result(Record):
    """What a trainer returns: the merges and why it stopped."""

    merges: list[Merge]
    stopped: str
