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
import heapq
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Generator, Iterable
from typing import NamedTuple

from ..display import Shown
from ..encoding.sequence import pair, pair_ids, pairs
from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab import base_vocab
from ..settings import Settings
from . import fast, reference
from .corpus import Corpus
from .merge import Merge

ALGORITHMS = {"fast": fast.train, "reference": reference.train}
#: A far jump of the scrubber starts from a multiple of this many rounds.
CHECKPOINT = 32
#: How many rounds' chunk states a training keeps for scrubbing.
STATES_KEPT = 12


class Candidate(NamedTuple):
    left: int
    right: int
    count: int


@dataclasses.dataclass(eq=False)
class Training(Shown):
    settings: Settings
    corpus: Corpus
    merges: list[Merge]
    stopped: str  # why training ended: "budget reached", "no pairs left", or the minimum count

    def __post_init__(self) -> None:
        # Per-record caches, so that scrubbing back and forth costs nothing twice.
        self._states: OrderedDict[int, tuple[list[str], dict[str, int]]] = OrderedDict()
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

    def chunks(self, rounds: int) -> list[str]:
        """Every distinct chunk as it stands after `rounds` merges."""
        return self._state(rounds)[0]

    def _state(self, rounds: int) -> tuple[list[str], dict[str, int]]:
        """Chunks and pair counts after `rounds` merges.

        Scrubbing moves a round or two at a time, so a state is worked out from the nearest one
        cached within CHECKPOINT rounds: replaying the merges after it, or undoing those before it
        (one `in` test per chunk and merge); a far jump starts from a checkpoint, a multiple of
        CHECKPOINT rounds."""
        states = self._states
        if rounds in states:
            states.move_to_end(rounds)
            return states[rounds]
        near = [k for k in states if abs(k - rounds) < CHECKPOINT]
        start = min(near, key=lambda k: (abs(k - rounds), k)) if near else rounds - rounds % CHECKPOINT
        if start not in states:
            states[start] = self._state_from_scratch(start)
        chunks, counts = list(states[start][0]), dict(states[start][1])
        for merge in self.merges[start:rounds]:
            _replay(merge, chunks, counts, self.corpus.counts)
        for merge in reversed(self.merges[rounds:start]):
            _undo(merge, chunks, counts, self.corpus.counts)
        states[rounds] = chunks, counts
        while len(states) > STATES_KEPT:
            states.popitem(last=False)
        return chunks, counts

    def _state_from_scratch(self, rounds: int) -> tuple[list[str], dict[str, int]]:
        chunks = [self.tokenizer.merge(chunk, rounds) for chunk in self.corpus.chunks]
        counts: Counter = Counter()
        for chunk, weight in zip(chunks, self.corpus.counts):
            for p in pairs(chunk):
                counts[p] += weight
        return chunks, dict(counts)

    def documents(self, rounds: int, limit: int | None = None) -> list[list[int]]:
        """Token ids of each document (the first `limit` ones) after `rounds` merges."""
        chunks = self.chunks(rounds)
        return [list(map(ord, "".join([chunks[i] for i in doc]))) for doc in self.corpus.documents[:limit]]

    def _candidates(self, round_: int) -> list[Candidate]:
        """The pairs round `round_` (from 1) chose among, best first: the winner leads.

        `round_ = len(merges) + 1` gives the pairs left when training stopped."""
        counts = self._state(round_ - 1)[1]
        return self._ranked(counts.items())

    def leaders(self, round_: int, limit: int) -> tuple[list[Candidate], int, int]:
        """The first `limit` rows of `candidates(round_)`, how many pairs there were, and how many
        share the top count: what a table of the leaders shows, without ranking every pair (a 2 MB
        corpus counts tens of thousands). Every pair counted at least as often as the `limit`-th
        is ranked, so ties at the cut are broken as in the whole table.

        >>> t = train(["abcabd"], Settings(pretokenizer="none", min_frequency=1, merges=1))
        >>> t.leaders(1, 2), t.candidates(1)[:2]
        (([Candidate(left=97, right=98, count=2), Candidate(left=98, right=99, count=1)], 4, 1), [Candidate(left=97, right=98, count=2), Candidate(left=98, right=99, count=1)])
        """
        counts = self._state(round_ - 1)[1]
        if not counts:
            return [], 0, 0
        floor = heapq.nlargest(limit, counts.values())[-1]
        top = max(counts.values())
        rows = self._ranked((p, count) for p, count in counts.items() if count >= floor)
        return rows[:limit], len(counts), list(counts.values()).count(top)

    def _ranked(self, counted) -> list[Candidate]:
        """(pair, count) items as candidates, best first: the count, then the tie rule."""
        key = self.settings.tie_rule.key(self.vocab)
        table = [Candidate(*pair_ids(p), count) for p, count in counted]
        table.sort(key=lambda c: (-c.count, key(c.left, c.right)))
        return table


def _undo(merge: Merge, chunks: list[str], counts: dict[str, int], weights: list[int]) -> None:
    """Take one merge back from every chunk that holds its token, updating the pair counts: its
    token is new with it, so each one goes back to the pair it replaced.

    >>> chunks, counts = ["Za", "b"], {"Za": 1}
    >>> _undo(Merge(0, 97, 97, ord("Z"), 2, 1, 1), chunks, counts, [1, 1])
    >>> chunks, counts
    (['aaa', 'b'], {'aa': 2})
    """
    token, parts = chr(merge.id), pair(merge.left, merge.right)
    delta: defaultdict[str, int] = defaultdict(int)
    for i, chunk in enumerate(chunks):
        if token in chunk:
            restored = chunks[i] = chunk.replace(token, parts)
            for p in pairs(chunk):
                delta[p] -= weights[i]
            for p in pairs(restored):
                delta[p] += weights[i]
    _apply(delta, counts)


def _apply(delta: dict[str, int], counts: dict[str, int]) -> None:
    for p, change in delta.items():
        count = counts.get(p, 0) + change
        if count:
            counts[p] = count
        else:
            counts.pop(p, None)


def _replay(merge: Merge, chunks: list[str], counts: dict[str, int], weights: list[int]) -> None:
    """Apply one merge to every chunk that holds its pair, updating the pair counts."""
    target, token = pair(merge.left, merge.right), chr(merge.id)
    delta: defaultdict[str, int] = defaultdict(int)
    for i, chunk in enumerate(chunks):
        if target in chunk:
            chunks[i] = fast.merge_chunk(chunk, target, token, weights[i], delta)[0]
    _apply(delta, counts)


def train(documents: Iterable[str], settings: Settings | None = None, algorithm: str = "fast", keep: bool = True,
          workers: int = 1) -> Training:
    """Train on documents (each one a barrier merges never cross), with `settings` (by default
    `Settings()`: bytes, the kinds pre-tokenizer, the smallest pair on a tie, pairs seen twice or
    more, until none is left).

    `keep=False` reads the documents once (a generator streaming files, say) and keeps no
    text: the training's `documents(k)` is then unavailable, and memory grows only with the
    number of distinct chunks. `workers` above 1 counts the chunks on that many processes;
    the training is the same."""
    settings = Settings() if settings is None else settings
    corpus = Corpus.build(documents, settings.alphabet, settings.pretokenizer, keep, workers)
    return train_corpus(corpus, settings, algorithm)


def train_corpus(corpus: Corpus, settings: Settings, algorithm: str = "fast") -> Training:
    """Train on a corpus already counted (by `Corpus.build`, or `Corpus.of_counts` from a count file)."""
    result = ALGORITHMS[algorithm](*_arguments(corpus, settings))
    return _training(settings, corpus, result.merges, result.stopped)


def training_steps(documents: list[str], settings: Settings) -> Generator[tuple[int, int], None, Training]:
    """`train` (the fast trainer) one merge at a time: yields (merges learned, merges the budget
    asks for, 0 for no limit) once the corpus is counted and after each merge, and returns the
    Training. A caller can report progress between merges, or stop.

    >>> steps = training_steps(["aaab"], Settings(pretokenizer="none", min_frequency=1, merges=2))
    >>> list(steps)
    [(0, 2), (1, 2), (2, 2)]
    """
    corpus, arguments = _prepare(documents, settings)
    asked = arguments[-1] if settings.merges is not None or settings.vocab_size is not None else 0
    steps, merges = fast.learn(*arguments), []
    yield 0, asked
    while True:
        try:
            merges.append(next(steps))
        except StopIteration as done:
            return _training(settings, corpus, merges, done.value)
        yield len(merges), asked


def run(steps: Generator[tuple[int, int], None, Training]) -> Training:
    """The Training a `training_steps` generator returns, all steps taken.

    >>> run(training_steps(["aaab"], Settings(pretokenizer="none", min_frequency=1, merges=2))).tokens
    [4, 3, 2]
    """
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def _prepare(documents: list[str], settings: Settings) -> tuple[Corpus, tuple]:
    """The corpus, and a trainer's arguments for it."""
    corpus = Corpus.build(documents, settings.alphabet, settings.pretokenizer)
    return corpus, _arguments(corpus, settings)


def _arguments(corpus: Corpus, settings: Settings) -> tuple:
    """A trainer's arguments for a corpus."""
    first_id = settings.first_merge_id(len(corpus.alphabet.symbols))
    vocab = base_vocab(settings, corpus.alphabet)
    return (corpus.chunks, corpus.counts, vocab, first_id, settings.tie_rule, settings.min_frequency,
            settings.max_merges(first_id))


def _training(settings: Settings, corpus: Corpus, merges: list[Merge], stopped: str) -> Training:
    return Training(settings, corpus, merges, stopped if corpus.chunks else "the corpus is empty")
