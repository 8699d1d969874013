"""Regular-expression dialects: Python's `re` and the Rust engines' (Oniguruma in Hugging Face
`tokenizers`, fancy-regex in tiktoken), translated both ways so a pattern splits the same.

- `rust_pattern`: our `re` patterns for export. Every class is spelled out code point by
  code point, `\\s` included, because Python's `\\s` (`str.isspace`) also holds U+001C-U+001F,
  which the Rust engines' `\\s` does not.
- `python_pattern`: tiktoken's patterns for `bpe.real`. `\\p{L}`, `\\p{N}`, `\\p{Lu}`, ... become
  classes from `unicodedata`, `\\s` Unicode's White_Space, and `$` `\\Z`.

>>> print(space()[:24])
\\x{9}-\\x{d}\\x{1c}-\\x{20}
>>> rust_pattern(r" ?[^\\s]+")[:12]
' ?[^\\\\x{9}-\\\\x'
"""
from __future__ import annotations

import functools
import re

from ..errors import UserInputError
from . import unicode_classes


class DialectError(UserInputError):
    """A pattern construct that the other dialect might read differently."""


@functools.cache
def space() -> str:
    """Python's `\\s` (exactly `str.isspace`), as a class body in the Rust dialect."""
    points = [c for c in range(0x110000) if chr(c).isspace()]
    return _class_body(points)


def _class_body(points: list[int]) -> str:
    parts, i = [], 0
    while i < len(points):
        j = i
        while j + 1 < len(points) and points[j + 1] == points[j] + 1:
            j += 1
        parts.append(f"\\x{{{points[i]:x}}}" if i == j else f"\\x{{{points[i]:x}}}-\\x{{{points[j]:x}}}")
        i = j + 1
    return "".join(parts)


_ESCAPE = re.compile(r"\\(U[0-9a-fA-F]{8}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.DOTALL)
_KEEP = set("rnt\\-[]^.$|?*+(){}/' ")


def rust_pattern(pattern: str) -> str:
    """A Python `re` pattern in the dialect of Oniguruma and fancy-regex.

    `\\Uxxxxxxxx` becomes `\\x{...}`, `\\s` and `\\S` become Python's whitespace class
    spelled out; anything else that the two dialects might read differently is refused."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            match = _ESCAPE.match(pattern, i)
            body = match.group(1)
            if body[0] in "Uux" and len(body) > 1:
                out.append(f"\\x{{{int(body[1:], 16):x}}}")
            elif body == "s":
                out.append(space() if in_class else f"[{space()}]")
            elif body == "S" and not in_class:
                out.append(f"[^{space()}]")
            elif body in _KEEP:
                out.append("\\" + body)
            else:
                raise DialectError(f"cannot translate \\{body} in the pattern {pattern[:40]!r}...")
            i = match.end()
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            if pattern.startswith("]", i):  # a leading ] is a literal in Python
                out.append("\\]")
                i += 1
            continue
        if char == "]" and in_class:
            in_class = False
        out.append(char)
        i += 1
    return "".join(out)



# --------------------------------------------------------------------------- Rust to Python

def _property(name: str) -> str:
    """The class body for `\\p{name}`."""
    if name == "L":
        return unicode_classes.letters()
    if name == "N":
        return unicode_classes.numbers()
    if name == "M":
        return unicode_classes.marks()
    if name in ("Lu", "Ll", "Lt", "Lm", "Lo"):
        return unicode_classes.letter_categories().get(name, "")
    raise DialectError(f"no Unicode class for \\p{{{name}}}")


_TOKEN = re.compile(r"\\p\{(\w+)\}|\\[sS]|\\.|\[\^?|\]|\$|.", re.DOTALL)


@functools.cache
def python_pattern(pat_str: str) -> str:
    """A tiktoken split pattern (fancy-regex) in Python's `re` dialect: same matches."""
    out, in_class = [], False
    for token in _TOKEN.finditer(pat_str):
        text, name = token.group(), token.group(1)
        if name:
            out.append(_property(name) if in_class else f"[{_property(name)}]")
        elif text == r"\s":
            out.append(unicode_classes.WHITE_SPACE if in_class else f"[{unicode_classes.WHITE_SPACE}]")
        elif text == r"\S":
            if in_class:
                raise DialectError(r"\S inside a class is not supported")
            out.append(f"[^{unicode_classes.WHITE_SPACE}]")
        elif text.startswith("[") and not in_class:
            in_class = True
            out.append(text)
        elif text == "]" and in_class:
            in_class = False
            out.append(text)
        elif text == "$" and not in_class:
            out.append(r"\Z")  # Rust's $ is the end of the text; Python's also matches before a final \n
        else:
            out.append(text)
    return "".join(out)
