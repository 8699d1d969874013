"""Regular-expression character classes for Unicode general categories.

The standard `re` module has no `\\p{L}`, so we build the classes once from
`unicodedata` (for the running Python's Unicode version) and cache them.

>>> import re
>>> re.fullmatch(f"[{letters()}]+", "héllo日本") is not None
True
>>> re.fullmatch(f"[{numbers()}]+", "2024٣Ⅻ") is not None
True
"""
from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from itertools import compress, count, islice
from operator import itemgetter, ne


#: Unicode's White_Space property (PropList.txt, unchanged since Unicode 6.3): what `\\s` means in
#: the `regex` module, Oniguruma and fancy-regex. Python's `re` `\\s` (`str.isspace`) also holds
#: U+001C-U+001F, which are not White_Space.
WHITE_SPACE = r"\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"

#: Where letters, marks and numbers can be: planes 0-3 and plane 14. Planes 4-13 have never
#: had an assigned character, and 15-16 are private use; skipping them makes the classes
#: about three times quicker to build, which matters in Pyodide (a test checks the skip
#: changes nothing for the running Python).
PLANES = (range(0, 0x40000), range(0xE0000, 0xF0000))
#: The Basic Multilingual Plane alone. `re` tests the BMP part of a class with a bitmap
#: but walks every range above U+FFFF one by one, so a text with no character above
#: U+FFFF splits about six times faster with BMP-only classes (`pretokenize.py`).
BMP = (range(0, 0x10000),)
#: ASCII alone: for a text that `str.isascii()`, `re` then tests a small bitmap instead of the
#: BMP's two-level one, which splits about a fifth faster (`pretokenize.py`).
ASCII = (range(0, 0x80),)


@functools.cache
def _ranges(planes: tuple[range, ...] = PLANES) -> dict[str, str]:
    """Map a category's first letter ("L", "M", "N", ...) to a regex class body."""
    bodies: dict[str, list[str]] = {}
    for plane in planes:
        majors = list(map(itemgetter(0), map(unicodedata.category, map(chr, plane))))
        # Where the major category changes, found in C: a run of one category is one span.
        starts = [0, *compress(count(1), map(ne, majors, islice(majors, 1, None)))]
        for start, end in zip(starts, [*starts[1:], len(majors)]):
            bodies.setdefault(majors[start], []).append(_span(plane.start + start, plane.start + end - 1))
    return {major: "".join(parts) for major, parts in bodies.items()}


def _planes(astral: bool, ascii: bool) -> tuple[range, ...]:
    return ASCII if ascii else PLANES if astral else BMP


def _span(first: int, last: int) -> str:
    """A class fragment for code points first..last, escaped so `re` reads them literally."""
    low = f"\\U{first:08x}"
    return low if first == last else f"{low}-\\U{last:08x}"


def letters(astral: bool = True, ascii: bool = False) -> str:
    """Class body for \\p{L}: every letter (only the BMP's when `astral` is false)."""
    return _ranges(_planes(astral, ascii)).get("L", "")


def marks(astral: bool = True, ascii: bool = False) -> str:
    """Class body for \\p{M}: every combining mark."""
    return _ranges(_planes(astral, ascii)).get("M", "")


def numbers(astral: bool = True, ascii: bool = False) -> str:
    """Class body for \\p{N}: every number (decimal, letter-like and other)."""
    return _ranges(_planes(astral, ascii)).get("N", "")


@functools.cache
def letter_categories() -> dict[str, str]:
    """Class bodies for Lu, Ll, Lt, Lm and Lo, from `unicodedata`.

    Only the code points of `\\p{L}` (already built by unicode_classes) are looked at, not
    all 1.1 million: an eighth of the work, which matters in Pyodide."""
    bodies: dict[str, list[str]] = {}
    for first, last in re.findall(r"\\U([0-9a-f]{8})(?:-\\U([0-9a-f]{8}))?", letters()):
        start, stop = int(first, 16), int(last or first, 16) + 1
        for category, run in itertools.groupby(map(unicodedata.category, map(chr, range(start, stop)))):
            end = start + sum(1 for _ in run)
            low = f"\\U{start:08x}"
            bodies.setdefault(category, []).append(low if end - start == 1 else f"{low}-\\U{end - 1:08x}")
            start = end
    return {category: "".join(parts) for category, parts in bodies.items()}
