"""Small helpers every step uses: running commands, hashing files, the pins."""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
import subprocess
import time
from pathlib import Path

from .paths import PINS_FILE, ROOT


def run(*command: str | Path, **kwargs) -> subprocess.CompletedProcess:
    """Run a command, echoing it, and stop the build if it fails."""
    print("+", " ".join(str(part) for part in command), flush=True)
    return subprocess.run([str(part) for part in command], check=True, **kwargs)


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


@contextlib.contextmanager
def step(what: str):
    """Say what the build is doing before it starts, and how long it took once done, so that no
    step of a fresh build is silent.

    >>> with step("nothing"):
    ...     pass  # doctest: +ELLIPSIS
    [build] nothing ...
    [build] nothing: done in 0.0 s
    """
    log(f"{what} ...")
    started = time.monotonic()
    yield
    log(f"{what}: done in {time.monotonic() - started:.1f} s")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_sha256(path: Path, expected: str) -> None:
    actual = sha256_file(path)
    if actual != expected:
        raise SystemExit(f"sha256 mismatch for {path}:\n  expected {expected}\n  got      {actual}")


def tree_digest(paths: list[Path], extra: str = "") -> str:
    """A digest of file names and contents (directories walked), for cache keys."""
    digest = hashlib.sha256(extra.encode())
    for base in paths:
        files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file()) if base.exists() else []
        for path in files:
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def pins() -> dict:
    return json.loads(PINS_FILE.read_text())


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
