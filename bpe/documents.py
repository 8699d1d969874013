"""How a text file becomes documents (merges never cross a document's edge).

One rule, used by the command line, the presets and the page: apart from the
separators below, no character of the text is dropped or changed.

- `file`: the whole text is one document, byte for byte.
- `line`: a line ends at `\\n`; its ending (`\\n`, or `\\r\\n`) is the separator and is
  not part of the document. Empty lines give no document. No other character
  (`\\f`, `\\v`, U+2028, ...) ends a line.
- `paragraph`: paragraphs are runs of lines that hold something other than
  whitespace; the separator is the line ending of a paragraph's last line and the
  blank or whitespace-only lines after it (with `\\n` or `\\r\\n` endings).

>>> split("a\\r\\nb\\fc\\n\\nd", "line")
['a', 'b\\x0cc', 'd']
>>> split("p1\\n \\n \\np2\\r\\n\\r\\n  p3\\n", "paragraph")
['p1', 'p2', '  p3']
>>> split("a\\r\\n", "file")
['a\\r\\n']
"""
from __future__ import annotations

import re

MODES = ("file", "line", "paragraph")

_LINE_END = re.compile(r"\r?\n")


def split(text: str, mode: str) -> list[str]:
    """The documents of a text under one of MODES; empty documents are left out."""
    if mode == "file":
        return [text] if text else []
    if mode == "line":
        return [line for line in _LINE_END.split(text) if line]
    if mode == "paragraph":
        return paragraphs(text)
    raise ValueError(f"unknown document split {mode!r}; choose one of {', '.join(MODES)}")


def paragraphs(text: str) -> list[str]:
    """Runs of non-blank lines, each without the line ending of its last line."""
    found, current = [], []
    lines = text.split("\n")
    for line in lines:
        if line and not line.isspace():
            current.append(line)
            continue
        if current:
            found.append(_paragraph(current))
            current = []
    if current:
        found.append("\n".join(current))  # the text's last line: no ending to drop
    return found


def _paragraph(lines: list[str]) -> str:
    """Lines joined as they were; the last one was followed by `\\n`, so a `\\r` before it is its ending."""
    last = lines[-1]
    lines[-1] = last[:-1] if last.endswith("\r") else last
    return "\n".join(lines)
