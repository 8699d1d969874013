"""Byte-level names: how byte-level BPE files (GPT-2's, Hugging Face's) write a token's bytes
as text, with GPT-2's byte-to-character map.

>>> byte_level_name(b" the\\n"), byte_level_bytes("Ġthe")
('ĠtheĊ', b' the')
"""
from __future__ import annotations

import functools

from .common import FormatError


@functools.cache
def byte_to_char() -> dict[int, str]:
    """GPT-2's `bytes_to_unicode`: printable Latin-1 bytes stand for themselves, the
    other 68 bytes become U+0100 onwards, in byte order (space is 'Ġ', newline 'Ċ')."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, extra = {}, 0
    for byte in range(256):
        if byte in keep:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + extra)
            extra += 1
    return table


@functools.cache
def char_to_byte() -> dict[str, int]:
    return {char: byte for byte, char in byte_to_char().items()}


def byte_level_name(token: bytes) -> str:
    table = byte_to_char()
    return "".join(table[b] for b in token)


def byte_level_bytes(name: str) -> bytes:
    table = char_to_byte()
    try:
        return bytes(table[c] for c in name)
    except KeyError as error:
        raise FormatError(f"token {name!r} is not a byte-level name: {error.args[0]!r} stands for no byte") from None
