"""Reading text exactly as it is stored, and writing output files the way Unix tools do.

Reading: a file is read as bytes and decoded as strict UTF-8, so `\\r\\n` and a lone
`\\r` reach the trainer unchanged; invalid UTF-8 is reported with the byte where it
starts. A byte-order mark at the very start is the encoding's signature, not text, and
is the one thing left out. Command-line arguments arrive from the operating system with
undecodable bytes as lone surrogates (Python's surrogateescape), so they are turned
back into their bytes to say the same thing. A read stops at a stated size limit.

Writing (`write_files`): every file of one command is written, or none. Each goes to
a temporary file beside its target and is renamed over it once all are written; a
symbolic link is written through, an existing file keeps its mode, a new one gets the
umask's, and anything that is not a regular file (a device, a pipe) is written to,
never replaced.

>>> decode(b"a\\r\\nb", "f.txt")
'a\\r\\nb'
>>> decode(b"ab\\xff", "f.txt")
Traceback (most recent call last):
...
bpe.io.textio.InputFileError: f.txt: not UTF-8 text: invalid UTF-8 at byte 2 (0xFF)
"""
from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator

from ..errors import UserInputError

#: The most text one file may hold: a file is read whole, so a larger one is refused with its
#: size rather than failing for lack of memory. Files stream one at a time, so there is no
#: limit on all of them together.
MAX_INPUT_BYTES = 1 << 30
_BLOCK = 1 << 24


class InputFileError(UserInputError):
    """A file or argument that cannot be read as UTF-8 text; `at` is the first bad byte's offset, if that is why."""

    def __init__(self, message: str, at: int | None = None):
        super().__init__(message)
        self.at = at


class OutputFileError(UserInputError):
    """An output path that cannot be written."""


def size_words(size: int) -> str:
    """A size in the unit people read.

    >>> size_words(3 << 30), size_words(1536)
    ('3.0 GiB', '1.5 KiB')
    """
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            return f"{size / (1 << shift):.1f} {unit}"
    return f"{size} bytes"


BOM = b"\xef\xbb\xbf"


def decode(data: bytes, where: str) -> str:
    """Strict UTF-8 without a leading byte-order mark, or InputFileError naming the first
    byte (counted in the whole data) that is not UTF-8.

    >>> decode(BOM + b"walk", "f.txt")
    'walk'
    """
    start = len(BOM) if data.startswith(BOM) else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as error:
        at = start + error.start
        raise InputFileError(f"{where}: not UTF-8 text: invalid UTF-8 at byte {at} (0x{data[at]:02X})", at) from None


def read_bytes(path: str, limit: int | None = None, limit_words: str = "") -> bytes:
    """A file's bytes, reading at most `limit` (MAX_INPUT_BYTES by default): a larger file,
    or a device like /dev/zero, is refused."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    try:
        with open(path, "rb") as file:
            return _bounded(file, path, limit, limit_words)
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputFileError(f"{path}: is a directory, not a text file") from None
    except OSError as error:
        raise InputFileError(f"{path}: cannot be read ({error.strerror})") from None


def _bounded(file, name: str, limit: int, limit_words: str = "") -> bytes:
    blocks, size = [], 0
    while block := file.read(min(_BLOCK, limit + 1 - size)):
        blocks.append(block)
        size += len(block)
        if size > limit:
            words = limit_words or f"more than {size_words(limit)}, the most bpe reads at once"
            raise InputFileError(f"{name}: {words}; use a shorter extract")
    return b"".join(blocks)


def read_each(paths: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Each file's text, one file at a time: only the file being read is held, so any number
    of files can stream through (each one at most MAX_INPUT_BYTES)."""
    for path in paths:
        yield path, decode(read_bytes(path), path)


def read_text(path: str) -> str:
    """A UTF-8 file's text, exactly as stored."""
    return decode(read_bytes(path), path)


def read_json(path: str):
    """A JSON file's value, or InputFileError saying why it is not JSON."""
    return parse_json(read_text(path), path)


def parse_json(text: str, where: str):
    """A JSON text's value, or InputFileError saying why it is not JSON.

    >>> parse_json("[1", "f.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe.io.textio.InputFileError: f.json: invalid JSON (...line 1 column 3 (char 2))
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputFileError(f"{where}: invalid JSON ({error})") from None
    except RecursionError:
        raise InputFileError(f"{where}: invalid JSON (nested too deeply)") from None


def read_stdin() -> str:
    """Standard input as UTF-8 text, exactly as sent."""
    return decode(_bounded(sys.stdin.buffer, "standard input", MAX_INPUT_BYTES), "standard input")


def argument(value: str, what: str) -> str:
    """A command-line argument as text, or InputFileError if its bytes were not UTF-8.

    >>> argument("walk", "--text")
    'walk'
    """
    if not any("\udc80" <= char <= "\udcff" for char in value):
        return value
    return decode(os.fsencode(value), what)


# --------------------------------------------------------------------------- writing

def write_files(outputs: dict[str, str], inputs: Iterable[str] = ()) -> None:
    """Write each path's text, all or none (see the module's docstring).

    Refused before anything is written: an empty name, a folder, a missing folder, and a
    path that is one of the command's `inputs`."""
    targets = {path: _target(path, inputs) for path in outputs}
    temps: dict[str, str] = {}
    try:
        for path, target in targets.items():
            if _is_regular_or_missing(target):
                temps[path] = _write_temp(path, target, outputs[path])
        for path, target in targets.items():
            if path in temps:
                os.replace(temps.pop(path), target)
            else:
                _write_in_place(path, target, outputs[path])
    finally:
        for temp in temps.values():
            os.unlink(temp)


def _target(path: str, inputs: Iterable[str]) -> str:
    """Where `path` really is (a symbolic link is followed), after the checks that need no writing."""
    if not path:
        raise OutputFileError("the output file name is empty: give a path")
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise OutputFileError(f"{path}: is a directory; give a file name")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise OutputFileError(f"{path}: the folder {folder} does not exist")
    for source in inputs:
        if os.path.exists(target) and os.path.exists(source) and os.path.samefile(source, target):
            raise OutputFileError(f"{path}: is also an input of this command; write the output elsewhere")
    return target


def _is_regular_or_missing(target: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        return True


def _write_temp(path: str, target: str, text: str) -> str:
    import tempfile  # only a command that writes pays for the import

    folder, name = os.path.split(target)
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    except OSError as error:
        raise OutputFileError(f"{path}: cannot write in {folder} ({error.strerror})") from None
    try:
        os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    except BaseException as error:
        os.unlink(temp)
        if isinstance(error, OSError):
            raise OutputFileError(f"{path}: cannot be written ({error.strerror})") from None
        raise
    return temp


def _write_in_place(path: str, target: str, text: str) -> None:
    """A device or pipe is written to as it is, never replaced."""
    try:
        with open(target, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    except OSError as error:
        raise OutputFileError(f"{path}: cannot be written ({error.strerror})") from None


def _mode_for(target: str) -> int:
    """An existing file's permissions, or what the umask gives a new file (as `open` would)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
