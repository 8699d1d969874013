"""A text cut into its tokens: each token's id and bytes, as a list that a notebook draws as chips.

>>> import bpe
>>> pieces = bpe.train(["walk walked"] * 3, bpe.Settings(pretokenizer="words", merges=3)).tokenizer.encode_pieces("walked")
>>> pieces.ids, pieces.texts
([258, 101, 100], ['walk', 'e', 'd'])
>>> pieces[0]
Piece(id=258, token=b'walk', special=False)
"""
from __future__ import annotations

from typing import NamedTuple

from ..display import Shown


class Piece(NamedTuple):
    id: int | None  # None: a character outside a `chars` alphabet
    token: bytes  # its bytes (a special token's: its name)
    special: bool = False  # a special token written in the text, allowed to be one


class Pieces(Shown, list):
    """The pieces of one text, in order (a list of `Piece`), with the text itself."""

    def __init__(self, pieces, text: str = "", vocabulary: str = ""):
        super().__init__(pieces)
        self.text = text
        self.vocabulary = vocabulary  # whose ids these are: "" for a tokenizer of bpe's, else a real one's name

    @property
    def ids(self) -> list[int | None]:
        return [piece.id for piece in self]

    @property
    def texts(self) -> list[str]:
        """Each token's text; bytes that are not UTF-8 on their own are written \\xNN."""
        return [piece.token.decode("utf-8", "backslashreplace") for piece in self]
