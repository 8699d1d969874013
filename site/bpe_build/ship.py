"""Shipping dist/: every file a first visit loads, gzip-compressed by us under a content-hashed name.

No host has to compress for us: the worker and the page inflate with the browser's own
DecompressionStream (site/bpe_build/shipped.js). And a name that changes whenever its content does
lets the browser keep a file for good, in the Cache API, without ever mixing two builds: only
index.html keeps its name, and it names everything else.

    >>> shipped_name("pyodide/pyodide.asm.wasm", "0123456789abcdef" * 4)
    'pyodide/pyodide.asm.wasm.0123456789abcdef.gzip'
"""
from __future__ import annotations

import gzip
import html as html_lib
import json
import os
import re
from pathlib import Path

from .paths import BUILD_ASSETS, CACHE
from .util import sha256_bytes

#: What the worker fetches at start-up, with the content type Pyodide expects of each
#: (instantiateStreaming insists on application/wasm).
WORKER_TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".json": "application/json",
                ".zip": "application/zip", ".bundle": "application/octet-stream"}
#: A suffix no common host maps to a Content-Encoding (Apache's default config does so for .gz).
SUFFIX = ".gzip"
HASH_LENGTH = 16


def shipped_name(path: str, digest: str) -> str:
    return f"{path}.{digest[:HASH_LENGTH]}{SUFFIX}"


def hashed_name(path: str, digest: str) -> str:
    """A content-hashed name for a file that stays uncompressed ('app.js' -> 'app.0123456789abcdef.js')."""
    stem, dot, suffix = path.rpartition(".")
    return f"{stem}.{digest[:HASH_LENGTH]}{dot}{suffix}"


def compressed(data: bytes, digest: str) -> bytes:
    """gzip at its best level, cached by content (the 24 MB bundle takes a few seconds)."""
    cached = CACHE / "shipped" / f"{digest}.gz"
    if cached.exists():
        return cached.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    partial.write_bytes(packed)
    partial.replace(cached)
    return packed


def ship(out: Path, path: str, content_type: str = "application/octet-stream") -> dict:
    """Replace out/path by its compressed, content-named copy; its entry for shipped.js."""
    data = (out / path).read_bytes()
    digest = sha256_bytes(data)
    target = shipped_name(path, digest)
    (out / target).write_bytes(compressed(data, digest))
    (out / path).unlink()
    return {"file": target, "sha256": digest, "type": content_type, "size": len(data)}


def ship_worker_files(out: Path, paths: list[str]) -> dict[str, dict]:
    """{path the worker (or Pyodide) asks for: its entry}."""
    return {path: ship(out, path, WORKER_TYPES[Path(path).suffix]) for path in paths}


def rename_hashed(out: Path, path: str) -> str:
    """Give out/path a content-hashed name (for files loaded by importScripts or new Worker)."""
    target = hashed_name(path, sha256_bytes((out / path).read_bytes()))
    (out / path).rename(out / target)
    return target


def shipped_js() -> str:
    return (BUILD_ASSETS / "shipped.js").read_text()


#: The worker's parts (site/bpe_build/worker/), each with one job, in the order they run.
WORKER_PARTS = ("config.js", "files.js", "bundles.js", "load_pyodide.js", "snapshot.js", "start_python.js",
                "first_screen.js", "start_app.js", "messages.js")


def worker_js() -> str:
    """The worker as the page starts it: its parts joined in order into one classic script, shipped
    as one file under one content hash (a classic worker runs one file; `importScripts` for each
    part would cost a request each at start-up)."""
    folder = BUILD_ASSETS / "worker"
    found = sorted(path.name for path in folder.glob("*.js"))
    if found != sorted(WORKER_PARTS):
        raise SystemExit(f"site/bpe_build/worker/ holds {found}; ship.py's WORKER_PARTS lists {sorted(WORKER_PARTS)}")
    return "".join((folder / name).read_text() for name in WORKER_PARTS)


EXTERNAL_SCRIPT = re.compile(r'<script type="text/javascript" src="([^"]+)"></script>')
INLINE_SCRIPT = re.compile(r'<script type="text/javascript">')
#: The prerendered document, which Bokeh's embed script reads by id: 0.55 MB as text.
DOCUMENT_JSON = re.compile(r'<script type="application/json" id="([^"]+)">(.*?)</script>', re.S)
PRERENDERED = "prerendered.json"


def ship_page(out: Path, html: str) -> tuple[str, list[dict]]:
    """The page with its external scripts shipped: each <script src> and every inline script after
    the first of them become "text/x-bpe-later", which page_loader.js runs in the page's order once
    it has fetched the shipped ones. The prerendered document's JSON is shipped too, and the loader
    puts it back before those run. Returns the page (loader not yet inserted) and their entries."""
    first = EXTERNAL_SCRIPT.search(html)
    if not first:
        raise SystemExit("the converted page has no <script src> to ship")
    head, tail = html[:first.start()], html[first.start():]
    entries: list[dict] = []

    def external(match: re.Match) -> str:
        entries.append(ship(out, html_lib.unescape(match.group(1)), "text/javascript"))
        return f'<script type="text/x-bpe-later" data-shipped="{len(entries) - 1}"></script>'

    def document(match: re.Match) -> str:
        if any(entry["file"].startswith(PRERENDERED + ".") for entry in entries):
            raise SystemExit("the converted page holds more than one document")
        (out / PRERENDERED).write_text(match.group(2), encoding="utf-8")
        entries.append(ship(out, PRERENDERED, "application/json"))
        return f'<script type="application/json" id="{match.group(1)}" data-shipped="{len(entries) - 1}"></script>'

    tail = EXTERNAL_SCRIPT.sub(external, tail)
    tail = INLINE_SCRIPT.sub('<script type="text/x-bpe-later">', tail)
    tail = DOCUMENT_JSON.sub(document, tail)
    return head + tail, entries


def page_loader(entries: list[dict]) -> str:
    """The inline <script> that fetches the page's shipped scripts and runs the deferred ones."""
    code = (BUILD_ASSETS / "page_loader.js").read_text()
    code = code.replace("__SHIPPED__", shipped_js()).replace("__SCRIPTS__", json.dumps(entries))
    if "</script" in code.lower():
        raise SystemExit("page_loader.js would end its own <script> element")
    return f'    <script type="text/javascript">\n{code}    </script>\n'
