"""Just enough of protobuf's wire format to read a SentencePiece `.model` file: fields as
(number, value) pairs, no schema, no `protobuf` package (which Pyodide would have to fetch).

A varint field gives an int, a length-delimited one its bytes (a string or a nested message,
read again with `fields`), a 32-bit one a float (SentencePiece's scores are floats) and a
64-bit one its 8 bytes.

>>> list(fields(b"\\x08\\x96\\x01\\x12\\x02hi\\x1d\\x00\\x00\\x80\\xbf"))
[(1, 150), (2, b'hi'), (3, -1.0)]
"""
from __future__ import annotations

import struct
from collections.abc import Iterator


class ProtobufError(ValueError):
    """The bytes are not a well-formed protobuf message."""


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if i >= len(data):
            raise ProtobufError("the message is cut short inside a number")
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
        shift += 7
        if shift > 63:
            raise ProtobufError("a number is longer than 10 bytes")


def fields(data: bytes) -> Iterator[tuple[int, int | float | bytes]]:
    """Each field of one message, in the order written."""
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, i = _varint(data, i)
        elif kind == 2:
            size, i = _varint(data, i)
            value, i = data[i:i + size], i + size
        elif kind == 5:
            value, i = struct.unpack("<f", data[i:i + 4])[0] if i + 4 <= len(data) else None, i + 4
        elif kind == 1:
            value, i = data[i:i + 8], i + 8
        else:
            raise ProtobufError(f"field {number} has wire type {kind}, which this reader does not know")
        if number == 0 or i > len(data) or value is None:
            raise ProtobufError("the message is cut short" if i > len(data) or value is None else "a field has number 0")
        yield number, value


def message(data: bytes, repeated: frozenset[int] = frozenset()) -> dict[int, object]:
    """A message's fields by number: the last value of each (as protobuf reads a repeated
    scalar written twice), or for a number in `repeated`, a list of every value.

    >>> message(b"\\x08\\x01\\x08\\x02\\x12\\x01a\\x12\\x01b", repeated=frozenset({2}))
    {1: 2, 2: [b'a', b'b']}
    """
    out: dict[int, object] = {}
    for number, value in fields(data):
        if number in repeated:
            out.setdefault(number, []).append(value)
        else:
            out[number] = value
    return out
