"""Special tokens written in a text, with tiktoken's rules: what `encode` does with them.

A tokenizer's special tokens (octlm's `<|eos|>`, GPT-4's `<|endoftext|>`) have names that are
also plain text. tiktoken's `encode(text, allowed_special=set(), disallowed_special="all")` makes
the choice explicit: a special named in `allowed_special` ("all": every one) becomes its id; one in
`disallowed_special` ("all": every special not allowed) is refused, naming the token and where it
starts; any other is plain text, as `encode_ordinary` treats every one.

>>> ids, bytewise = {"<end>": 300}, lambda text: list(text.encode())
>>> encode_with_specials("a<end>", ids, bytewise, allowed_special="all")
[97, 300]
>>> encode_with_specials("a<end>", ids, bytewise, disallowed_special=())
[97, 60, 101, 110, 100, 62]
>>> encode_with_specials("a<end>", ids, bytewise)
Traceback (most recent call last):
...
bpe.encoding.specials.DisallowedSpecial: the text holds the special token '<end>' at character 1: allow it (allowed_special) to encode it as its id, or leave it out of disallowed_special to encode it as plain text
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection

from ..errors import UserInputError


class DisallowedSpecial(UserInputError, ValueError):
    """A special token's text in a text to encode, which the caller did not allow (tiktoken's
    ValueError): the message names the token and the character where it starts."""

    def __init__(self, token: str, offset: int):
        self.token, self.offset = token, offset
        super().__init__(f"the text holds the special token {token!r} at character {offset}: allow it "
                         "(allowed_special) to encode it as its id, or leave it out of disallowed_special "
                         "to encode it as plain text")


def chosen(specials: Collection[str], allowed_special: Collection[str] | str,
           disallowed_special: Collection[str] | str) -> tuple[set[str], set[str]]:
    """The specials allowed and those refused, as tiktoken reads its two arguments: a name this
    tokenizer has no special for is no special here.

    >>> chosen({"<a>", "<b>"}, {"<a>", "<z>"}, "all")
    ({'<a>'}, {'<b>'})
    """
    allowed = set(specials) if allowed_special == "all" else set(allowed_special) & set(specials)
    disallowed = set(specials) - allowed if disallowed_special == "all" else set(disallowed_special)
    return allowed, disallowed


def find_special(text: str, tokens: Collection[str]) -> tuple[str, int] | None:
    """The first of `tokens` in `text` and where it starts, or None (the longest first where two
    start at one place).

    >>> find_special("ab<end>", ["<end>"]), find_special("ab", ["<end>"])
    (('<end>', 2), None)
    """
    match = re.search(_alternatives(tokens), text) if tokens else None
    return (match.group(), match.start()) if match else None


def encode_with_specials(text: str, ids: dict[str, int], encode_ordinary: Callable[[str], list],
                         allowed_special: Collection[str] | str = frozenset(),
                         disallowed_special: Collection[str] | str = "all") -> list:
    """`text` encoded by `encode_ordinary` between the specials (name → id in `ids`) that are
    allowed, each of those its id; DisallowedSpecial for one that is refused."""
    allowed, disallowed = chosen(ids, allowed_special, disallowed_special)
    found = find_special(text, disallowed)
    if found:
        raise DisallowedSpecial(*found)
    if not allowed:
        return encode_ordinary(text)
    out = []
    for i, part in enumerate(re.split(f"({_alternatives(allowed)})", text)):
        if i % 2:
            out.append(ids[part])
        elif part:
            out.extend(encode_ordinary(part))
    return out


def _alternatives(tokens: Collection[str]) -> str:
    """A pattern matching any of `tokens`, the longest first (as tiktoken's special-token regex)."""
    return "|".join(map(re.escape, sorted(tokens, key=len, reverse=True)))
