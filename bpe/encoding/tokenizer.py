"""Encoding and decoding with a learned rule table.

Encoding replays merges in rank order inside each chunk, exactly as training
applied them, and can stop after any number of rounds (what the visualizer's
scrubber asks for). Decoding concatenates the tokens' bytes.

>>> from bpe.settings import Settings
>>> tok = Tokenizer(Settings(alphabet="bytes", pretokenizer="none"), Alphabet("bytes"), [(97, 97), (256, 97)])
>>> tok.encode("aaa"), tok.encode("aaa", rounds=1), tok.decode([257, 97])
([257], [256, 97], 'aaaa')
"""
from __future__ import annotations

import functools
import heapq
import operator
import re
from collections.abc import Collection, Iterable, Sequence
from itertools import chain, repeat

from ..display import Shown
from ..errors import UserInputError
from ..options import PRETOKENIZER
from ..settings import Settings
from .alphabet import UNKNOWN, Alphabet
from .chunk_cache import Chunks
from .pieces import Piece, Pieces
from .pretokenize import splitter
from .sequence import pair, pairs
from .specials import encode_with_specials
from .vocab import base_vocab, render

#: A merge whose token is used by more later merges than this looks at the token's
#: neighbours instead of trying each of those merges (see `Tokenizer.merge`).
FEW_USES = 24
#: Chunks longer than this are cut where no token can span before merging (see `_cut`).
LONG_CHUNK = 256
#: Chunks shorter than this are merged by looking up all their pairs again after each merge,
#: in C, which beats keeping a heap up to about this length (see `Tokenizer._scan`).
SHORT_CHUNK = 16
#: A space before a non-space: under a pre-tokenizer with `lone_spaces`, a chunk ends right after it.
_SPACE_BEFORE_NON_SPACE = re.compile(r" (?=\S)")


def _beside(seq: str, token: str, ranks: dict[str, int]) -> set[int]:
    """The ranks of the pairs that hold `token` in `seq`."""
    found, at = set(), seq.find(token)
    while at >= 0:
        found.add(seq[at - 1:at + 1] if at else "")
        found.add(seq[at:at + 2])
        at = seq.find(token, at + 1)
    return {ranks[p] for p in found if p in ranks}


class TokenIdError(UserInputError):
    """A number given as a token id that this tokenizer does not have."""


class Tokenizer(Shown):
    def __init__(self, settings: Settings, alphabet: Alphabet, merges: Sequence[tuple[int, int]]):
        self.settings = settings
        self.alphabet = alphabet
        self.first_merge_id = settings.first_merge_id(len(alphabet.symbols))
        self.specials = {self.first_merge_id - len(settings.special_tokens) + i: name
                         for i, name in enumerate(settings.special_tokens)}
        self.special_tokens = {name: i for i, name in self.specials.items()}  # name -> id, as tiktoken's
        self.vocab: list[bytes] = base_vocab(settings, alphabet)
        self.merges = list(map(tuple, merges))
        lefts, rights = (list(side) for side in zip(*self.merges)) if self.merges else ([], [])
        self._pairs = list(map(operator.add, map(chr, lefts), map(chr, rights)))  # in C: a 100k file loads fast
        self._rank = dict(zip(self._pairs, range(len(self._pairs))))
        vocab = self.vocab
        for left, right in self.merges:
            vocab.append(vocab[left] + vocab[right])
        self._uses: list[list[int]] | None = None  # made when first needed (see `_later`)
        self._split = splitter(settings.pretokenizer)
        self._by_stretch = PRETOKENIZER.choose(settings.pretokenizer).lone_spaces
        self._cache: dict[int, Chunks] = {}  # per number of rounds

    def split(self, text: str) -> list[str]:
        """The chunks the pre-tokenizer cuts `text` into: merges never cross them."""
        return self._split(text)

    def rank(self, left: int, right: int) -> int | None:
        """The rank (from 0) of the merge joining `left` and `right`, or None if no merge does."""
        return self._rank.get(pair(left, right))

    def parents(self, token_id: int) -> tuple[int, ...]:
        """The two tokens a merge joined into `token_id`; () for a base unit or a special."""
        rank = token_id - self.first_merge_id
        return tuple(self.merges[rank]) if 0 <= rank < len(self.merges) else ()

    def merge(self, seq: str, rounds: int | None = None) -> str:
        """Apply the first `rounds` merges (all by default) to one chunk's sequence.

        A heap holds the ranks of the pairs present; each is applied to the whole
        chunk at once with `str.replace`, the same left-to-right pass training made.
        Only pairs holding the new token can appear, so no rescan: the later merges
        that use the token are tried, or, when there are many (thousands, for a
        common token of a large vocabulary), the pairs beside its occurrences are
        looked up instead. A long chunk is first cut where no token can ever span
        (see `_cut`), so each merge pass runs over a short piece."""
        limit = len(self.merges) if rounds is None else rounds
        if len(seq) < 2 or not limit:
            return seq
        if len(seq) > LONG_CHUNK:
            pieces = self._cut(seq)
            if len(pieces) > 1:
                merged: dict[str, str] = {}
                for piece in set(pieces):
                    merged[piece] = self._merge(piece, limit)
                return "".join(map(merged.__getitem__, pieces))
        return self._merge(seq, limit)

    def _merge(self, seq: str, limit: int) -> str:
        if len(seq) < SHORT_CHUNK:
            return self._scan(seq, limit)
        ranks, all_pairs, uses, push = self._rank, self._pairs, self._uses or self._later(), heapq.heappush
        heap = [r for r in map(ranks.get, set(pairs(seq))) if r is not None and r < limit]
        heapq.heapify(heap)
        while heap:
            rank = heapq.heappop(heap)
            if all_pairs[rank] not in seq:
                continue  # gone, or pushed twice
            token = chr(self.first_merge_id + rank)
            seq = seq.replace(all_pairs[rank], token)
            later = uses[rank] if len(uses[rank]) <= FEW_USES else _beside(seq, token, ranks)
            for next_rank in later:
                if next_rank < limit and all_pairs[next_rank] in seq:
                    push(heap, next_rank)
        return seq

    def _later(self) -> list[list[int]]:
        """For each merge, the ranks of the later merges that use its token. Made on the first
        chunk long enough to need it (`_merge`): a short text, a one-word command, never pays.
        (A plain attribute: as a cached property, encoding the whitespace-free 1 MB took 2%
        more instructions.)"""
        uses: list[list[int]] = [[] for _ in self.merges]
        first = self.first_merge_id
        for rank, (left, right) in enumerate(self.merges):
            if left >= first:
                uses[left - first].append(rank)
            if right >= first and right != left:
                uses[right - first].append(rank)
        self._uses = uses
        return uses

    def _scan(self, seq: str, limit: int) -> str:
        """Merge a short chunk as tiktoken's `_educational.py` does: the pair of lowest rank,
        every time, until none is left (a rank from `limit` on counts as none).

        >>> tok = Tokenizer(Settings(pretokenizer="none"), Alphabet("bytes"), [(97, 97), (256, 97)])
        >>> [tok.ids(tok._scan("aaa", limit)) for limit in (2, 1, 0)]
        [(257,), (256, 97), (97, 97, 97)]
        """
        get, all_pairs, first = self._rank.get, self._pairs, self.first_merge_id
        while len(seq) > 1:
            rank = min(map(get, pairs(seq), repeat(limit)))
            if rank >= limit:
                break
            seq = seq.replace(all_pairs[rank], chr(first + rank))
        return seq

    def _cut(self, seq: str) -> list[str]:
        """Cut a base sequence between two symbols that no merge ever joins.

        The first token to span such a gap would be a merge of a left part ending
        there and a right part starting there: a join of exactly those two
        symbols, which no merge has. So the pieces merge independently."""
        joins = self._joins
        cuts = [i for i, p in enumerate(pairs(seq), 1) if p not in joins]
        return [seq[i:j] for i, j in zip([0, *cuts], [*cuts, len(seq)])]

    @functools.cached_property
    def _joins(self) -> set[str]:
        """For each merge, the last base symbol of its left and the first of its right."""
        first = {i: chr(i) for i in range(self.first_merge_id)}
        last = dict(first)
        for rank, (left, right) in enumerate(self.merges):
            first[self.first_merge_id + rank], last[self.first_merge_id + rank] = first[left], last[right]
        return {last[left] + first[right] for left, right in self.merges}

    def encode(self, text: str, rounds: int | None = None, allowed_special: Collection[str] | str = frozenset(),
               disallowed_special: Collection[str] | str = "all") -> list[int | None]:
        """Token ids for `text`, with tiktoken's rules for a special token's text in it
        (`bpe.encoding.specials`): by default it is refused with DisallowedSpecial, naming the token
        and where it starts; `allowed_special="all"` (or a set of names) makes it its id, and
        `disallowed_special=()` plain text, as `encode_ordinary` always treats it (octlm's
        `<|eos|>` written in a text is the bytes `<|`, `eos`, `|>`). A tokenizer without
        specials encodes every text as `encode_ordinary` does.

        >>> tok = Tokenizer(Settings(specials="octlm"), Alphabet("bytes"), [])
        >>> tok.encode("a<|eos|>", allowed_special="all"), len(tok.encode("a<|eos|>", disallowed_special=()))
        ([97, 258], 8)
        """
        if not self.special_tokens:
            return self.encode_ordinary(text, rounds)
        return encode_with_specials(text, self.special_tokens, lambda part: self.encode_ordinary(part, rounds),
                                    allowed_special, disallowed_special)

    def encode_ordinary(self, text: str, rounds: int | None = None) -> list[int | None]:
        """Token ids for `text`, a special token's text as plain text; under a `chars` alphabet an
        unseen character is None.

        Each distinct chunk is merged once and cached as its tuple of ids: a chunk seen
        before costs one dict lookup, in C (see `chunk_cache.Chunks`). Under `kinds` the text is first
        cut after each space that comes before a non-space (`re` finds a literal space about
        three times faster than the pattern finds chunks), and each stretch between two cuts
        is remembered with its ids (see `chunk_cache.Stretches`): a third as many lookups, and the
        pattern runs only on stretches not seen before."""
        limit = len(self.merges) if rounds is None else min(rounds, len(self.merges))
        cache = self._cache.get(limit)
        if cache is None:
            cache = self._cache[limit] = Chunks(self, limit)
        if not self._by_stretch:
            return list(chain.from_iterable(map(cache.__getitem__, self._split(text))))
        stretches = _SPACE_BEFORE_NON_SPACE.split(text)
        last = stretches.pop()  # the only one not followed by its space
        return [*chain.from_iterable(map(cache.stretches.__getitem__, stretches)),
                *chain.from_iterable(map(cache.__getitem__, self._split(last)))]

    def ids(self, seq: str) -> tuple[int | None, ...]:
        """A sequence's ids; under a `chars` alphabet an unknown character is None."""
        ids = tuple(map(ord, seq))
        if not self.alphabet.byte_level and UNKNOWN in seq:
            return tuple(None if i == ord(UNKNOWN) else i for i in ids)
        return ids

    def pieces(self, text: str, rounds: int | None = None, **specials) -> list[tuple[int | None, str]]:
        """(id, display text) for each token of `text`, unknown characters shown as themselves;
        `specials` are `encode`'s (`allowed_special`, `disallowed_special`), and without them a
        special token's text is plain text."""
        ids = self.encode(text, rounds, **specials) if specials else self.encode_ordinary(text, rounds)
        unknown = iter(char for char in text if not self.alphabet.byte_level and char not in self.alphabet.chars)
        return [(i, next(unknown) if i is None else self.token_text(i)) for i in ids]

    def encode_pieces(self, text: str, rounds: int | None = None, allowed_special: Collection[str] | str = frozenset(),
                      disallowed_special: Collection[str] | str = "all") -> Pieces:
        """`encode`, each token with its bytes (`Pieces`, which a notebook cell draws as chips); an
        unknown character of a `chars` alphabet is a piece with id None and its own bytes."""
        ids = self.encode(text, rounds, allowed_special, disallowed_special)
        unknown = iter(char for char in text if not self.alphabet.byte_level and char not in self.alphabet.chars)
        return Pieces([Piece(None, next(unknown).encode("utf-8", "surrogatepass")) if i is None
                       else Piece(i, self.vocab[i], i in self.specials) for i in ids], text)

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The tokens' bytes joined; TokenIdError for anything that is not an id from 0 up
        (Python's negative indexing would otherwise read -1 as the last token)."""
        ids = list(ids)
        vocab = self.vocab
        try:
            if min(ids, default=0) >= 0:
                return b"".join(map(vocab.__getitem__, ids))
        except (IndexError, TypeError):
            pass
        bad = next(i for i in ids if type(i) is not int or not 0 <= i < len(vocab))
        raise TokenIdError(f"{bad!r} is not a token id of this tokenizer (0 to {len(vocab) - 1})")

    def decode(self, ids: Iterable[int]) -> str:
        """The text of a token list; bytes that are not valid UTF-8 become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", "replace")

    def token_text(self, token_id: int) -> str:
        """A token's text, with bytes that are not valid UTF-8 on their own written as \\xNN."""
        return render(self.vocab[token_id])
