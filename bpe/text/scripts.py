"""Unicode's Script property: which writing system a character belongs to (Latin, Han, Katakana,
Arabic, Devanagari, ...), and the characters that belong to none.

Many characters are shared by several scripts and so belong to none of them: Unicode puts them in
**Common** (spaces, digits, punctuation, emoji, the prolonged sound mark ー that katakana and
hiragana words both use, Arabic's tatweel ـ) or **Inherited** (combining accents, Arabic's
harakat, the zero-width joiner inside an emoji), which take the script of what they follow.
Unassigned code points are **Unknown**. `SHARED` names those three; a text's script is the one
script of its other characters (`script_of`).

The table (`scripts_table.py`) is generated from the `regex` module's Unicode data by
`tests/unicode_scripts.py`, and `tests/test_scripts.py` holds it to `regex` at every code point
the running Python knows, so the core needs no `regex` of its own.

>>> script("a"), script("ー"), script("々"), script("\\u0301"), script("😀"), script("ـ")
('Latin', 'Common', 'Han', 'Inherited', 'Common', 'Common')
>>> script_of("ニャー"), script_of("2024 "), script_of("aж"), script_of("e\\u0301")
('Katakana', '', '', 'Latin')
"""
from __future__ import annotations

import bisect
import functools

from .scripts_table import NAMES, RUNS

#: The scripts that are no script of their own: shared, combining, or unassigned characters.
SHARED = frozenset({"Common", "Inherited", "Unknown"})


@functools.cache
def _runs() -> tuple[list[int], list[str]]:
    """The table as the code point where each run starts, and its script's name."""
    starts, names = [], []
    for entry in "".join(RUNS).split():
        start, index = entry.split(":")
        starts.append(int(start, 16))
        names.append(NAMES[int(index)].replace("_", " "))
    return starts, names


def script(char: str) -> str:
    """The script of one character, by its Unicode name ("Old Italic", with spaces)."""
    starts, names = _runs()
    return names[bisect.bisect_right(starts, ord(char)) - 1]


def scripts_in(text: str) -> set[str]:
    """The scripts of a text's characters, apart from those of `SHARED`.

    >>> sorted(scripts_in("猫がニャー"))
    ['Han', 'Hiragana', 'Katakana']
    """
    return {script(char) for char in set(text)} - SHARED


def script_of(text: str) -> str:
    """The one script a text's characters are in, apart from Common and Inherited ones ("" when
    they are in none, or in several)."""
    found = scripts_in(text)
    return found.pop() if len(found) == 1 else ""
