#!/usr/bin/env python3
"""Python's main module linked by Emscripten's code (the pinned pyodide.asm.js) and by the build's
(site/bpe_build/pyodide_link.js), under Node, the two in turn: the milliseconds from the wasm
instance to its exports linked (Emscripten's receiveInstance, which the page runs before Python
starts on every visit), and loadPyodide's whole time.

    .venv/bin/python benchmarks/pyodide_link.py [--runs 8]

Each run is a Node process; both copies are timed the same way (a mark at receiveInstance's start
and one before it returns). Node's V8 is older than Chromium's: compare the two columns, and see
site_load.py and site_profile.py for the page.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "site")]

from bpe_build.fetch import fetch_pyodide  # noqa: E402
from bpe_build.pyodide_link import link_patched  # noqa: E402

FILES = ("pyodide.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: Where the time is taken, in both copies.
MARKS = (
    ("function receiveInstance(instance,module){", "function receiveInstance(instance,module){var bpeLinkStart=performance.now();"),
    ('removeRunDependency("wasm-instantiate");return wasmExports}',
     'globalThis.bpeLinkMs=performance.now()-bpeLinkStart;removeRunDependency("wasm-instantiate");return wasmExports}'),
)
RUN = """
const { loadPyodide } = require(process.argv[1] + "/pyodide.js");
const started = performance.now();
loadPyodide({ indexURL: process.argv[1] + "/" }).then((pyodide) => {
  if (pyodide.runPython("1 + 1") !== 2) throw new Error("Python does not add");
  console.log(`${globalThis.bpeLinkMs} ${performance.now() - started}`);
});
"""


def marked(text: str) -> str:
    for old, new in MARKS:
        if text.count(old) != 1:
            raise SystemExit(f"pyodide.asm.js has {text.count(old)} copies of {old!r}")
        text = text.replace(old, new)
    return text


def copy(pinned: Path, folder: Path, patch: bool) -> Path:
    folder.mkdir()
    for name in FILES:
        shutil.copy2(pinned / name, folder / name)
    text = (pinned / "pyodide.asm.js").read_text(encoding="utf-8")
    (folder / "pyodide.asm.js").write_text(marked(link_patched(text) if patch else text), encoding="utf-8")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    pinned = fetch_pyodide()
    with tempfile.TemporaryDirectory() as temporary:
        folders = {"Emscripten's": copy(pinned, Path(temporary) / "pinned", False),
                   "the build's": copy(pinned, Path(temporary) / "patched", True)}
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in folders}
        load = os.getloadavg()[0]
        for run in range(args.runs):
            order = list(folders) if run % 2 == 0 else list(folders)[::-1]
            for name in order:
                out = subprocess.run(["node", "-e", RUN, str(folders[name])], capture_output=True, text=True, check=True)
                link, whole = (float(part) for part in out.stdout.split())
                times[name].append((link, whole))
    print(f"{args.runs} runs each, in turn; load {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    for name, runs in times.items():
        links = sorted(link for link, _ in runs)
        print(f"{name:13s} linking: median {statistics.median(links):6.1f} ms (fastest {links[0]:.1f}, slowest "
              f"{links[-1]:.1f}); loadPyodide: median {statistics.median(whole for _, whole in runs):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
