"""Counting the chunks of a stream of documents: what one process does, and what each of
several processes does to its batch (`parallel.py`), so that both count alike.

>>> count_chunks(["aaa", "aba", "aaa"], "none")
Counter({'aaa': 2, 'aba': 1})
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import chain

from ..encoding.pretokenize import lone_space_splitter, splitter
from ..options import PRETOKENIZER


def count_chunks(documents: Iterable[str], pretokenizer: str) -> Counter[str]:
    """Each distinct chunk of the documents and how often it occurs, in first-seen order
    (except a lone space, which comes last: see `tally`).

    >>> count_chunks(["the cat", "the"], "words")
    Counter({'the': 2, ' cat': 1})
    """
    return finish(*tally(documents, pretokenizer))


def tally(documents: Iterable[str], pretokenizer: str) -> tuple[Counter[str], int]:
    """The chunk counts, with every chunk that is one space alone counted apart (second).

    One `Counter` over all chunks at once, so the counting loop runs in C. Where the
    pre-tokenizer always cuts a lone space apart (`kinds`), those spaces are not matched
    at all: they are every space of the text but those inside the whitespace chunks.
    Tallies of several batches add up, chunk counts and lone spaces alike (`parallel.py`).

    >>> tally(["a b  c"], "kinds")
    (Counter({'a': 1, 'b': 1, '  ': 1, 'c': 1}), 1)
    """
    if not PRETOKENIZER.choose(pretokenizer).lone_spaces:
        return Counter(chain.from_iterable(map(splitter(pretokenizer), documents))), 0
    spaces = _Spaces(documents)
    counts = Counter(chain.from_iterable(map(lone_space_splitter(pretokenizer), spaces)))
    inside = sum(chunk.count(" ") * n for chunk, n in counts.items() if chunk[0].isspace())
    return counts, spaces.count - inside


def finish(counts: Counter[str], lone_spaces: int) -> Counter[str]:
    """A tally's counts with the lone spaces added, as the chunk " ", last."""
    if lone_spaces:
        counts[" "] += lone_spaces
    return counts


class _Spaces:
    """The documents, passed through while their spaces are counted (in C, by `str.count`)."""

    def __init__(self, documents: Iterable[str]):
        self._documents, self.count = iter(documents), 0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        document = next(self._documents)
        self.count += document.count(" ")
        return document

