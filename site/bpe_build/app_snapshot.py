"""The app snapshots: Python's memory once Panel is imported and the app built, one per theme,
made by the build, shipped.

After its first answer, a first visit spent about 3 s of the worker's thread on importing Panel
and Bokeh and building the app, the same for every visitor. So the build opens the built page in
Debian's Chromium (light, then dark) with `window.bpeMakeAppSnapshot` set; the worker builds the app
as a first visit does, from the start snapshot, and hands over the snapshot it would keep for the
next visit (worker/start_app.js). A first visit then starts Python again from it once its first
screen has answered (worker/app_snapshot.js), unless the link is slow.

It restores as the snapshot a browser keeps does: numpy's libraries are loaded before Python starts,
and must take the function table up to the length it records (`table`). As the start snapshot,
its pages of zeros are not shipped (start_snapshot.py, `pack`).

    >>> app_path("dark")
    'pyodide/app-snapshot-dark.bin'
    >>> APP_RESTORED in (BUILD_ASSETS / "worker" / "app_snapshot.js").read_text()
    True
"""
from __future__ import annotations

from pathlib import Path

from .paths import BUILD_ASSETS, PYODIDE_DIR
from .start_snapshot import capture, pack, rewrite_worker
from .util import log

THEMES = ("light", "dark")
#: What the worker logs once the app started from it (the tests look for it).
APP_RESTORED = "[bpe] the app started from the build's snapshot of it"


def app_path(theme: str) -> str:
    """Where the app snapshot of a theme is shipped, before compression (dist/-relative)."""
    return f"{PYODIDE_DIR}app-snapshot-{theme}.bin"


def add_app_snapshots(dist: Path, worker: str, write_worker, config: dict) -> str:
    """Make and ship the app snapshot of each theme of the page in `dist` (whose worker is `worker`),
    name them in the worker's `config` (`app_snapshots`), and write the worker again with them
    (`write_worker(config)` gives its new name, which index.html then names); the new name."""
    from .ship import ship

    snapshots = {}
    for theme in THEMES:
        data, made = capture(dist, worker, "madeAppSnapshot", dark=theme == "dark")
        if not (isinstance(made.get("table"), int) and made["table"] > 0):
            raise SystemExit(f"the {theme} app snapshot's worker gave no function table length: {made!r}")
        packed, runs = pack(data)
        path = app_path(theme)
        (dist / path).write_bytes(packed)
        entry = ship(dist, path, "application/octet-stream")
        config["shipped"][path] = entry  # not in config["keep"]: the worker keeps the heap it makes of it
        snapshots[theme] = {"path": path, "table": made["table"], "size": len(data), "runs": runs}
        log(f"the {theme} app snapshot: {len(data) / 1e6:.1f} MB, {len(packed) / 1e6:.1f} MB without its "
            f"pages of zeros, {entry['packed'] / 1e6:.1f} MB with gzip")
    config["app_snapshots"] = snapshots
    return rewrite_worker(dist, worker, write_worker, config)
