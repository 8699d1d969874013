"""Bundles: files the worker writes straight into Pyodide's file system."""
from __future__ import annotations

import gzip
import json
import os
import zipfile
from pathlib import Path

from .paths import BUNDLE_GZIP, CACHE
from .util import sha256_bytes, sha256_file


def make_bundle(members: list[tuple[str, bytes]], compress: bool = BUNDLE_GZIP) -> bytes:
    """Files for the worker to write straight into Pyodide's file system.

    Format: a 4-byte little-endian length, that many bytes of JSON [[absolute path, size], ...],
    then the files' contents one after the other, the whole optionally gzip-compressed (the worker
    inflates it with the browser's own DecompressionStream). The worker writes each file with
    FS.writeFile: no zip handling in Python at all.
    """
    index = json.dumps([[name, len(data)] for name, data in members]).encode()
    raw = b"".join([len(index).to_bytes(4, "little"), index, *(data for _, data in members)])
    return gzip.compress(raw, compresslevel=6, mtime=0) if compress else raw


def archive_members(path: Path, root: str) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(path) as archive:
        return [(f"{root}/{info.filename}", archive.read(info)) for info in archive.infolist() if not info.is_dir()]


def cached_bundle(paths: list[Path], root: str) -> Path:
    key = sha256_bytes(" ".join(f"{p.name}:{sha256_file(p)}" for p in paths).encode()
                       + f"{root} {BUNDLE_GZIP}".encode())[:20]
    target = CACHE / "bundles" / f"{key}.bundle"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        members = [member for path in paths for member in archive_members(path, root)]
        partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        partial.write_bytes(make_bundle(members))
        partial.replace(target)
    return target
