"""Precompiling Python to 3.12 bytecode with Pyodide itself, under Node."""
from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from .paths import BUILD_ASSETS, CACHE, ROOT
from .util import log, run, sha256_bytes, sha256_file


#: compile()'s `optimize` by kind. The stdlib without its docstrings and asserts, as `python -OO`
#: runs it (CPython's own tests run so too): python_stdlib.zip, its start-up part, is 16% smaller
#: with brotli (1,012 -> 852 kB), bytes the first answer waits for over a slow link.
#: Third-party code keeps them: libraries read their own docstrings (param, Bokeh's documentation
#: of properties), and `bpe` keeps its source.
OPTIMIZE = {"stdlib": 2}


def precompile(pyodide_pkg: Path, archives: list[tuple[Path, str, str, bool]]) -> list[Path]:
    """Python 3.12 bytecode, made by Pyodide itself under Node, for (archive, kind, prefix, keep_source).

    kind is "wheel" or "stdlib"; prefix is where the archive's files land in the browser (code objects
    carry those file names). Third-party code and the stdlib become sourceless .pyc files (what
    Pyodide's own "pyc" distribution does), so the browser neither compiles nor ships the sources;
    with keep_source (our own code) the sources stay and unchecked pycs go in __pycache__/.
    The stdlib is compiled as `python -OO` would (OPTIMIZE).
    Cached by content: only archives that changed are recompiled. Returns the compiled paths.
    """
    out_root = CACHE / "pyc"
    jobs, result = [], []
    for path, kind, prefix, keep_source in archives:
        optimize = OPTIMIZE.get(kind, 0)
        key = sha256_bytes(f"{sha256_file(path)} {kind} {prefix} {keep_source} {optimize}".encode())[:20]
        target = out_root / key / path.name
        result.append(target)
        if not target.exists():
            jobs.append({"src": str(path), "dst": str(target), "kind": kind, "prefix": prefix,
                         "keep_source": keep_source, "optimize": optimize})
    if jobs:
        for job in jobs:
            Path(job["dst"]).parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=out_root, prefix="jobs-", suffix=".json", delete=False) as handle:
            json.dump(jobs, handle)
        started = time.time()
        log(f"precompiling {len(jobs)} archives to Python 3.12 bytecode, with Pyodide under Node ...")
        try:
            run("node", BUILD_ASSETS / "pyodide_tool.js", "precompile", pyodide_pkg, handle.name, cwd=ROOT)
        finally:
            os.unlink(handle.name)
        log(f"precompiled {len(jobs)} archives in {time.time() - started:.1f} s")
    return result
