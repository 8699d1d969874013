"""What the formats share: their error, the imported tokenizer, the checks both make on export,
and the step from merges named by their bytes to our tokenizer.

>>> pairs_from_bytes([(b"a", b"b"), (b"ab", b"c")], 256)
[(97, 98), (256, 99)]
"""
from __future__ import annotations

import dataclasses

from ..encoding.alphabet import Alphabet
from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab import render
from ..errors import UserInputError
from ..io.files import Saved
from ..options import SPECIALS
from ..settings import Settings
from ..trainers.merge import Merge


class FormatError(UserInputError):
    """A tokenizer that a format cannot express, or a file we cannot read; the message says which."""


@dataclasses.dataclass
class Imported:
    """An imported tokenizer and what the import had to say about it."""

    saved: Saved
    notes: list[str]


def check_distinct(tokenizer: Tokenizer, fmt: str, specials: bool = False) -> None:
    """Both formats name a token by its bytes, so two ids with the same bytes cannot both be written
    (in tokenizer.json, a special's name is in the same vocabulary)."""
    first: dict[bytes, int] = {}
    for token_id, token in enumerate(tokenizer.vocab):
        if token_id in tokenizer.specials and not specials:
            continue
        if token in first:
            raise FormatError(
                f"tokens {first[token]} and {token_id} are both {render(token)!r} (made by different merges); "
                f"a {fmt} file names each token by its bytes, so it cannot hold both ids"
            )
        first[token] = token_id


def imported_tokenizer(pretokenizer: str, specials: str, pairs: list[tuple[int, int]]) -> Saved:
    settings = Settings(alphabet="bytes", pretokenizer=pretokenizer, specials=specials,
                        min_frequency=1, merges=len(pairs))
    first = settings.first_merge_id(256)
    merges = [Merge(rank, left, right, first + rank, 0, 0, 0) for rank, (left, right) in enumerate(pairs)]
    return Saved(settings, Alphabet("bytes"), merges, "")


def specials_setting(specials: dict[str, int]) -> tuple[str, list[str]]:
    """The specials setting whose tokens are exactly the file's, at their ids (octlm's at 256-260,
    ChatML's at 256-258); otherwise none, and the dropped names.

    >>> specials_setting({"<|endoftext|>": 256, "<|im_start|>": 257, "<|im_end|>": 258}), specials_setting({"<s>": 0})
    (('chatml', []), ('none', ['<s>']))
    """
    for value in SPECIALS:
        if value.tokens and specials == value.ids:
            return value.name, []
    return "none", sorted(specials)


def pairs_from_bytes(merges: list[tuple[bytes, bytes]], first: int) -> list[tuple[int, int]]:
    ids = {bytes([b]): b for b in range(256)}
    pairs = []
    for rank, (left, right) in enumerate(merges):
        for side in (left, right):
            if side not in ids:
                raise FormatError(f"merge {rank} uses {render(side)!r}, which no earlier merge makes")
        token = left + right
        if token in ids and ids[token] >= first:
            raise FormatError(f"merges {ids[token] - first} and {rank} both make {render(token)!r}; bpe gives "
                              "each merge its own id, so later merges using that token would be ambiguous")
        ids[token] = first + rank
        pairs.append((ids[left], ids[right]))
    return pairs


def first_merge_id(specials: str) -> int:
    return 256 + len(SPECIALS.choose(specials).tokens)
