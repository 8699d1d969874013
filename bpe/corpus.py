"""A corpus ready to train on: documents cut into chunks, identical chunks counted once.

>>> corpus = Corpus.build(["aaa", "aba", "aaa"], alphabet="bytes", pretokenizer="none")
>>> corpus.chunks, corpus.counts, corpus.documents
(['aaa', 'aba'], [2, 1], [[0], [1], [0]])
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter

from .alphabet import Alphabet
from .pretokenize import splitter


@dataclasses.dataclass
class Corpus:
    alphabet: Alphabet
    chunks: list[str]  # each distinct chunk as a sequence of base ids (see sequence.py)
    counts: list[int]  # how often each distinct chunk occurs
    documents: list[list[int]]  # each document as indices into `chunks`
    sha256: str  # hash of the documents, stored with a trained tokenizer

    @classmethod
    def build(cls, documents: list[str], alphabet: str, pretokenizer: str) -> "Corpus":
        split = splitter(pretokenizer)
        frequency: Counter[str] = Counter()
        index: dict[str, int] = {}
        as_chunks = []
        for text in documents:
            chunks = split(text)
            frequency.update(chunks)
            for chunk in dict.fromkeys(chunks):  # C-speed dedupe; first-seen order kept
                if chunk not in index:
                    index[chunk] = len(index)
            as_chunks.append(list(map(index.__getitem__, chunks)))
        base = Alphabet.of(alphabet, documents)
        return cls(
            alphabet=base,
            chunks=[base.sequence(chunk) for chunk in index],
            counts=[frequency[chunk] for chunk in index],
            documents=as_chunks,
            sha256=corpus_hash(documents),
        )

    @property
    def tokens(self) -> int:
        """Token count before any merge."""
        return sum(len(chunk) * count for chunk, count in zip(self.chunks, self.counts))


def corpus_hash(documents: list[str]) -> str:
    """A hash that tells corpora apart, document boundaries included."""
    return hashlib.sha256(json.dumps(documents, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()
