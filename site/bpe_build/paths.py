"""Where things are: the checkout, its caches, and the layout of dist/."""
from __future__ import annotations

from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
CACHE = ROOT / ".cache"
DIST = ROOT / "dist"
SITE = ROOT / "site"
BUILD_ASSETS = Path(__file__).resolve().parent  # this package: its code and its pins, worker and Node tool
PINS_FILE = BUILD_ASSETS / "pins.json"
CHROMIUM = Path("/usr/bin/chromium")
#: How it runs here: headless, offline, no GPU (the build's still page and the browser tests).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# Layout of dist/ (all paths relative to dist/).
PYODIDE_DIR = "pyodide/"          # Pyodide core, precompiled stdlib, the start-up bundle, other wheels + lock
BOKEH_DIR = "static/bokeh/"       # bokeh-3.7.3.min.js & co, named as on Bokeh's CDN
PANEL_CDN_ROOT = "static/panel/"  # mirror of https://cdn.holoviz.org/panel/ (what we use of it)
PACKAGES_BUNDLE = "site-packages.bundle"  # every package the app imports at start-up (see make_bundle)
FIRST_BUNDLE = "first-screen.bundle"     # of those, the ones the first screen imports (param, bpe), written first
LIBRARIES_BUNDLE = "libraries.bundle"     # of those, the shared libraries loaded before Python starts
STDLIB_BUNDLE = "stdlib.bundle"   # the stdlib outside python_stdlib.zip (trim.START_STDLIB), written before Panel is imported
APP_BUNDLE = "app.bundle"         # site/ sources (app.py, bpe_app/) for the worker
APP_ARCHIVE = "app.zip"           # the same as a zip (a build intermediate, in .cache/)
# Where files land inside Pyodide.
APP_DIR = "/home/pyodide/app"
SITE_PACKAGES = "/lib/python3.12/site-packages"  # Pyodide 0.27's (Python 3.12)
STDLIB_DIR = "/lib/python3.12"  # on sys.path after python_stdlib.zip (/lib/python312.zip)
BOKEH_CDN = "https://cdn.bokeh.org/bokeh/release/"
PANEL_CDN = "https://cdn.holoviz.org/panel/"
