"""The start snapshot: Python's memory with the first screen imported, made by the build, shipped.

A first visit spends about 1 s of its 2 s before the first answer in CPython's start, Pyodide's own
imports and the first screen's import (`bpe`, param, the app's state), all the same for every
visitor. So the build opens the built page once in Debian's Chromium with `window.bpeMakeStartSnapshot`
set, and the worker hands over a memory snapshot right after that import (worker/snapshot.js,
`makeStartSnapshot`): 21 MB, 5 MB with gzip. It is shipped like any file, and a first visit starts
Python from it (`startSnapshot`), unless the link is slow.

A third of that heap is pages of zeros (a 5 MB run of them in the middle), which gzip makes small
but inflating still writes out, byte by byte: the file worker, which inflates everything a first
visit needs on one thread, is what the first answer waits for. So only the pages with data are
shipped (`pack`), and the worker writes them into a heap of zeros where the config's `runs` say.

numpy's libraries were loaded before the snapshot was made, and their memory is in it: a visit
loads them after its first answer, at the places the build recorded (`libraries` in the config:
[memory base, memory size, table base] each; libraries.js, `librariesInPlace`). A snapshot only
restores in the Pyodide build that made it, and its modules must be the shipped files' own: it is
cached by the worker's content-hashed name, which names every shipped file's digest, so any change
makes a new one.

    >>> STARTED_FROM_BUILD in (BUILD_ASSETS / "worker" / "snapshot.js").read_text()
    True
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import sys
import threading
from pathlib import Path

from .paths import BUILD_ASSETS, CACHE, CHROMIUM, CHROMIUM_ARGS, PYODIDE_DIR, PYTHON, SITE
from .util import log, run

#: What the worker logs once it started from it (the tests and the benchmark look for it).
STARTED_FROM_BUILD = "[bpe] Python started from the build's snapshot of the first screen"
#: Where it is shipped, before compression (dist/-relative).
PATH = PYODIDE_DIR + "start-snapshot.bin"
CHUNK = 4 << 20
#: The pages `pack` keeps or leaves out (WebAssembly's own page size).
PAGE = 1 << 16


def pack(heap: bytes, page: int = PAGE) -> tuple[bytes, list[list[int]]]:
    """The heap without its pages of zeros, and where the rest go: [offset, length] runs, in order.

    >>> pack(b"ab" + bytes(4) + b"cd" + bytes(2) + b"e", page=2)
    (b'abcde', [[0, 2], [6, 2], [10, 1]])
    >>> pack(bytes(6), page=2)
    (b'', [])
    """
    runs: list[list[int]] = []
    for at in range(0, len(heap), page):
        chunk = heap[at:at + page]
        if chunk == bytes(len(chunk)):
            continue
        if runs and sum(runs[-1]) == at:  # goes on from the run before
            runs[-1][1] += len(chunk)
        else:
            runs.append([at, len(chunk)])
    return b"".join(heap[at:at + length] for at, length in runs), runs


def capture(dist: Path, worker: str, made: str = "madeStartSnapshot", dark: bool = False) -> tuple[bytes, dict]:
    """(the snapshot, what else the worker said of it) that the page in `dist`, whose worker is
    `worker`, makes when told to (the page's `window.bpeMake...` for the worker's `self.<made>`),
    in the dark theme if `dark`; cached by that name and this module. Recorded by the venv's
    Python (Playwright).

    For the start snapshot, what else is {"table": numpy's libraries' table length, "libraries":
    their places}; for the app's (app_snapshot.py), {"table"}."""
    theme = "dark" if dark else "light"
    key = f"{worker}-{made}-{theme}-" + hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    cached = CACHE / "snapshots" / key
    if not (cached / "meta.json").exists():
        for older in cached.parent.glob(f"*-{made}-{theme}-*"):  # an earlier build's: 21-63 MB each
            shutil.rmtree(older)
        cached.mkdir(parents=True, exist_ok=True)
        run(PYTHON, "-m", "bpe_build.start_snapshot", dist, cached, made, theme,
            cwd=SITE, env=dict(os.environ, PYTHONPATH=str(SITE)))
    return (cached / "snapshot.bin").read_bytes(), json.loads((cached / "meta.json").read_text())


def record(dist: Path, out: Path, made: str, theme: str) -> None:
    """Open the page in `dist` in Chromium, in the theme `theme`, with the worker told to make the
    snapshot `made` (the page's flag is "bpeMake" and the rest of its name); write it (snapshot.bin)
    and the rest of what the worker keeps of it (meta.json) to the folder `out`."""
    from playwright.sync_api import sync_playwright

    from .serve import make_server

    flag = "bpeMake" + made.removeprefix("made")
    holder = f"self.{made}"
    server = make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(color_scheme=theme)
            page.add_init_script(f"window.{flag} = true")
            with page.expect_worker(lambda worker: "/app." in worker.url, timeout=60_000) as started:
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            worker = started.value
            length = None
            for _ in range(1800):
                length = worker.evaluate(f"() => {holder} ? ({holder}.error || {holder}.bytes.length) : null")
                if length is not None:
                    break
                page.wait_for_timeout(100)
            if not isinstance(length, int):
                raise SystemExit(f"the worker made no snapshot ({made}): {length or 'it timed out'}")
            data = b"".join(base64.b64decode(worker.evaluate(
                f"""([at, size]) => {{
                  const part = {holder}.bytes.subarray(at, at + size);
                  let text = "";
                  for (let i = 0; i < part.length; i += 32768) text += String.fromCharCode(...part.subarray(i, i + 32768));
                  return btoa(text);
                }}""", [at, CHUNK])) for at in range(0, length, CHUNK))
            meta = worker.evaluate(f"() => {{ const {{ bytes, ...rest }} = {holder}; return rest; }}")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    (out / "snapshot.bin").write_bytes(data)
    (out / "meta.json").write_text(json.dumps(meta))


def add_start_snapshot(dist: Path, worker: str, write_worker, config: dict) -> str:
    """Make and ship the start snapshot of the page in `dist`, name it in the worker's `config`,
    and write the worker again with it (`write_worker(config)` gives the new worker's name, which
    index.html then names); the new name."""
    from .ship import ship

    data, libraries = capture(dist, worker)
    places = libraries["libraries"]
    well_formed = all(len(place) == 3 and all(isinstance(n, int) and n > 0 for n in place) for place in places)
    if not (places and well_formed):
        raise SystemExit(f"the start snapshot's worker gave no places for numpy's libraries: {places!r}")
    packed, runs = pack(data)
    (dist / PATH).write_bytes(packed)
    entry = ship(dist, PATH, "application/octet-stream")
    config["shipped"][PATH] = entry  # not in config["keep"]: no visit keeps it (worker/snapshot.js)
    config["start_snapshot"] = {"path": PATH, "table": libraries["table"], "libraries": places,
                                "size": len(data), "runs": runs}
    named = rewrite_worker(dist, worker, write_worker, config)
    log(f"the start snapshot: {len(data) / 1e6:.1f} MB, {len(packed) / 1e6:.1f} MB without its pages of zeros, "
        f"{entry['packed'] / 1e6:.1f} MB with gzip")
    return named


def rewrite_worker(dist: Path, worker: str, write_worker, config: dict) -> str:
    """Write the worker again with `config` (`write_worker(config)` gives its new name), in place of
    `worker`, which index.html then names instead; the new name."""
    (dist / worker).unlink()
    named = write_worker(config)
    page = dist / "index.html"
    html = page.read_text()
    if html.count(f"./{worker}") != 1:
        raise SystemExit(f"index.html does not name the worker {worker} once")
    page.write_text(html.replace(f"./{worker}", f"./{named}"))
    return named


if __name__ == "__main__":
    record(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4])
