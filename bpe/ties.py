"""Tie rules as sort keys: among pairs with the top count, the smallest key wins.

>>> key = sort_key("largest-text", [b"a", b"b", b"ab"])
>>> sorted([(0, 1), (2, 0), (0, 0)], key=lambda pair: key(*pair))  # ab+a, then a+b, then a+a
[(2, 0), (0, 1), (0, 0)]
"""
from __future__ import annotations

from collections.abc import Callable, Sequence


def descending(text: bytes) -> tuple[int, ...]:
    """A key that sorts byte strings in reverse: b"ab" comes before b"a" and after b"b".

    The end marker 256 is above every complemented byte, so a prefix sorts after
    its extensions, which is what reversed lexicographic order asks for."""
    return (*(255 - value for value in text), 256)


def sort_key(tie: str, vocab: Sequence[bytes]) -> Callable[[int, int], tuple]:
    """The tie key for (left, right) ids; `vocab` maps an id to its bytes.

    UTF-8 byte order is code-point order, so `largest-text` on bytes agrees with
    comparing the tokens' text as Python strings."""
    if tie == "smallest":
        return lambda left, right: (left, right)
    return lambda left, right: (descending(vocab[left]), descending(vocab[right]))
