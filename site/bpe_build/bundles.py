"""Bundles: files the worker writes straight into Pyodide's file system."""
from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

from .paths import CACHE
from .trim import never_loaded
from .util import sha256_bytes, sha256_file


def make_bundle(members: list[tuple[str, bytes]]) -> bytes:
    """Files for the worker to write straight into Pyodide's file system.

    Format: a 4-byte little-endian length, that many bytes of JSON [[absolute path, size], ...],
    then the files' contents one after the other (shipped gzip-compressed as a whole: ship.py).
    The worker makes each a file of Pyodide's: no zip handling in Python at all.

    >>> make_bundle([("/a", b"hi")])
    b'\\x0b\\x00\\x00\\x00[["/a", 2]]hi'
    """
    index = json.dumps([[name, len(data)] for name, data in members]).encode()
    return b"".join([len(index).to_bytes(4, "little"), index, *(data for _, data in members)])


def read_bundle(data: bytes) -> list[tuple[str, bytes]]:
    """The members of a bundle, as make_bundle was given them.

    >>> read_bundle(make_bundle([("/a", b"hi"), ("/b", b"")]))
    [('/a', b'hi'), ('/b', b'')]
    """
    length = int.from_bytes(data[:4], "little")
    members, offset = [], 4 + length
    for name, size in json.loads(data[4:offset]):
        members.append((name, data[offset:offset + size]))
        offset += size
    return members


def archive_members(path: Path, root: str) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(path) as archive:
        return [(f"{root}/{info.filename}", archive.read(info)) for info in archive.infolist() if not info.is_dir()]


def cached_bundle(paths: list[Path], root: str) -> Path:
    key = sha256_bytes(" ".join(f"{p.name}:{sha256_file(p)}" for p in paths).encode()
                       + root.encode() + Path(__file__).with_name("trim.py").read_bytes())[:20]
    target = CACHE / "bundles" / f"{key}.bundle"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        members = [(name, data) for path in paths for name, data in archive_members(path, root)
                   if not never_loaded(name[len(root) + 1:])]
        partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        partial.write_bytes(make_bundle(members))
        partial.replace(target)
    return target
