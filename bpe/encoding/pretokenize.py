"""Pre-tokenizers: where a text is cut into chunks that merges never cross.

Each one is a function from a document to its chunks; joining the chunks gives
the document back, byte for byte. Which pre-tokenizers there are, and their
patterns, is `options.PRETOKENIZER`.

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
from collections.abc import Callable
from itertools import accumulate

from ..options import PRETOKENIZER, Pretokenizer
from ..text import documents

#: Pattern for each pre-tokenizer that has one (`none` keeps the document whole).
PATTERNS: dict[str, Callable[..., str]] = {value.name: value.pattern for value in PRETOKENIZER if value.pattern}
PRETOKENIZERS = PRETOKENIZER.names

_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")
_ESCAPE = re.compile(r"\\U([0-9a-f]{8})")


@functools.cache
def _finder(name: str, lone_spaces: bool = True) -> Callable[[str], list[str]]:
    """findall for a pattern, built with BMP-only classes (about six times quicker), or
    ASCII-only ones for an ASCII text (a fifth quicker again).

    A text with characters above U+FFFF is split as a same-length copy in which each
    of them is replaced by a BMP stand-in of the same class (no character above U+FFFF
    is whitespace), and the chunk lengths are carried back to the text (a test holds
    this to the full pattern). `lone_spaces=False` leaves out every chunk that is one
    space alone (see `lone_space_splitter`)."""
    rule: Pretokenizer = PRETOKENIZER.choose(name)
    if not rule.stand_ins:  # the pattern has no class that holds characters above U+FFFF
        return re.compile(rule.pattern(True)).findall
    if not lone_spaces:
        shape = _without_lone_spaces
    else:
        shape = _whitespace_last if rule.lone_spaces else _same
    ascii = re.compile(shape(_literal(rule.pattern(False, ascii=True)))).findall

    @functools.cache
    def bmp() -> Callable[[str], list[str]]:
        """Built on the first text that is not ASCII: its classes take 65,536 `unicodedata` calls,
        which a one-word encode from the command line should not pay for."""
        return re.compile(shape(_literal(rule.pattern(False)))).findall

    @functools.cache
    def stand_in(char: str) -> str:
        return rule.stand_ins.get(unicodedata.category(char)[0], "!")

    def split(text: str) -> list[str]:
        if text.isascii():  # the same chunks as the full pattern gives an ASCII text
            return ascii(text)
        if not _ASTRAL.search(text):
            return bmp()(text)
        if not lone_spaces:  # the lengths below must tile the text: split whole, then drop them
            return [chunk for chunk in _finder(name)(text) if chunk != " "]
        chunks = bmp()(_ASTRAL.sub(lambda match: stand_in(match.group()), text))
        ends = list(accumulate(map(len, chunks)))
        for i in {bisect.bisect_right(ends, match.start()) for match in _ASTRAL.finditer(text)}:
            chunks[i] = text[ends[i] - len(chunks[i]):ends[i]]  # only chunks with a stand-in differ
        return chunks

    return split


def _literal(pattern: str) -> str:
    r"""The pattern with each `\Uxxxxxxxx` escape written as the character itself (escaped
    only where `re` needs it): the same pattern, which `re` parses about three times faster.

    >>> _literal(r"[\U00000041-\U0000005a\U0000005e]+")
    '[A-Z\\^]+'
    """
    return _ESCAPE.sub(lambda match: re.escape(chr(int(match.group(1), 16))), pattern)


def _same(pattern: str) -> str:
    """A pattern whose alternatives may compete, kept as it is."""
    return pattern


def _whitespace_last(pattern: str) -> str:
    r"""A pattern that starts `\s+|`, with that alternative moved to the end.

    `re` tries the alternatives in turn at every chunk, and whitespace runs are rarer
    than words. Under `lone_spaces` no other alternative matches whitespace, so the
    order cannot change a match; it makes splitting prose about a tenth faster.

    >>> _whitespace_last(r"\s+|\w+")
    '\\w+|\\s+'
    """
    assert pattern.startswith("\\s+|"), pattern
    return pattern[4:] + r"|\s+"


def _without_lone_spaces(pattern: str) -> str:
    r"""A pattern that starts `\s+|` with that alternative, moved to the end as above,
    matching every run of whitespace except one space alone: `lone_space_splitter` leaves
    those out.

    >>> _without_lone_spaces(r"\s+|\w+")
    '\\w+|\\s{2,}|[^\\S ]'
    """
    return _whitespace_last(pattern)[:-3] + r"\s{2,}|[^\S ]"


def lone_space_splitter(name: str) -> Callable[[str], list[str]]:
    """`splitter(name)` without the chunks that are one space alone, for a pre-tokenizer whose
    `lone_spaces` is true: in prose they are a third of all chunks, and counting them with
    `str.count` is far cheaper than matching each (see `chunks.tally`).

    >>> lone_space_splitter("kinds")("a b  c")
    ['a', 'b', '  ', 'c']
    """
    if not PRETOKENIZER.choose(name).lone_spaces:
        raise ValueError(f"the {name} pre-tokenizer does not cut every lone space apart")
    return _finder(name, lone_spaces=False)


def splitter(name: str) -> Callable[[str], list[str]]:
    """The chunking function for a pre-tokenizer name."""
    return _finder(name) if PRETOKENIZER.choose(name).pattern else documents.whole  # `none`: the text whole


def split(text: str, name: str) -> list[str]:
    """Cut one document into chunks."""
    return splitter(name)(text)
