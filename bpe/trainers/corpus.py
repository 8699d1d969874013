"""A corpus ready to train on: documents cut into chunks, identical chunks counted once.

Memory grows with the number of distinct chunks, not with the text: documents are
read once, as they come (a list, or a generator streaming files), counted, and
hashed on the way. Which chunks each document holds (for the page's rows) is worked
out only when asked for, from the documents when they were kept.

>>> corpus = Corpus.build(["aaa", "aba", "aaa"], alphabet="bytes", pretokenizer="none")
>>> corpus.chunks, corpus.counts, corpus.documents
(['aaa', 'aba'], [2, 1], [[0], [1], [0]])
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain

from ..encoding.alphabet import Alphabet
from ..encoding.pretokenize import splitter
from .chunks import count_chunks


class NoDocuments(ValueError):
    """The corpus was built from counts, or streamed, so which chunks each document holds is not known."""


@dataclasses.dataclass(eq=False)
class Corpus:
    alphabet: Alphabet
    chunks: list[str]  # each distinct chunk as a sequence of base ids (see sequence.py)
    counts: list[int]  # how often each distinct chunk occurs
    sha256: str  # hash of the documents (see `Hasher`), stored with a trained tokenizer
    pretokenizer: str = "none"
    texts: list[str] | None = None  # the documents, when the caller keeps them (see `documents`)

    @classmethod
    def build(cls, documents: Iterable[str], alphabet: str, pretokenizer: str, keep: bool = True,
              workers: int = 1) -> "Corpus":
        """Count the chunks of every document. `keep=False` reads a stream once and keeps no
        text; `workers` above 1 counts on that many processes (see `parallel.py`)."""
        if keep:
            return cls._indexed(list(documents), alphabet, pretokenizer)
        hasher = Hasher()
        stream = hasher.pass_through(documents)
        if workers > 1:
            from . import parallel
            frequency = parallel.count(stream, pretokenizer, workers)
        else:
            frequency = count_chunks(stream, pretokenizer)
        return cls.of_counts(frequency, alphabet, pretokenizer, hasher.hexdigest())

    @classmethod
    def _indexed(cls, texts: list[str], alphabet: str, pretokenizer: str) -> "Corpus":
        """A kept corpus, its per-document index made in the same pass as the counts: the page
        shows every corpus it trains on, so a second split would only cost it time."""
        split, index = splitter(pretokenizer), _Index()
        documents = [list(map(index.__getitem__, split(text))) for text in texts]
        counts = Counter(chain.from_iterable(documents))
        frequency = dict(zip(index, map(counts.__getitem__, range(len(index)))))
        corpus = cls.of_counts(frequency, alphabet, pretokenizer, Hasher.of(texts), texts)
        corpus.__dict__["documents"] = documents  # the cached property, already known
        return corpus

    @classmethod
    def of_counts(cls, frequency: Mapping[str, int], alphabet: str, pretokenizer: str, sha256: str,
                  texts: list[str] | None = None) -> "Corpus":
        """A corpus from each distinct chunk's text and count (in the order given).

        >>> Corpus.of_counts({"ab": 3, "b": 1}, "chars", "none", "").chunks
        ['\\x00\\x01', '\\x01']
        """
        base = Alphabet.of(alphabet, frequency)
        return cls(
            alphabet=base,
            chunks=list(map(base.sequence, frequency)),
            counts=list(frequency.values()),
            sha256=sha256,
            pretokenizer=pretokenizer,
            texts=texts,
        )

    @functools.cached_property
    def documents(self) -> list[list[int]]:
        """Each document as indices into `chunks`: made with the counts when the corpus was kept."""
        raise NoDocuments("this corpus kept no documents (it was streamed, or read from counts)")

    @property
    def tokens(self) -> int:
        """Token count before any merge."""
        return sum(len(chunk) * count for chunk, count in zip(self.chunks, self.counts))


class _Index(dict):
    """Chunk text -> its index, a new chunk getting the next one (looked up in C by `map`)."""

    def __missing__(self, chunk: str) -> int:
        found = self[chunk] = len(self)
        return found


class Hasher:
    """A hash that tells corpora apart, document boundaries included: sha256 over each
    document's UTF-8 length and bytes, in order, taken as the documents stream past.

    >>> Hasher.of(["ab"]) == Hasher.of(["a", "b"])
    False
    """

    def __init__(self) -> None:
        self._all = hashlib.sha256()

    def add(self, document: str) -> None:
        data = document.encode("utf-8", "surrogatepass")
        self._all.update(b"%d:" % len(data))
        self._all.update(data)

    def pass_through(self, documents: Iterable[str]) -> Iterator[str]:
        """The documents unchanged, each one hashed as it goes by."""
        for document in documents:
            self.add(document)
            yield document

    def hexdigest(self) -> str:
        return self._all.hexdigest()

    @classmethod
    def of(cls, documents: Iterable[str]) -> str:
        hasher = cls()
        for document in documents:
            hasher.add(document)
        return hasher.hexdigest()
