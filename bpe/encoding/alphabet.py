"""The base alphabet: what a token id below the first special or merge means.

`bytes`: ids 0-255 are the byte values, so every text is representable.
`chars`: ids are the corpus's distinct characters in code-point order (the
from-scratch text's `sorted(set(corpus))`); a character the corpus never had
still encodes as one piece, with no id (`None`).

>>> Alphabet.of("chars", ["cab"]).symbols
[b'a', b'b', b'c']
>>> Alphabet.of("bytes", []).sequence("é") == "\\xc3\\xa9"
True
"""
from __future__ import annotations

import functools
from collections.abc import Iterable

from ..errors import lone_surrogate
from ..options import ALPHABET
from ..record import Record

#: Stands for a character outside a `chars` alphabet; no merge ever involves it.
UNKNOWN = chr(0x10FFFF)


class _Ids(dict):
    """A `str.translate` table that sends every unlisted character to UNKNOWN, and refuses a
    lone surrogate (only unlisted characters reach here, so the check costs known text nothing)."""

    def __missing__(self, code_point: int) -> str:
        if 0xD800 <= code_point <= 0xDFFF:
            raise lone_surrogate(chr(code_point))
        return UNKNOWN


class Alphabet(Record):
    kind: str  # an `options.ALPHABET` name: "bytes" or "chars"
    chars: str = ""  # the `chars` alphabet, in code-point order

    @functools.cached_property
    def byte_level(self) -> bool:
        """Ids 0-255 are bytes (otherwise they are the corpus's characters). Cached: `sequence`
        asks for every distinct chunk."""
        return ALPHABET.choose(self.kind).byte_level

    @classmethod
    def of(cls, kind: str, documents: Iterable[str]) -> "Alphabet":
        """The alphabet of a kind for a corpus (only `chars` looks at the corpus)."""
        if ALPHABET.choose(kind).byte_level:
            return cls(kind)
        seen: set[str] = set()
        for document in documents:
            seen.update(document)
        for char in seen:
            if "\ud800" <= char <= "\udfff":
                raise lone_surrogate(char)
        return cls("chars", "".join(sorted(seen)))

    @property
    def symbols(self) -> list[bytes]:
        """The bytes of each base id, index = id."""
        if self.byte_level:
            return [bytes([value]) for value in range(256)]
        return [char.encode("utf-8") for char in self.chars]

    def sequence(self, chunk: str) -> str:
        """A chunk as a sequence of base ids (see `sequence.py`).

        Raises TextError for a lone surrogate, under either alphabet: it is no character,
        and UTF-8 (so a saved tokenizer, and decoding) cannot hold one."""
        if not self.byte_level:
            return chunk.translate(self._table)
        try:
            return chunk.encode("utf-8").decode("latin-1")
        except UnicodeEncodeError as error:
            raise lone_surrogate(chunk[error.start]) from None

    @property
    def _table(self) -> _Ids:
        table = self.__dict__.get("_ids")
        if table is None:
            table = _Ids({ord(char): chr(index) for index, char in enumerate(self.chars)})
            object.__setattr__(self, "_ids", table)
        return table

    def to_dict(self) -> dict:
        return {"kind": self.kind} if self.byte_level else {"kind": self.kind, "chars": self.chars}
