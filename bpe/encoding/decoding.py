"""Ids back to text: read a list of token ids as a person types it, and check it against a vocabulary.

The ids may be written as a list, `[15339, 1917]`, or separated by spaces or commas. Anything
else is refused with one sentence naming the first bad item (`IdsError`).

>>> parse_ids("[15339, 1917]"), parse_ids("15339 1917"), parse_ids(" 1,2 ,3 ")
([15339, 1917], [15339, 1917], [1, 2, 3])
>>> parse_ids("1 two 3")
Traceback (most recent call last):
...
bpe.encoding.decoding.IdsError: Item 2, "two", is not a token id: an id is a whole number from 0 up.
>>> check_ids([104, 300], 261)
Traceback (most recent call last):
...
bpe.encoding.decoding.IdsError: Item 2, 300, is out of range: this tokenizer's ids run from 0 to 260.
"""
from __future__ import annotations

import re
from collections.abc import Callable

#: The most ids decoded at once.
ID_LIMIT = 10_000
#: An id as written: ASCII digits only (int() would also take "١٢", "1_0" and "+3").
_DIGITS = re.compile(r"[0-9]+")
#: The longest item shown in a message.
_SHOWN = 20


class IdsError(ValueError):
    """What is wrong with the ids, in one sentence."""


def _shown(item: str) -> str:
    return item if len(item) <= _SHOWN else item[:_SHOWN] + "…"


def parse_ids(text: str) -> list[int]:
    """The ids in `text`: an optional `[...]` around items separated by commas or whitespace."""
    body = text.strip()
    if body.startswith("[") != body.endswith("]") or body.count("[") > 1 or body.count("]") > 1:
        raise IdsError("The brackets do not match: write the ids as [1, 2, 3], or separated by spaces or commas.")
    body = body.removeprefix("[").removesuffix("]").strip()
    if not body:
        return []
    items = re.split(r"\s*,\s*|\s+", body)
    if len(items) > ID_LIMIT:
        raise IdsError(f"That is {len(items):,} ids; at most {ID_LIMIT:,} are decoded at once.")
    ids = []
    for number, item in enumerate(items, 1):
        if not item:
            raise IdsError(f"Item {number} is empty: two commas in a row, or a comma at an end.")
        if item.startswith("-") and _DIGITS.fullmatch(item[1:]):
            raise IdsError(f"Item {number}, {item}, is negative: an id is a whole number from 0 up.")
        if not _DIGITS.fullmatch(item):
            raise IdsError(f'Item {number}, "{_shown(item)}", is not a token id: an id is a whole number from 0 up.')
        ids.append(int(item))
    return ids


def check_ids(ids: list[int], size: int, known: Callable[[int], bool] | None = None) -> list[int]:
    """The ids, if every one is below `size` (and `known` says it has a token); otherwise IdsError
    naming the first that is not."""
    for number, i in enumerate(ids, 1):
        if i >= size:
            raise IdsError(f"Item {number}, {i}, is out of range: this tokenizer's ids run from 0 to {size - 1:,}.")
        if known is not None and not known(i):
            raise IdsError(f"Item {number}, {i}, is no token of this tokenizer.")
    return ids


def read_ids(text: str, size: int, known: Callable[[int], bool] | None = None) -> list[int]:
    """`parse_ids`, then `check_ids`."""
    return check_ids(parse_ids(text), size, known)
