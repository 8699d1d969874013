"""The split patterns of the pre-tokenizers, in Python's `re` dialect.

`re` has no `\\p{L}`, so letters, marks and numbers are classes built from `unicodedata`
(`unicode_classes.py`); with `astral=False` they hold the Basic Multilingual Plane only,
and with `ascii=True` ASCII only, which `re` tests faster (see `pretokenize.py`).

>>> import re
>>> re.findall(gpt2(), "I'll pay 2024")
['I', "'ll", ' pay', ' 2024']
"""
from __future__ import annotations

import functools

from . import unicode_classes

#: The from-scratch text's split: a word keeps its leading space.
WORDS = r" ?[^\s]+|\s+"


@functools.cache
def kinds(astral: bool = True, ascii: bool = False) -> str:
    """octlm's four kinds: whitespace, word characters (letters, marks, `_`), digits (any
    Unicode number), everything else. A run of one kind is one chunk.

    `\\s` in `re` is exactly `str.isspace`, which octlm's `_kind` checks first."""
    word = unicode_classes.letters(astral, ascii) + unicode_classes.marks(astral, ascii) + "_"
    digit = unicode_classes.numbers(astral, ascii)
    return rf"\s+|[{word}]+|[{digit}]+|[^\s{word}{digit}]+"


@functools.cache
def gpt2(astral: bool = True, ascii: bool = False) -> str:
    """GPT-2's pattern with `\\p{L}`, `\\p{N}` and `\\s` spelled out as explicit classes.

    `\\s` is Unicode's White_Space, as in GPT-2's `regex` pattern and Hugging Face's
    ByteLevel (Python's own `\\s` also holds U+001C-U+001F). The only difference from
    the `regex` module's reading is the Unicode version: ours follows the running
    Python's `unicodedata`."""
    letter = unicode_classes.letters(astral, ascii)
    number = unicode_classes.numbers(astral, ascii)
    space = unicode_classes.WHITE_SPACE
    return (
        rf"'s|'t|'re|'ve|'m|'ll|'d| ?[{letter}]+| ?[{number}]+"
        rf"| ?[^{space}{letter}{number}]+|[{space}]+(?![^{space}])|[{space}]+"
    )
