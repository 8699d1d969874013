"""Train a tokenizer and keep a round-by-round record that can drive the visualizer.

>>> from bpe.settings import Settings
>>> t = train(["aaa", "aba"], Settings(pretokenizer="none", min_frequency=1, merges=2))
>>> [(m.left, m.right, m.count, m.replacements, m.ties) for m in t.merges], t.tokens
([(97, 97, 2, 1, 1), (97, 98, 1, 1, 3)], [6, 5, 4])
>>> t.candidates(2)  # round 2 chose among these, winner first
[Candidate(left=97, right=98, count=1), Candidate(left=98, right=97, count=1), Candidate(left=256, right=97, count=1)]
>>> t.documents(1)
[[256, 97], [97, 98, 97]]
"""
from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from typing import NamedTuple

from . import fast, reference
from .corpus import Corpus
from .merge import Merge
from .sequence import pair_ids, pairs
from .settings import Settings
from .ties import sort_key
from .tokenizer import Tokenizer

ALGORITHMS = {"fast": fast.train, "reference": reference.train}


class Candidate(NamedTuple):
    left: int
    right: int
    count: int


@dataclasses.dataclass(eq=False)
class Training:
    settings: Settings
    corpus: Corpus
    merges: list[Merge]
    stopped: str  # why training ended: "budget reached", "no pairs left", or the minimum count

    def __post_init__(self) -> None:
        # Per-record caches, so that scrubbing back and forth costs nothing twice.
        self.chunks = functools.lru_cache(maxsize=8)(self._chunks)
        self.candidates = functools.lru_cache(maxsize=8)(self._candidates)

    @functools.cached_property
    def tokenizer(self) -> Tokenizer:
        return Tokenizer(self.settings, self.corpus.alphabet, [(m.left, m.right) for m in self.merges])

    @property
    def alphabet(self):
        return self.corpus.alphabet

    @property
    def corpus_sha256(self) -> str:
        return self.corpus.sha256

    @property
    def vocab(self) -> list[bytes]:
        """Every id's bytes: alphabet, specials, then one entry per merge."""
        return self.tokenizer.vocab

    @functools.cached_property
    def tokens(self) -> list[int]:
        """The corpus's token count after each round, from round 0 (no merges)."""
        counts = [self.corpus.tokens]
        for merge in self.merges:
            counts.append(counts[-1] - merge.replacements)
        return counts

    def vocab_size(self, rounds: int | None = None) -> int:
        done = len(self.merges) if rounds is None else rounds
        return self.tokenizer.first_merge_id + done

    def _chunks(self, rounds: int) -> list[str]:
        """Every distinct chunk as it stands after `rounds` merges."""
        return [self.tokenizer.merge(chunk, rounds) for chunk in self.corpus.chunks]

    def documents(self, rounds: int, limit: int | None = None) -> list[list[int]]:
        """Token ids of each document (the first `limit` ones) after `rounds` merges."""
        chunks = self.chunks(rounds)
        return [[ord(c) for i in doc for c in chunks[i]] for doc in self.corpus.documents[:limit]]

    def _candidates(self, round_: int) -> list[Candidate]:
        """The pairs round `round_` (from 1) chose among, best first: the winner leads.

        `round_ = len(merges) + 1` gives the pairs left when training stopped."""
        counts: Counter = Counter()
        for chunk, weight in zip(self.chunks(round_ - 1), self.corpus.counts):
            for p in pairs(chunk):
                counts[p] += weight
        key = sort_key(self.settings.tie, self.vocab)
        table = [Candidate(*pair_ids(p), count) for p, count in counts.items()]
        table.sort(key=lambda c: (-c.count, key(c.left, c.right)))
        return table


def train(documents: list[str], settings: Settings, algorithm: str = "fast") -> Training:
    """Train on documents (each one a barrier merges never cross)."""
    corpus = Corpus.build(documents, settings.alphabet, settings.pretokenizer)
    first_id = settings.first_merge_id(len(corpus.alphabet.symbols))
    vocab = corpus.alphabet.symbols + [name.encode() for name in settings.special_tokens]
    result = ALGORITHMS[algorithm](
        corpus.chunks, corpus.counts, vocab, first_id,
        settings.tie, settings.min_frequency, settings.max_merges(first_id),
    )
    stopped = result.stopped if corpus.chunks else "the corpus is empty"
    return Training(settings, corpus, result.merges, stopped)
