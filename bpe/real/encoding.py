"""A tiktoken-style tokenizer: cut the text with the split pattern; a chunk whose bytes are a
token is that token; otherwise tiktoken's merge rule (`merge.py`). Chunks are cached.

>>> enc = Encoding("tiny", r"\\w+|\\s+", [bytes([i]) for i in range(256)] + [b"ab"], {})
>>> enc.encode("abc ab"), enc.decode([256, 99])
([256, 99, 32, 256], 'abc')
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from ..encoding.ranks import byte_pair_merge
from ..display import Shown
from ..encoding.pieces import Piece, Pieces
from ..encoding.specials import encode_with_specials, find_special
from ..text.dialect import python_pattern

#: Distinct chunks remembered before the cache starts over.
CACHE_LIMIT = 200_000


class Encoding(Shown):
    """A tiktoken-style tokenizer: ranks (token bytes -> id), a split pattern, specials."""

    def __init__(self, name: str, pat_str: str, tokens: list[bytes], special_tokens: dict[str, int],
                 normalize: str | None = None, rank_offset: int = 0):
        self.name = name
        self.pat_str = pat_str
        # id -> bytes; the ranks are the ids, but an id a special token holds (p50k_base's 50256)
        # has that token's name here and is no rank.
        self.tokens = tokens
        inside = {i for i in special_tokens.values() if i < len(tokens)}
        self.ranks = {token: rank for rank, token in enumerate(tokens) if rank not in inside}
        if len(self.ranks) != len(tokens) - len(inside):
            raise ValueError("two ranks have the same bytes")
        self.normalize = normalize  # a Unicode normal form applied to every text first (Claude's NFKC)
        # Where the file's own ranks start among the ids: Tekken's rank r is id r + 1000 (its
        # specials come first); in tiktoken's tables a rank is its id.
        self.rank_offset = rank_offset
        self.special_tokens = dict(special_tokens)
        self._special_bytes = {i: text.encode() for text, i in special_tokens.items()}
        self.pattern = re.compile(python_pattern(pat_str))
        self._split = self.pattern.findall if self.pattern.groups == 0 else (
            lambda text: [m.group() for m in self.pattern.finditer(text)])
        self._cache: dict[str, tuple[int, ...]] = {}

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}: {len(self.ranks)} ranks, {len(self.special_tokens)} specials>"

    @property
    def n_vocab(self) -> int:
        return max([len(self.tokens) - 1, *self.special_tokens.values()]) + 1

    def split(self, text: str) -> list[str]:
        """The chunks the split pattern cuts `text` into (merges never cross them)."""
        text = _clean(text)
        if self.normalize:
            text = unicodedata.normalize(self.normalize, text)
        return self._split(text)

    def _chunk(self, chunk: str) -> tuple[int, ...]:
        ids = self._cache.get(chunk)
        if ids is None:
            if len(self._cache) > CACHE_LIMIT:
                self._cache.clear()
            piece = chunk.encode("utf-8")
            rank = self.ranks.get(piece)
            ids = self._cache[chunk] = (rank,) if rank is not None else tuple(byte_pair_merge(piece, self.ranks))
        return ids

    def encode_ordinary(self, text: str) -> list[int]:
        """Token ids, special tokens' text encoded as plain text (tiktoken's encode_ordinary)."""
        chunk, out = self._chunk, []
        for piece in self.split(text):
            out.extend(chunk(piece))
        return out

    def encode(self, text: str, allowed_special: Collection[str] | str = frozenset(),
               disallowed_special: Collection[str] | str = "all") -> list[int]:
        """Token ids, with tiktoken's rules for special tokens' text in `text` (`bpe.encoding.specials`):
        those named in `allowed_special` ("all" for every one) become their ids; those in
        `disallowed_special` ("all": every special not allowed) are refused with `bpe.real.DisallowedSpecial`,
        which names the token and where it is; any other is plain text.

        >>> enc = Encoding("tiny", r"[^<]+|<", [bytes([i]) for i in range(256)], {"<end>": 256})
        >>> enc.encode("a<end>", allowed_special="all"), enc.encode("a<end>", disallowed_special=())
        ([97, 256], [97, 60, 101, 110, 100, 62])
        """
        return encode_with_specials(text, self.special_tokens, self.encode_ordinary, allowed_special,
                                    disallowed_special)

    def encode_pieces(self, text: str, allowed_special: Collection[str] | str = frozenset(),
                      disallowed_special: Collection[str] | str = "all") -> Pieces:
        """`encode`, each token with its bytes (`Pieces`, which a notebook cell draws as chips).

        >>> from bpe import real
        >>> real.load("cl100k_base").encode_pieces("strawberry").texts
        ['str', 'aw', 'berry']
        """
        ids = self.encode(text, allowed_special, disallowed_special)
        specials = set(self.special_tokens.values())
        return Pieces([Piece(i, self.token_bytes(i), i in specials) for i in ids], text, self.name)

    def special_in(self, text: str) -> tuple[str, int] | None:
        """The first of this tokenizer's special tokens whose text is in `text`, and where, or None.

        >>> Encoding("tiny", r"[^<]+|<", [bytes([i]) for i in range(256)], {"<end>": 256}).special_in("ab<end>")
        ('<end>', 2)
        """
        return find_special(text, self.special_tokens)

    def token_bytes(self, token_id: int) -> bytes:
        if 0 <= token_id < len(self.tokens):
            return self.tokens[token_id]
        if token_id in self._special_bytes:
            return self._special_bytes[token_id]
        raise ValueError(f"{token_id!r} is not a token id of {self.name}")

    def decode_bytes(self, ids) -> bytes:
        return b"".join(map(self.token_bytes, ids))

    def decode(self, ids, errors: str = "replace") -> str:
        return self.decode_bytes(ids).decode("utf-8", errors)

    def token_texts(self, text: str) -> list[tuple[int, str]]:
        """(id, text) for each token; bytes that are not UTF-8 on their own are written \\xNN."""
        return [(i, self.tokens[i].decode("utf-8", "backslashreplace")) for i in self.encode_ordinary(text)]


def _clean(text: str) -> str:
    """tiktoken's handling of lone surrogates, which UTF-8 cannot hold: each becomes U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
