"""Pre-tokenizers: where a text is cut into chunks that merges never cross.

Each one is a function from a document to its chunks; joining the chunks gives
the document back, byte for byte.

>>> split("x_1 = total\\r\\n", "kinds")
['x_', '1', ' ', '=', ' ', 'total', '\\r\\n']
>>> split("the cat sat", "words")
['the', ' cat', ' sat']
>>> split("I'll pay 2024", "gpt2")
['I', "'ll", ' pay', ' 2024']
"""
from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from itertools import accumulate
from collections.abc import Callable

from . import unicode_classes

#: The from-scratch text's split: a word keeps its leading space.
WORDS_PATTERN = r" ?[^\s]+|\s+"


@functools.cache
def kinds_pattern(astral: bool = True) -> str:
    """octlm's four kinds: whitespace, word characters (letters, marks, `_`), digits (any
    Unicode number), everything else. A run of one kind is one chunk.

    `\\s` in `re` is exactly `str.isspace`, which octlm's `_kind` checks first."""
    word = unicode_classes.letters(astral) + unicode_classes.marks(astral) + "_"
    digit = unicode_classes.numbers(astral)
    return rf"\s+|[{word}]+|[{digit}]+|[^\s{word}{digit}]+"


@functools.cache
def gpt2_pattern(astral: bool = True) -> str:
    """GPT-2's pattern with `\\p{L}`, `\\p{N}` and `\\s` spelled out as explicit classes.

    `\\s` is Unicode's White_Space, as in GPT-2's `regex` pattern and Hugging Face's
    ByteLevel (Python's own `\\s` also holds U+001C-U+001F). The only difference from
    the `regex` module's reading is the Unicode version: ours follows the running
    Python's `unicodedata`."""
    letter = unicode_classes.letters(astral)
    number = unicode_classes.numbers(astral)
    space = unicode_classes.WHITE_SPACE
    return (
        rf"'s|'t|'re|'ve|'m|'ll|'d| ?[{letter}]+| ?[{number}]+"
        rf"| ?[^{space}{letter}{number}]+|[{space}]+(?![^{space}])|[{space}]+"
    )


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")

#: A BMP stand-in for a character above U+FFFF, by general category, that every class
#: and literal of a pattern treats as it treats the character itself. `a` is no letter
#: of GPT-2's contractions. No character above U+FFFF is whitespace.
_STAND_INS = {
    "kinds": {"L": "a", "M": "a", "N": "0"},
    "gpt2": {"L": "a", "N": "0"},
}


@functools.cache
def _finder(name: str) -> Callable[[str], list[str]]:
    """findall for a pattern, built with BMP-only classes (about six times quicker).

    A text with characters above U+FFFF is split as a same-length copy in which each
    of them is replaced by a BMP stand-in of the same class, and the chunk lengths
    are carried back to the text (a test holds this to the full pattern)."""
    if name == "words":
        return re.compile(WORDS_PATTERN).findall
    bmp = re.compile(PATTERNS[name](astral=False)).findall
    stand_ins = _STAND_INS[name]

    @functools.cache
    def stand_in(char: str) -> str:
        return stand_ins.get(unicodedata.category(char)[0], "!")

    def split(text: str) -> list[str]:
        if not _ASTRAL.search(text):
            return bmp(text)
        chunks = bmp(_ASTRAL.sub(lambda match: stand_in(match.group()), text))
        ends = list(accumulate(map(len, chunks)))
        for i in {bisect.bisect_right(ends, match.start()) for match in _ASTRAL.finditer(text)}:
            chunks[i] = text[ends[i] - len(chunks[i]):ends[i]]  # only chunks with a stand-in differ
        return chunks

    return split


def _whole(text: str) -> list[str]:
    return [text] if text else []


#: Pattern for each pre-tokenizer that has one (`none` keeps the document whole).
PATTERNS: dict[str, Callable[..., str]] = {
    "words": lambda: WORDS_PATTERN,
    "kinds": kinds_pattern,
    "gpt2": gpt2_pattern,
}

PRETOKENIZERS = ("none", "words", "kinds", "gpt2")


def splitter(name: str) -> Callable[[str], list[str]]:
    """The chunking function for a pre-tokenizer name."""
    if name == "none":
        return _whole
    if name not in PATTERNS:
        raise ValueError(f"unknown pre-tokenizer {name!r}; choose one of {', '.join(PRETOKENIZERS)}")
    return _finder(name)


def split(text: str, name: str) -> list[str]:
    """Cut one document into chunks."""
    return splitter(name)(text)
