r"""Count files: each distinct chunk of a corpus with its count, so that counting can run
anywhere (our `bpe count`, a process pool, DuckDB, Spark) and training reads only the
result.

The format, `bpe-counts`, is UTF-8 text, one chunk per line:

    # bpe-counts pretokenizer=kinds        (optional first line: how the chunks were cut)
    COUNT<TAB>CHUNK

COUNT is a positive whole number in decimal. CHUNK is the chunk's text with four
characters escaped: `\` as `\\`, tab as `\t`, line feed as `\n`, carriage return as
`\r`; nothing else is escaped. Lines end with a line feed only. The same chunk may appear
on several lines or in several files: its counts add up. Training on counts gives the
same merges as training on the text they were counted from.

>>> text = dumps({"a\tb": 2, "\n": 5}, "kinds")
>>> text.splitlines()
['# bpe-counts pretokenizer=kinds', '2\ta\\tb', '5\t\\n']
>>> loads(text, "example")
(Counter({'\n': 5, 'a\tb': 2}), 'kinds')
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping

from ..errors import UserInputError

HEADER = "# bpe-counts"
_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {value: key for key, value in _ESCAPES.items()}
_ESCAPE = str.maketrans(_ESCAPES)
_ESCAPED = re.compile(r"\\.?", re.DOTALL)  # a lone \\ at the end matches alone
_LINE = re.compile(r"([1-9][0-9]*)\t([^\t\r]+)")


class CountFileError(UserInputError):
    """A count file that cannot be read; the message names the file and the line."""


def escape(chunk: str) -> str:
    r"""A chunk as it is written in a count file.

    >>> escape("a\\b\tc\r\n")
    'a\\\\b\\tc\\r\\n'
    """
    return chunk.translate(_ESCAPE)


def unescape(field: str, where: str = "") -> str:
    r"""The chunk a count file's field stands for.

    >>> unescape(r"a\\b\tc")
    'a\\b\tc'
    """
    if "\\" not in field:
        return field

    def one(match: re.Match) -> str:
        found = _UNESCAPES.get(match.group())
        if found is None:
            raise CountFileError(f"{where}unknown escape {match.group()!r} (only \\\\, \\t, \\n and \\r)")
        return found

    return _ESCAPED.sub(one, field)


def dumps(counts: Mapping[str, int], pretokenizer: str | None = None) -> str:
    """A count file's text, the chunks in the mapping's order."""
    head = [f"{HEADER} pretokenizer={pretokenizer}\n"] if pretokenizer else []
    return "".join(head + [f"{count}\t{escape(chunk)}\n" for chunk, count in counts.items()])


def loads(text: str, name: str) -> tuple[Counter, str | None]:
    """The chunks and counts of one count file's text, and the pre-tokenizer its header
    names (None without a header). `name` is for messages."""
    counts: Counter = Counter()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    pretokenizer = None
    if lines and lines[0].startswith(HEADER):
        pretokenizer = _header(lines[0], name)
        lines = lines[1:]
        start = 2
    else:
        start = 1
    for number, line in enumerate(lines, start):
        match = _LINE.fullmatch(line)
        if not match and line.endswith("\r"):
            raise CountFileError(f"{name}, line {number}: ends with a carriage return; lines end with a line "
                                 f"feed alone, and a carriage return in a chunk is written \\r (was the file "
                                 f"saved with CRLF line endings?)")
        if not match:
            raise CountFileError(f"{name}, line {number}: expected COUNT<TAB>CHUNK, a positive count and a non-empty "
                                 f"chunk (tab, line feed, carriage return and \\ escaped)")
        chunk = unescape(match.group(2), f"{name}, line {number}: ")
        counts[chunk] += int(match.group(1))
    return counts, pretokenizer


def _header(line: str, name: str) -> str:
    found = re.fullmatch(re.escape(HEADER) + r" pretokenizer=(\S+)", line)
    if not found:
        raise CountFileError(f"{name}, line 1: the header must read '{HEADER} pretokenizer=NAME'")
    return found.group(1)


def sha256(counts: Mapping[str, int]) -> str:
    """A hash of a count table, whatever the order of its lines or files: what a tokenizer
    trained on counts stores as its corpus hash (the documents themselves were never seen)."""
    return hashlib.sha256(dumps(dict(sorted(counts.items()))).encode("utf-8")).hexdigest()


def merge(tables: Iterable[Counter]) -> Counter:
    """Several count tables as one: counts of the same chunk add up, first-seen order kept."""
    total: Counter = Counter()
    for table in tables:
        total.update(table)
    return total
