"""Shipping dist/: every file a first visit loads, compressed by us under a content-hashed name.

No host has to compress for us: the worker and the page inflate what they fetch themselves
(site/bpe_build/shipped.js). gzip is inflated by the browser's own DecompressionStream, fast;
brotli at its best level ships the files the first answer waits for 1.5 MB smaller (the wasm 2.3 MB
against 3.1), but is inflated by a decoder built to WebAssembly (brotli-dec-wasm, 0.1 MB), slower:
Chromium's DecompressionStream takes no brotli. So the worker's big first-answer files are shipped
both ways, and the worker takes brotli only over a slow link (shipped.js, `codecFor`); the page's
scripts, inflated while the worker starts Python, come with brotli alone.
A name that changes whenever its content does lets the browser keep a file for good, in the Cache
API, without ever mixing two builds: only index.html keeps its name, and it names everything else.
A file is kept inflated under its name without the codec's suffix, so either variant finds it.

    >>> shipped_name("pyodide/pyodide.asm.wasm", "0123456789abcdef" * 4)
    'pyodide/pyodide.asm.wasm.0123456789abcdef.gzip'
    >>> shipped_name("pyodide/pyodide.asm.wasm", "0123456789abcdef" * 4, "brotli")
    'pyodide/pyodide.asm.wasm.0123456789abcdef.brotli'
    >>> kept_name("pyodide/pyodide.asm.wasm", "0123456789abcdef" * 4)
    'pyodide/pyodide.asm.wasm.0123456789abcdef'
"""
from __future__ import annotations

import gzip
import html as html_lib
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .paths import BUILD_ASSETS, CACHE, PYTHON
from .util import sha256_bytes

#: What the worker fetches at start-up, with the content type Pyodide expects of each
#: (instantiateStreaming insists on application/wasm).
WORKER_TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".json": "application/json",
                ".zip": "application/zip", ".bundle": "application/octet-stream"}
#: Each codec's suffix: one no common host maps to a Content-Encoding (Apache's default config does
#: so for .gz and .br), so the browser gets the bytes as built.
SUFFIXES = {"gzip": ".gzip", "brotli": ".brotli"}
HASH_LENGTH = 16


def kept_name(path: str, digest: str) -> str:
    """Where the browser keeps the file inflated (the Cache API's key; no such file is served)."""
    return f"{path}.{digest[:HASH_LENGTH]}"


def shipped_name(path: str, digest: str, codec: str = "gzip") -> str:
    return kept_name(path, digest) + SUFFIXES[codec]


def hashed_name(path: str, digest: str) -> str:
    """A content-hashed name for a file that stays uncompressed ('app.js' -> 'app.0123456789abcdef.js')."""
    stem, dot, suffix = path.rpartition(".")
    return f"{stem}.{digest[:HASH_LENGTH]}{dot}{suffix}"


#: brotli at its best level with a 16 MB window: the wasm in 2.27 MB (level 10: 2.40, 9: 2.63).
#: It runs in .venv's Python, which has the brotli package (the build itself may run in any python3).
BROTLI = "import brotli, sys; sys.stdout.buffer.write(brotli.compress(sys.stdin.buffer.read(), quality=11, lgwin=24))"


def compressed(data: bytes, digest: str, codec: str = "gzip") -> bytes:
    """`data` compressed with `codec` at its best level, cached by content: brotli takes about a
    minute for the 10 MB wasm, gzip a few seconds for the 24 MB bundle."""
    cached = CACHE / "shipped" / f"{digest}.{codec}"
    if cached.exists():
        return cached.read_bytes()
    if codec == "gzip":
        packed = gzip.compress(data, compresslevel=9, mtime=0)
    else:
        packed = subprocess.run([str(PYTHON), "-c", BROTLI], input=data, capture_output=True, check=True).stdout
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    partial.write_bytes(packed)
    partial.replace(cached)
    return packed


def ship(out: Path, path: str, content_type: str = "application/octet-stream", codec: str = "gzip",
         smaller: str | None = None) -> dict:
    """Replace out/path by its compressed, content-named copy; its entry for shipped.js. With
    `smaller` (a codec), a second copy too, under "smaller": {file, codec, packed}, which the
    worker may take instead (shipped.js, `codecFor`)."""
    data = (out / path).read_bytes()
    digest = sha256_bytes(data)
    entry = {"sha256": digest, "type": content_type, "size": len(data), "kept": kept_name(path, digest),
             **_packed(out, path, data, digest, codec)}
    if smaller:
        entry["smaller"] = _packed(out, path, data, digest, smaller)
    (out / path).unlink()
    return entry


def _packed(out: Path, path: str, data: bytes, digest: str, codec: str) -> dict:
    target = shipped_name(path, digest, codec)
    packed = compressed(data, digest, codec)
    (out / target).write_bytes(packed)
    return {"file": target, "codec": codec, "packed": len(packed)}


def ship_all(out: Path, files: list[tuple]) -> list[dict]:
    """ship() for each (path, content type, codec[, smaller]), on every core (brotli's minutes run
    apart, in processes of their own); the entries in the same order."""
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(lambda file: ship(out, *file), files))


def ship_worker_files(out: Path, paths: list[str], both: tuple[str, ...] = ()) -> dict[str, dict]:
    """{path the worker (or Pyodide) asks for: its entry}: gzip, and those in `both` with brotli too."""
    files = [(path, WORKER_TYPES[Path(path).suffix], "gzip", "brotli" if path in both else None) for path in paths]
    return dict(zip(paths, ship_all(out, files)))


def rename_hashed(out: Path, path: str) -> str:
    """Give out/path a content-hashed name (for files loaded by importScripts or new Worker)."""
    target = hashed_name(path, sha256_bytes((out / path).read_bytes()))
    (out / path).rename(out / target)
    return target


#: The brotli decoder's two files in its npm package: wasm-bindgen's module and its wasm.
DECODER_FILES = {"module": "pkg/brotli_dec_wasm.js", "wasm": "pkg/brotli_dec_wasm_bg.wasm"}
DECODER_DIR = "assets/brotli-dec-wasm/"


def ship_decoder(out: Path, package: Path) -> dict[str, dict]:
    """The brotli decoder's files (from its unpacked npm package), shipped with gzip, which the
    browser inflates itself: {"module": entry, "wasm": entry} for shipped_js."""
    (out / DECODER_DIR).mkdir(parents=True, exist_ok=True)
    files = []
    for part, name in DECODER_FILES.items():
        target = DECODER_DIR + Path(name).name
        (out / target).write_bytes((package / name).read_bytes())
        files.append((target, "text/javascript" if part == "module" else "application/wasm", "gzip"))
    return dict(zip(DECODER_FILES, ship_all(out, files)))


def shipped_js(decoder: dict[str, dict], worker: bool = False) -> str:
    """shipped.js, told where the brotli decoder's files are; with `worker`, followed by
    shipped_worker.js, which runs where the script is started as the file worker ("bpe-shipped")."""
    code = (BUILD_ASSETS / "shipped.js").read_text().replace("__BROTLI_DECODER__", json.dumps(decoder))
    return code + (BUILD_ASSETS / "shipped_worker.js").read_text() if worker else code


#: The worker's parts (site/bpe_build/worker/), each with one job, in the order they run.
WORKER_PARTS = ("config.js", "files.js", "bundles.js", "load_pyodide.js", "snapshot.js", "libraries.js",
                "app_snapshot.js", "start_python.js", "first_screen.js", "start_app.js", "messages.js")


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


def ship_page(out: Path, html: str, codec: str = "gzip") -> tuple[str, list[dict]]:
    """The page with its external scripts shipped (with `codec`): each <script src> and every inline
    script after the first of them become "text/x-bpe-later", which page_loader.js runs in the
    page's order once it has fetched the shipped ones. The prerendered document's JSON is shipped
    too, and the loader puts it back before those run. Returns the page (loader not yet inserted)
    and their entries."""
    first = EXTERNAL_SCRIPT.search(html)
    if not first:
        raise SystemExit("the converted page has no <script src> to ship")
    head, tail = html[:first.start()], html[first.start():]
    files: list[tuple[str, str, str]] = []

    def external(match: re.Match) -> str:
        files.append((html_lib.unescape(match.group(1)), "text/javascript", codec))
        return f'<script type="text/x-bpe-later" data-shipped="{len(files) - 1}"></script>'

    def document(match: re.Match) -> str:
        if any(path == PRERENDERED for path, _, _ in files):
            raise SystemExit("the converted page holds more than one document")
        (out / PRERENDERED).write_text(match.group(2), encoding="utf-8")
        files.append((PRERENDERED, "application/json", codec))
        return f'<script type="application/json" id="{match.group(1)}" data-shipped="{len(files) - 1}"></script>'

    tail = EXTERNAL_SCRIPT.sub(external, tail)
    tail = INLINE_SCRIPT.sub('<script type="text/x-bpe-later">', tail)
    tail = DOCUMENT_JSON.sub(document, tail)
    return head + tail, ship_all(out, files)


def page_loader(entries: list[dict], decoder: dict[str, dict]) -> str:
    """The inline <script> that fetches the page's shipped scripts and runs the deferred ones."""
    code = (BUILD_ASSETS / "page_loader.js").read_text()
    code = code.replace("__SHIPPED__", shipped_js(decoder)).replace("__SCRIPTS__", json.dumps(entries))
    if "</script" in code.lower():
        raise SystemExit("page_loader.js would end its own <script> element")
    return f'    <script type="text/javascript">\n{code}    </script>\n'
