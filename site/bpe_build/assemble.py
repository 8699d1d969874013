"""The build: every part assembled into dist/, atomically, and only when an input changed."""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

from .app_snapshot import add_app_snapshots
from .bundles import archive_members, cached_bundle, make_bundle, read_bundle
from .bytecode import precompile
from .convert import app_archive, app_sources, convert_app, copy_static, early_worker, patch_page, without_unused_scripts
from .fetch import fetch_npm, fetch_pyodide, fetch_pypi
from .installs import setup_build
from .lock import make_lock, start_up_packages
from .paths import (
    APP_ARCHIVE, APP_BUNDLE, APP_DIR, BUILD_ASSETS, CACHE, DIST, FIRST_BUNDLE, LIBRARIES_BUNDLE, PACKAGES_BUNDLE,
    PYODIDE_DIR, ROOT, SITE, SITE_PACKAGES, STDLIB_BUNDLE, STDLIB_DIR,
)
from .pyodide_link import link_patched
from .ship import page_loader, rename_hashed, ship_decoder, ship_page, ship_worker_files, shipped_js, worker_js
from .start_snapshot import add_start_snapshot
from .still import add_still
from .trim import stdlib_at_start, stdlib_left_out, stdlib_of_first_screen
from .util import log, pins, step, tree_digest
from .wheels import prepare_wheels, served_apart
from .worker_config import PACE_FILES, STARTUP_FILES, worker_config


def inputs_digest() -> str:
    return tree_digest([ROOT / "build.py", ROOT / "pyproject.toml", BUILD_ASSETS, ROOT / "bpe", *app_sources()])


@dataclasses.dataclass
class Parts:
    """Everything dist/ is assembled from, each made (or found in the cache) by its own step."""

    pyodide_pkg: Path  # the unpacked npm package
    wheels: dict[str, Path]  # normalized name -> precompiled wheel
    stdlib: Path  # the precompiled python_stdlib.zip
    app_zip: Path  # site/ sources, precompiled
    converted: Path  # Panel's converter output (app.html)


def build(force: bool = False) -> Path:
    """dist/, rebuilt only when an input changed (or when forced)."""
    stamp = DIST / ".build-stamp"
    digest = inputs_digest()
    if not force and stamp.exists() and stamp.read_text() == digest:
        log("dist/ is up to date")
        return DIST
    started = time.time()
    if not (SITE / "app.py").exists():
        raise SystemExit("site/app.py is missing")
    parts = make_parts()
    # Assemble beside dist/ (same file system, for the rename); a private name, since builds in the
    # same checkout may overlap.
    staging = Path(tempfile.mkdtemp(dir=CACHE, prefix="dist-staging-"))
    try:
        with step("assembling dist/ (bundles; brotli and gzip at their best levels, cached by content)"):
            assemble(staging, parts)
        _replace_dist(staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    stamp.write_text(digest)
    size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    count = sum(1 for p in DIST.rglob("*") if p.is_file())
    log(f"built dist/ in {time.time() - started:.1f} s: {count} files, {size / 1e6:.1f} MB")
    return DIST


def make_parts() -> Parts:
    """Fetch, slim and precompile every part (each step cached by its inputs)."""
    setup_build()
    pyodide_pkg = fetch_pyodide()
    fetch_pypi()
    wheels = prepare_wheels(pyodide_pkg)
    app_zip = CACHE / "app" / APP_ARCHIVE
    app_zip.parent.mkdir(parents=True, exist_ok=True)
    app_zip.write_bytes(app_archive())
    own_code = {"bpe"}
    compiled = precompile(pyodide_pkg, [
        *[(path, "wheel", SITE_PACKAGES + "/", key in own_code) for key, path in wheels.items()],
        (pyodide_pkg / "python_stdlib.zip", "stdlib", "/lib/python312.zip/", False),
        (app_zip, "wheel", APP_DIR + "/", True),
    ])
    return Parts(pyodide_pkg, dict(zip(wheels, compiled)), compiled[-2], compiled[-1], convert_app())


def _replace_dist(staging: Path) -> None:
    for attempt in range(3):
        shutil.rmtree(DIST, ignore_errors=True)
        try:
            staging.rename(DIST)
            return
        except OSError:
            if attempt == 2:
                raise


def assemble(out: Path, parts: Parts) -> None:
    """dist/ from its parts: Pyodide and the packages, the page, the worker."""
    load = pins()["browser"]["load"]
    unknown = [name for name in load if name not in parts.wheels]
    if unknown:
        raise SystemExit(f"pins.json browser.load names packages that are not vendored: {unknown}")
    # What the app needs at start-up goes into one bundle; the rest stays as wheels for loadPackage,
    # listed (with the bundled packages they depend on, such as numpy for pandas) in pyodide-lock.json.
    bundled = start_up_packages(parts.wheels, load)
    full_lock = make_lock(parts.wheels, parts.pyodide_pkg, load)
    first_stdlib = _copy_pyodide(out / PYODIDE_DIR, parts, _lock_beside(full_lock, parts.wheels, bundled))
    preload = _preload(parts.wheels, bundled)
    packages_bundle = cached_bundle([parts.wheels[name] for name in bundled], SITE_PACKAGES)
    _split_bundle(packages_bundle, preload, out / PYODIDE_DIR, first_stdlib)
    (out / APP_BUNDLE).write_bytes(make_bundle(archive_members(parts.app_zip, APP_DIR)))
    (out / "assets").mkdir()
    for path in served_apart():
        shutil.copy2(path, out / "assets" / path.name)
    # The page: Panel's prerendered HTML, pointed at local JS/CSS.
    versions = pins()["pure_wheels"]["panel"]["version"], pins()["pure_wheels"]["bokeh"]["version"]
    html = patch_page(without_unused_scripts((parts.converted / "app.html").read_text(), *versions))
    copy_static(out, html, *versions)
    html = disarm_cdn_defaults(out, html)
    # Shipped: compressed under content-hashed names (ship.py); only index.html keeps its name. The
    # page's scripts with brotli; the worker's files with gzip, and the big ones the first answer
    # waits for with brotli too, which the worker takes over a slow link (1.5 MB fewer). The small
    # ones it asks for first (PACE_FILES) show it the link's pace.
    html, page_scripts = ship_page(out, html, codec="brotli")
    both = (*(PYODIDE_DIR + name for name in STARTUP_FILES if name not in PACE_FILES), PYODIDE_DIR + FIRST_BUNDLE,
            APP_BUNDLE)
    shipped = ship_worker_files(out, [*(PYODIDE_DIR + name for name in PACE_FILES), *both,
                                      PYODIDE_DIR + LIBRARIES_BUNDLE, PYODIDE_DIR + STDLIB_BUNDLE,
                                      PYODIDE_DIR + PACKAGES_BUNDLE], both=both)
    decoder = ship_decoder(out, fetch_npm("brotli_dec_wasm"))
    config = worker_config(
        {name: full_lock["packages"][name]["version"] for name in bundled}, preload,
        shipped, rename_hashed(out, PYODIDE_DIR + "pyodide.js"))
    config["keep"] = [entry["kept"] for entry in [*shipped.values(), *page_scripts, *decoder.values()]]
    worker = worker_js().replace("__SHIPPED_JS__", json.dumps(shipped_js(decoder, worker=True)))

    def write_worker(config: dict) -> str:
        (out / "app.js").write_text(worker.replace("__CONFIG__", json.dumps(config, indent=2)))
        return rename_hashed(out, "app.js")

    worker_file = write_worker(config)
    html = html.replace(early_worker(), early_worker(worker_file, shipped_js(decoder, worker=True), config["first_files"])
                        + page_loader(page_scripts, decoder))
    (out / "index.html").write_text(html)
    add_still(out)
    worker_file = add_start_snapshot(out, worker_file, write_worker, config)
    add_app_snapshots(out, worker_file, write_worker, config)


def _lock_beside(full_lock: dict, wheels: dict[str, Path], bundled: list[str]) -> dict:
    """The lock for the wheels outside the bundle, with the bundled packages they depend on."""
    in_lock, todo = [], [name for name in wheels if name not in bundled]
    while todo:
        name = todo.pop(0)
        if name not in in_lock:
            in_lock.append(name)
            todo.extend(full_lock["packages"][name]["depends"])
    return {"info": full_lock["info"], "packages": {name: full_lock["packages"][name] for name in sorted(in_lock)}}


def _copy_pyodide(pyo: Path, parts: Parts, lock: dict) -> list[tuple[str, bytes]]:
    """Pyodide core, the precompiled stdlib, the wheels outside the bundle and their lock; the
    stdlib's files that only the first screen needs, for its bundle."""
    pyo.mkdir(parents=True)
    for name in ("pyodide.js", "pyodide.asm.wasm"):
        shutil.copy2(parts.pyodide_pkg / name, pyo / name)
    asm = (parts.pyodide_pkg / "pyodide.asm.js").read_text(encoding="utf-8")
    (pyo / "pyodide.asm.js").write_text(link_patched(asm), encoding="utf-8")
    first = _split_stdlib(parts.stdlib, pyo / "python_stdlib.zip", pyo / STDLIB_BUNDLE)
    for name in lock["packages"]:
        shutil.copy2(parts.wheels[name], pyo / parts.wheels[name].name)
    (pyo / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    return first


def _split_stdlib(source: Path, target: Path, later: Path) -> list[tuple[str, bytes]]:
    """The stdlib without what the page does without (trim.py), in three parts: what Python's
    start needs (trim.START_STDLIB) as python_stdlib.zip, which Pyodide loads before Python starts;
    what the first screen adds (trim.FIRST_SCREEN_STDLIB), returned as files for STDLIB_DIR, for
    the first screen's bundle; and the rest as a bundle of files for STDLIB_DIR, written before
    Panel is imported. The zip's members are stored, not deflated: gzip over the whole file ships
    it smaller (3.6 MB against 4.0), and Python imports from it without inflating each module."""
    first, rest = [], []
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            if stdlib_left_out(info.filename):
                continue
            data = zin.read(info)
            if not stdlib_at_start(info.filename):
                if not info.is_dir():
                    part = first if stdlib_of_first_screen(info.filename) else rest
                    part.append((f"{STDLIB_DIR}/{info.filename}", data))
                continue
            info.compress_type = zipfile.ZIP_STORED
            zout.writestr(info, data)
    later.write_bytes(make_bundle(rest))
    return first


#: The packages the first screen imports (bpe_app/first_screen.py): their own bundle, which the
#: worker writes as soon as Python has started, before the rest of them has arrived.
FIRST_SCREEN_PACKAGES = ("param", "bpe")


def _first_screen_member(path: str) -> bool:
    top = path.removeprefix(SITE_PACKAGES + "/").split("/")[0]
    return top in FIRST_SCREEN_PACKAGES or top.split("-")[0] in FIRST_SCREEN_PACKAGES and top.endswith(".dist-info")


def _split_bundle(bundle: Path, libraries: list[str], folder: Path, first_stdlib: list[tuple[str, bytes]]) -> None:
    """The start-up packages as three bundles: the shared libraries the worker loads before Python
    starts, which it waits for; the first screen's packages (with `first_stdlib`, the stdlib's
    files only it needs), which arrive next; and everything else (Panel, Bokeh, numpy's Python),
    which arrives while the first screen answers."""
    members = read_bundle(bundle.read_bytes())
    missing = set(libraries) - {name for name, _ in members}
    if missing:
        raise SystemExit(f"the start-up bundle lacks the libraries to preload: {sorted(missing)}")
    (folder / LIBRARIES_BUNDLE).write_bytes(make_bundle([m for m in members if m[0] in libraries]))
    rest = [m for m in members if m[0] not in libraries]
    first = [m for m in rest if _first_screen_member(m[0])]
    if not set(FIRST_SCREEN_PACKAGES) <= {m[0].removeprefix(SITE_PACKAGES + "/").split("/")[0] for m in first}:
        raise SystemExit(f"the start-up bundle lacks a package of the first screen: {FIRST_SCREEN_PACKAGES}")
    (folder / FIRST_BUNDLE).write_bytes(make_bundle(first + first_stdlib))
    (folder / PACKAGES_BUNDLE).write_bytes(make_bundle([m for m in rest if not _first_screen_member(m[0])]))


def _preload(wheels: dict[str, Path], bundled: list[str]) -> list[str]:
    """Where in Pyodide each shared library that pins.json says to preload lands."""
    bundled_files = set()
    for package in bundled:
        with zipfile.ZipFile(wheels[package]) as archive:
            bundled_files.update(archive.namelist())
    preload = []
    for library in pins()["browser"]["preload_libraries"]:
        matches = [f for f in bundled_files if f.startswith(library + ".") and f.endswith(".so")]
        if len(matches) != 1:
            raise SystemExit(f"pins.json browser.preload_libraries: {library} matches {matches}")
        preload.append(f"{SITE_PACKAGES}/{matches[0]}")
    return preload


#: CDN addresses that vendored JavaScript keeps as defaults for paths this site never takes
#: (Pyodide's indexURL, which the worker always passes; Bokeh's MathJax and icon font).
CDN_ADDRESS = re.compile(r"https://(cdn\.jsdelivr\.net|cdn\.bokeh\.org|unpkg\.com|cdn\.holoviz\.org)/")


def disarm_cdn_defaults(out: Path, html: str) -> str:
    """Point those defaults at a local path that does not exist, so that if one is ever taken the
    request fails on 127.0.0.1 instead of leaving the machine, and dist/ names no outside host.
    Done in every .js under out/ and in the page, which is returned."""
    for path in out.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        if CDN_ADDRESS.search(text):
            path.write_text(CDN_ADDRESS.sub(r"./no-cdn/\1/", text), encoding="utf-8")
    return CDN_ADDRESS.sub(r"./no-cdn/\1/", html)
