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

Which splits there are, by name, is `options.DOCUMENTS`; each value carries its function.

>>> lines("a\\r\\nb\\fc\\n\\nd")
['a', 'b\\x0cc', 'd']
>>> paragraphs("p1\\n \\n \\np2\\r\\n\\r\\n  p3\\n")
['p1', 'p2', '  p3']
>>> whole("a\\r\\n")
['a\\r\\n']
"""
from __future__ import annotations

import re

_LINE_END = re.compile(r"\r?\n")


def whole(text: str) -> list[str]:
    """The text as one document (none if it is empty)."""
    return [text] if text else []


def lines(text: str) -> list[str]:
    """Each non-empty line, without its ending."""
    return [line for line in _LINE_END.split(text) if line]


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
