"""What a rendered conversation is made of: parts, each some ids from one message (or from the
template alone), marked when they are the template's special tokens.

>>> part = Part(0, (1,), "<s>", special=True)
>>> part.message, part.special
(0, True)
"""
from __future__ import annotations

from ..record import Record


class Part(Record):
    message: int | None  # the index of the message these ids come from; None: the template's own
    ids: tuple
    text: str  # what the ids stand for: the special's name, or the text encoded
    special: bool = False


def special(encoding, name: str, message: int | None = None, ids: dict | None = None) -> Part:
    """One special token of `encoding` (or of `ids`, extra specials a template adds), by name."""
    table = ids if ids is not None else encoding.special_tokens
    return Part(message, (table[name],), name, special=True)


def text(encoding, content: str, message: int | None, allowed_special=None) -> Part:
    """`content` as one part: plain text (`encode_ordinary`), or, with `allowed_special`, as
    `encode` treats special tokens' text (frozenset(): refused, as the counting recipe does;
    "all": each one its id, as `tokenizers` does)."""
    ids = encoding.encode_ordinary(content) if allowed_special is None else encoding.encode(
        content, allowed_special=allowed_special)
    return Part(message, tuple(ids), content)
