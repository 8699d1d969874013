"""The worker's CONFIG: where its files are, and which it loads first, in what order."""
from __future__ import annotations

from .paths import (
    APP_BUNDLE, APP_DIR, FIRST_BUNDLE, LIBRARIES_BUNDLE, PACKAGES_BUNDLE, PANEL_CDN_ROOT, PYODIDE_DIR, STDLIB_BUNDLE,
)
from .snapshot import snapshot_functions
from .util import pins

#: Pyodide's own files loaded at start-up, each shipped (pyodide.js, loaded by importScripts, is not),
#: in the order the worker asks for them over a slow link (the wasm is compiled while the stdlib comes).
STARTUP_FILES = ("pyodide-lock.json", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
#: Those the worker asks for first, with gzip only: the pace they come at decides the codec of the
#: rest (shipped.js). Pyodide wants them first anyway; brotli would ship them 0.05 MB smaller.
PACE_FILES = ("pyodide-lock.json", "pyodide.asm.js")


def worker_config(bundled_versions: dict[str, str], preload: list[str], shipped: dict[str, dict],
                  pyodide_js: str) -> dict:
    """CONFIG in the worker (app.js): where Pyodide and the app are, every shipped file's entry,
    the bundles in the order they are written, and what it loads first (`first_files`)."""
    return {
        "pyodide_dir": PYODIDE_DIR, "panel_cdn_root": PANEL_CDN_ROOT, "app_dir": APP_DIR,
        "pyodide_js": pyodide_js,
        "shipped": shipped,
        "first_bundles": [PYODIDE_DIR + FIRST_BUNDLE, APP_BUNDLE],
        "app_bundle": APP_BUNDLE,  # the one a start from the snapshot writes before the page renders
        "bundles": [PYODIDE_DIR + STDLIB_BUNDLE, PYODIDE_DIR + PACKAGES_BUNDLE],
        "libraries_bundle": PYODIDE_DIR + LIBRARIES_BUNDLE,
        "first_files": first_files(shipped),
        # so that a later pyodide.loadPackage (say of pandas) does not install these again
        "bundled_packages": bundled_versions,
        "preload_libraries": preload,
        "import_first": pins()["browser"]["import_first"],
        "snapshot_functions": snapshot_functions(),
    }


def first_files(shipped: dict[str, dict]) -> dict:
    """What the file worker loads from the page's start ({load: [[entry, ...], ...], hold: [...]},
    shipped_worker.js), in the order it is needed: Pyodide's own small files (PACE_FILES), whose
    pace picks the codec of the big ones (shipped.js, codecFor); its wasm and the stdlib Python's
    start needs (the wasm first: over a slow link, where the files come one at a time, it is
    compiled while the stdlib comes); the first screen's bundles (wanted once Python has started);
    and held, numpy's libraries (files.js, `releaseLibraries`)."""
    pyodide = [shipped[PYODIDE_DIR + name] for name in STARTUP_FILES]
    return {"load": [[entry for entry in pyodide if "smaller" not in entry],
                     [entry for entry in pyodide if "smaller" in entry],
                     [shipped[PYODIDE_DIR + FIRST_BUNDLE], shipped[APP_BUNDLE]]],
            "hold": [shipped[PYODIDE_DIR + LIBRARIES_BUNDLE]]}
