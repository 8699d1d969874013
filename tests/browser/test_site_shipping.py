"""How the site is shipped: from a subfolder, compressed, kept by the browser, never two builds mixed.

One browser profile visits a copy of dist/ served from /some/path/ (as project pages on common
static hosts are): cold; again (every shipped file from the Cache API, and Python and the app from
the memory snapshot the first visit kept, with a share link applied on top); with that snapshot
damaged (Python starts afresh and keeps a new one); and after a new build of the app replaced the
old one (only the changed file is fetched, the page is the new build's, never the old snapshot's,
and the old build's files are forgotten). The server records every path asked of it, the nested
worker's too.
"""
from __future__ import annotations

import contextlib
import functools
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote

import brotli
import pytest
from bpe_build.app_snapshot import APP_RESTORED, THEMES, app_path
from bpe_build.bundles import make_bundle, read_bundle
from bpe_build.paths import DIST
from bpe_build.serve import Handler, Server
from bpe_build.ship import rename_hashed, ship
from bpe_build.start_snapshot import PATH as START_SNAPSHOT, STARTED_FROM_BUILD
from bpe_build.trim import FROZEN, never_loaded, stdlib_left_out
from playwright.sync_api import expect

from conftest import OUTPUT, SECOND_VISIT, open_site

# This module makes its own first and later visits.
pytestmark = pytest.mark.skipif(SECOND_VISIT, reason="makes its own cold and second visits")

SUBFOLDER = "some/path"
CONFIG_START = "const CONFIG = "


class RecordingHandler(Handler):
    asked: list[str] = []
    slow: dict[str, float] = {}  # a file name's start -> seconds its answer waits (a slow link, for one file)
    rate: float | None = None  # bytes per second each answer's body comes at (a narrow link), or at once
    sent: dict[str, tuple[float, float]] = {}  # over a narrow link: file name -> when asked for, when all sent
    log: list[tuple[str, str]] = []  # ("asked" | "answered", file name), in the order they happened

    def do_GET(self):
        self.asked.append(unquote(self.path))
        self.asked_at = time.monotonic()
        name = self.path.rsplit("/", 1)[-1].split("?")[0]
        self.log.append(("asked", name))
        time.sleep(next((wait for start, wait in self.slow.items() if name.startswith(start)), 0))
        super().do_GET()
        self.log.append(("answered", name))

    def copyfile(self, source, outputfile):
        rate = self.rate  # as when the answer started, though a test may end meanwhile
        if not rate:
            return super().copyfile(source, outputfile)
        while chunk := source.read(16384):
            time.sleep(len(chunk) / rate)
            outputfile.write(chunk)
        self.sent[self.path.rsplit("/", 1)[-1]] = (self.asked_at, time.monotonic())


@pytest.fixture(scope="module")
def served(site_url, tmp_path_factory):  # site_url: dist/ is built
    root = tmp_path_factory.mktemp("host")
    folder = root / SUBFOLDER
    shutil.copytree(DIST, folder)
    server = Server(("127.0.0.1", 0), functools.partial(RecordingHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield folder, f"http://127.0.0.1:{server.server_address[1]}/{SUBFOLDER}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def profile(browser):
    context = browser.new_context()  # one profile: what it keeps, the next visit finds
    yield context
    context.close()


def visit(profile, url: str):
    """Open the site in a new page of the profile; (page, console lines, paths asked, errors)."""
    RecordingHandler.asked.clear()
    page = profile.new_page()
    console, errors = [], []
    page.on("console", lambda message: console.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"))
    open_site(page, url)
    # The worker says what it read from where once it has written its later files, which on a
    # second visit it does while the page is already live.
    wait_for_console(page, console, SHIPPED_SUMMARY)
    return page, console, list(RecordingHandler.asked), errors


SHIPPED_SUMMARY = "[bpe] shipped files:"


def shipped_summary(console: list[str]) -> str:
    return next(line for line in console if line.startswith(SHIPPED_SUMMARY))


STARTED_FROM_SNAPSHOT = "[bpe] Python and the app started from the snapshot this browser kept"
MADE_AHEAD = "[bpe] the first screen was made ahead in the snapshot"  # worker/start_app.js
ONE_AT_A_TIME = "[bpe] over this slow link the files come one at a time"
LIBRARIES_HELD = "[bpe] over this slow link numpy's libraries wait until they are wanted"
KEPT_SNAPSHOT = "[bpe] kept a snapshot of Python for the next visit"
SNAPSHOT_UNUSABLE = "[bpe] the kept snapshot could not be used; starting Python afresh"
START_GIVEN_UP = "[bpe] the build's snapshot could not be used; Python starts afresh"
START_SLOW = "[bpe] Python starts afresh, without the build's snapshot: the link is slow"
LIBRARIES_IN_PLACE = "[bpe] numpy's libraries were loaded where the build's snapshot has them"
LIBRARIES_LATE = "[bpe] numpy's libraries were loaded after Python started"
APP_SNAPSHOTS = {app_path(theme) for theme in THEMES}
APP_LIGHT = app_path("light")


def wait_for_console(page, console: list[str], start: str, timeout: float = 60) -> None:
    """Until a console line starts with `start` (the snapshot is kept after the page is live). Waiting
    with the page, not time.sleep, lets Playwright deliver the page's events meanwhile."""
    deadline = time.monotonic() + timeout
    while not any(line.startswith(start) for line in console):
        assert time.monotonic() < deadline, f"no console line {start!r} in {console[-10:]}"
        page.wait_for_timeout(200)


def snapshot_file(worker_name: str) -> str:
    """Where the worker keeps its snapshot in the Cache API (the light theme's): no file on the server."""
    return f"python-snapshot-of-{worker_name}-light"


def worker_config(folder: Path) -> tuple[Path, str, dict]:
    worker = next(folder.glob("app.*.js"))
    text = worker.read_text()
    start = text.index(CONFIG_START) + len(CONFIG_START)
    config, end = json.JSONDecoder().raw_decode(text, start)
    return worker, text[:start] + "__CONFIG__" + text[end:], config


SHIPPED_SUFFIXES = (".gzip", ".brotli")
#: The worker's files shipped with gzip and with brotli, for the link's pace to choose between.
BOTH_WAYS = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/first-screen.bundle", "app.bundle")
CODEC_CHOSEN = re.compile(r"\[bpe\] the link brought the first files at .*: the big ones come with (gzip|brotli)$")


def codecs_chosen(console: list[str]) -> set[str]:
    """The codecs the file worker said it took for the big files (one line per codec it took)."""
    return {match.group(1) for line in console if (match := CODEC_CHOSEN.match(line))}


def page_scripts(folder: Path) -> list[dict]:
    """The entries of the page's shipped scripts, as index.html gives them to its loader."""
    html = (folder / "index.html").read_text()
    start = html.index(SCRIPTS_START) + len(SCRIPTS_START)
    return json.JSONDecoder().raw_decode(html, start)[0]


SCRIPTS_START = "const scripts = "


def shipped_files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.name.endswith(SHIPPED_SUFFIXES)}


def inflated(packed: bytes, name: str) -> bytes:
    return brotli.decompress(packed) if name.endswith(".brotli") else gzip.decompress(packed)


def test_the_site_works_from_a_subfolder_and_ships_compressed_files(served, profile):
    folder, url = served
    page, console, asked, errors = visit(profile, url)
    page.locator(".encode-input input").first.fill("hug pug")
    expect(page.locator(".bpe-encoded").first).to_contain_text("hug", timeout=30_000)
    assert errors == []
    # Python starts from the build's snapshot unless a busy machine brought even the first files
    # below 100 Mbit/s (a slow link, see below): it is then not asked for.
    # So is the build's snapshot of the app (the light theme's, this page's).
    started = STARTED_FROM_BUILD in console
    assert started == (ONE_AT_A_TIME not in console), [line for line in console if line.startswith("[bpe]")]
    assert started == any(line.startswith(APP_RESTORED) for line in console)
    assert shipped_summary(console) == f"[bpe] shipped files: 0 from the cache, {9 + 2 * started} from the network"
    assert all(path.startswith(f"/{SUBFOLDER}/") for path in asked), asked
    # What a first visit fetches is the shipped files (each a gzip or brotli stream) and small plain
    # ones: every file once, the big ones the first answer waits for in the codec the link's pace
    # chose (shipped.js, codecFor; see the slow link's test below), the page's scripts with brotli.
    fetched = {path.removeprefix(f"/{SUBFOLDER}/") for path in asked}
    _, _, config = worker_config(folder)
    scripts = page_scripts(folder)
    assert scripts and all(entry["codec"] == "brotli" for entry in scripts)
    chosen = codecs_chosen(console)
    one_each = set()
    for path, entry in config["shipped"].items():
        if (path == START_SNAPSHOT and not started) or (path in APP_SNAPSHOTS and not (started and path == APP_LIGHT)):
            assert entry["file"] not in fetched
            continue
        variants = {entry["file"]: entry["codec"]}
        if path in BOTH_WAYS:
            assert entry["codec"] == "gzip" and entry["smaller"]["codec"] == "brotli", path
            assert entry["smaller"]["packed"] < entry["packed"], path
            variants[entry["smaller"]["file"]] = "brotli"
        took = variants.keys() & fetched
        assert len(took) == 1, (path, fetched)
        one_each |= took
        if path in BOTH_WAYS:
            assert variants[took.pop()] in chosen, (path, chosen)
    assert set(BOTH_WAYS) == {path for path, entry in config["shipped"].items() if "smaller" in entry}
    decoder = {path for path in shipped_files(folder) if path.startswith("assets/brotli-dec-wasm/")}
    assert len(decoder) == 2
    assert fetched & shipped_files(folder) == one_each | {entry["file"] for entry in scripts} | decoder
    # Not the scripts of Panel's page that the app never uses (convert.UNUSED_SCRIPTS).
    assert not [path for path in fetched if "bokeh-gl" in path or "es-module-shims" in path]
    for name in shipped_files(folder):
        packed = (folder / name).read_bytes()
        assert name.endswith(".brotli") or packed[:2] == b"\x1f\x8b", name
    wasm = config["shipped"]["pyodide/pyodide.asm.wasm"]
    assert inflated((folder / wasm["file"]).read_bytes(), wasm["file"])[:4] == b"\0asm"
    # Nothing the build left out (trim.py) was imported by the live page.
    app_worker = next(worker for worker in page.workers if "/app." in worker.url)
    modules = app_worker.evaluate("() => self.pyodide.runPython('import sys; \" \".join(sys.modules)')").split()
    assert "bpe" in modules and "panel" in modules
    assert "panel.chat" not in modules  # patches.py: imported on first use, which this site never makes
    # The stdlib was compiled as python -OO compiles it (bytecode.OPTIMIZE: fewer bytes before the
    # first answer); third-party code and bpe keep their docstrings, which they may read.
    docs = app_worker.evaluate("""() => self.pyodide.runPython(`
import asyncio, json, param, bpe
[module.__doc__ is not None for module in (asyncio, json, param, bpe)]`).toJs()""")
    assert docs == [False, False, True, True], docs
    # The stdlib's copies of the modules Python runs frozen are left out: each is frozen here.
    frozen = app_worker.evaluate("""(names) => self.pyodide.runPython(`
import _imp, sys
[name for name in ${JSON.stringify(names)} if not _imp.is_frozen(name)
 or getattr(getattr(sys.modules.get(name), "__spec__", None), "origin", "frozen") != "frozen"]`).toJs()""",
                                 sorted(FROZEN))
    assert frozen == []
    imported_stdlib = [name.replace(".", "/") + ".pyc" for name in modules if name not in FROZEN]
    assert [name for name in imported_stdlib if stdlib_left_out(name)] == []
    assert not any(never_loaded(name.replace(".", "/") + "/") for name in modules)
    assert not any(line.startswith(STARTED_FROM_SNAPSHOT) for line in console)
    # The build made its snapshots at another address: Python's environment is this visit's, and
    # the start snapshot is not kept (a second visit starts from the app's).
    assert app_worker.evaluate("() => self.pyodide.runPython('import os; os.environ[\"PANEL_CDN_ROOT\"]')") \
        == url + "static/panel/"
    assert page.evaluate("""async ([base, kept]) => {
      const cache = await caches.open(`bpe-site ${new URL(base).pathname}`);
      return (await cache.match(base + kept)) === undefined;
    }""", [url, config["shipped"][START_SNAPSHOT]["kept"]])
    # The first files' pace decides both the codec and whether the files come one at a time (on
    # localhost, gzip and together, unless a busy machine brought even those below 100 Mbit/s).
    assert (ONE_AT_A_TIME in console) == (codecs_chosen(console) == {"brotli"}), codecs_chosen(console)
    assert (LIBRARIES_HELD in console) == (ONE_AT_A_TIME in console)
    assert any(line.startswith("[bpe-timing] first-screen ") for line in console)  # it answered before Panel
    # Panel's bundles are asked for once the first screen has answered (files.js, loadLater), not
    # while Python starts: they arrive after its answer.
    marks = [line.split()[1] for line in console if line.startswith("[bpe-timing] ")]
    for bundle in ("loaded:stdlib.bundle", "loaded:site-packages.bundle"):
        assert marks.index("first-screen") < marks.index(bundle), marks
    wait_for_console(page, console, KEPT_SNAPSHOT)
    # From the build's snapshots, numpy's libraries were loaded after the first answer, before the
    # app's Python started from its snapshot, not into the first screen's Python (the second visit
    # below restores that snapshot, which this visit kept, and calls numpy).
    assert LIBRARIES_IN_PLACE not in console
    if started:
        assert marks.index("first-screen") < marks.index("libraries") < marks.index("app-restored"), marks
    assert app_worker.evaluate(
        "() => self.pyodide.runPython('import numpy.random; int(numpy.random.default_rng(7).integers(100))')") >= 0
    page.close()


@contextlib.contextmanager
def slow_first_visit(browser, url: str, slow: dict[str, float]):
    """A cold visit, apart from the module's profile, with the files named in `slow` late (see
    RecordingHandler), once the first screen has answered an edit: (page, console lines, errors)."""
    context = browser.new_context()
    RecordingHandler.slow.update(slow)
    try:
        page = context.new_page()
        console, errors = [], []
        page.on("console", lambda message: console.append(message.text))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_function("() => document.body.classList.contains('bpe-first')", timeout=120_000)
        page.locator(".encode-input input").first.fill("hug pug")
        expect(page.locator(".bpe-encoded").first).to_contain_text("hug", timeout=30_000)
        yield page, console, errors
    finally:
        RecordingHandler.slow.clear()
        context.close()


def test_the_page_asks_for_pythons_files_before_the_apps_worker_has_come(served, browser):
    """The page starts the file worker itself and tells it the first files (convert.py,
    EARLY_WORKER): with the app's worker 2 s late, Pyodide's own files and the first screen's
    bundles are asked for, and answered, while it is on its way; then the page answers as ever."""
    folder, url = served
    worker, _, config = worker_config(folder)
    first = [entry for group in config["first_files"]["load"] for entry in group]
    assert {entry["file"].split("/")[-1].split(".")[0] for entry in first} >= {"pyodide", "python_stdlib", "first-screen"}
    RecordingHandler.log.clear()
    with slow_first_visit(browser, url, {worker.name: 2}) as (page, console, errors):
        log = list(RecordingHandler.log)
        came = log.index(("answered", worker.name))
        for entry in first:  # each in the codec the link's pace picked
            names = {variant["file"].split("/")[-1] for variant in (entry, entry.get("smaller")) if variant}
            answered = [at for at, (what, name) in enumerate(log) if what == "answered" and name in names]
            assert answered and answered[0] < came, (entry["file"], log)
        assert errors == [], errors


def test_the_apps_worker_started_alone_starts_its_file_worker_itself(served, browser):
    """Where no page started the file worker (a harness starts the app's worker by itself, as
    benchmarks/site_interaction does), the app's worker starts it, tells it the same first files,
    and its first screen answers."""
    folder, url = served
    worker, _, _ = worker_config(folder)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + "favicon-none")  # any page of the site's origin, without the site's scripts
        view = page.evaluate("""(name) => new Promise((resolve, reject) => {
          const worker = new Worker(name);
          worker.onerror = (event) => reject(new Error(event.message));
          worker.onmessage = ({ data }) => { if (data.type === "first-view" && data.ready) resolve(data.view); };
          worker.postMessage({ type: "first", address: "?text=walkable" });
          setTimeout(() => reject(new Error("no first answer in 60 s")), 60000);
        })""", "./" + worker.name)
        assert view["widgets"]["encode-input"] == "walkable"  # the link's text, answered by Python
        assert "bpe-encoded" in view["panes"]["bpe-encoding-pane"]
    finally:
        context.close()


#: Every stylesheet link the page's documents and shadow roots hold.
STYLESHEETS = """() => {
  const found = [];
  const walk = (root) => {
    for (const link of root.querySelectorAll('link[rel="stylesheet"]')) found.push(link.href);
    for (const element of root.querySelectorAll("*")) if (element.shadowRoot) walk(element.shadowRoot);
  };
  walk(document);
  return found;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_first_visit_starts_the_app_from_the_builds_snapshot_of_it(served, browser, scheme):
    """Once the first screen has answered, Python starts again from the build's snapshot of the
    built app (its theme's), where Panel is imported: nothing is imported here. The events the
    first screen answered are done again on the restored app's own first screen, which the app's
    state takes over, so the page goes on as the visitor left it. Panel's files are asked for at
    this page's address, not at the stand-in the snapshot was made with, and the next visit starts
    from that same snapshot."""
    folder, url = served
    _, _, config = worker_config(folder)
    context = browser.new_context(color_scheme=scheme)
    context.add_init_script("window.bpeHoldApp = true")
    try:
        page = context.new_page()
        console, errors = [], []
        page.on("console", lambda message: console.append(message.text))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
        page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"))
        page.goto(url)
        page.wait_for_function("() => document.body.classList.contains('bpe-first')", timeout=120_000)
        box = page.locator(".encode-input input").first
        box.fill("walkable")
        expect(page.locator(".bpe-encoded").first).to_contain_text("walk", timeout=30_000)
        page.locator(".next-round button").first.click()
        expect(page.locator(".bpe-caption").first).to_contain_text("Round 1 of")
        page.evaluate("() => window.bpeReleaseApp()")
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
        restored = [line for line in console if line.startswith(APP_RESTORED)]
        if not restored:  # a busy machine brought even the first files below 100 Mbit/s
            assert ONE_AT_A_TIME in console, [line for line in console if line.startswith("[bpe]")]
            pytest.skip("the link was taken for a slow one: the build's snapshots were not asked for")
        done = re.fullmatch(re.escape(APP_RESTORED) + r" \(events done again: (\d+)\)", restored[0])
        assert done and int(done.group(1)) >= 1, restored  # (the snapshot's app is at round 0, with no text)
        assert MADE_AHEAD in console  # the bare address: its first screen was in the snapshot
        marks = [line.split()[1] for line in console if line.startswith("[bpe-timing] ")]
        assert not [mark for mark in marks if mark.startswith("imported:") or mark == "app-built"], marks
        expect(page.locator(".bpe-caption").first).to_contain_text("Round 1 of")
        expect(box).to_have_value("walkable")
        box.fill("strawberry")  # the full app answers
        expect(page.locator(".bpe-encoded").first).to_contain_text("straw", timeout=30_000)
        sheets = page.evaluate(STYLESHEETS)
        assert any("/static/panel/" in href for href in sheets), sheets
        assert all(href.startswith(url) for href in sheets), [href for href in sheets if not href.startswith(url)]
        size = config["app_snapshots"][scheme]["size"]
        wait_for_console(page, console, f"{KEPT_SNAPSHOT} ({size} bytes)")
        page.close()
        page = context.new_page()
        again = []
        page.on("console", lambda message: again.append(message.text))
        page.goto(url)
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
        assert STARTED_FROM_SNAPSHOT in again
        assert MADE_AHEAD in again  # the kept snapshot is the build's, with the first screen made ahead
        assert all(href.startswith(url) for href in page.evaluate(STYLESHEETS))
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize("app_from_build", [True, False])
def test_late_numpy_libraries_hold_back_neither_the_first_answer_nor_the_visits_snapshot(
        served, served_without_app, browser, app_from_build):
    """numpy's libraries 4 s late: the build's snapshot holds their memory, so Python starts from it
    without them and the first screen answers. Then the app starts from the build's snapshot of it
    once they come, loaded before its Python starts (as on a second visit); or, without that
    snapshot, they are loaded at the start snapshot's places and Panel is imported. Either way numpy
    works, and the visit keeps a snapshot for the next one. (Where a busy machine brought even the
    first files below 100 Mbit/s, the build's snapshots are not asked for: then Python starts afresh
    without them, loads them before Panel and keeps no snapshot, as below.)"""
    folder, url = served if app_from_build else served_without_app
    with slow_first_visit(browser, url, {"libraries.bundle.": 4}) as (page, console, errors):
        marks = [line.split()[1] for line in console if line.startswith("[bpe-timing] ")]
        assert "first-screen" in marks and "libraries" not in marks, marks  # answered before they came
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
        app_worker = next(worker for worker in page.workers if "/app." in worker.url)
        assert app_worker.evaluate(
            "() => self.pyodide.runPython('import numpy.random; int(numpy.random.default_rng(7).integers(100))')") >= 0
        page.locator(".next-round button").first.click()
        expect(page.locator(".bpe-caption").first).to_contain_text("Round 1 of")
        if STARTED_FROM_BUILD in console:
            wait_for_console(page, console, KEPT_SNAPSHOT)
            restored = any(line.startswith(APP_RESTORED) for line in console)
            said = [line for line in console if not line.startswith("[bpe-timing]")]
            assert restored == app_from_build and (LIBRARIES_IN_PLACE in console) != app_from_build, said
        else:
            assert START_SLOW in console, [line for line in console if line.startswith("[bpe]")]
            wait_for_console(page, console, LIBRARIES_LATE)
            assert not any(line.startswith(KEPT_SNAPSHOT) for line in console)
        assert errors == [], errors


def served_without(served, name: str, snapshots: tuple[str, ...]) -> tuple[Path, str]:
    """The same build beside it, in a folder `name` of its own, without the build's `snapshots`
    ("start_snapshot", "app_snapshots")."""
    folder, url = served
    other = folder.parent / name
    shutil.copytree(folder, other)
    worker, template, config = worker_config(other)
    if "start_snapshot" in snapshots:
        config["shipped"].pop(config.pop("start_snapshot")["path"])
    if "app_snapshots" in snapshots:
        for snapshot in config.pop("app_snapshots").values():
            config["shipped"].pop(snapshot["path"])
    worker.unlink()
    (other / "app.js").write_text(template.replace("__CONFIG__", json.dumps(config)))
    named = rename_hashed(other, "app.js")
    index = other / "index.html"
    index.write_text(index.read_text().replace(worker.name, named))
    return other, url.removesuffix(f"{folder.name}/") + f"{other.name}/"


@pytest.fixture(scope="module")
def served_without_start(served):
    """With none of the build's snapshots: Python starts afresh, and imports Panel and builds the app itself."""
    return served_without(served, "afresh", ("start_snapshot", "app_snapshots"))


@pytest.fixture(scope="module")
def served_without_app(served):
    """With the start snapshot alone: Python imports Panel and builds the app itself."""
    return served_without(served, "no-app", ("app_snapshots",))


def test_python_starting_afresh_starts_without_numpys_libraries_when_they_are_late(served_without_start, browser):
    """With no build's snapshot, numpy's libraries are waited for up to the grace before Python's
    start; late, Python starts without them: the first screen answers, they are loaded before Panel,
    and that visit keeps no snapshot (its heap is not the one a snapshot needs)."""
    folder, url = served_without_start
    with slow_first_visit(browser, url, {"libraries.bundle.": 4}) as (page, console, errors):
        assert STARTED_FROM_BUILD not in console
        assert len([line for line in console if line.startswith("[bpe] numpy's libraries are ")]) == 1
        assert "[bpe] Python starts before numpy's libraries have arrived" in console
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
        wait_for_console(page, console, LIBRARIES_LATE)
        app_worker = next(worker for worker in page.workers if "/app." in worker.url)
        assert app_worker.evaluate(
            "() => self.pyodide.runPython('import numpy; int(numpy.arange(5).sum())')") == 10
        page.locator(".next-round button").first.click()
        expect(page.locator(".bpe-caption").first).to_contain_text("Round 1 of")
        assert not any(line.startswith(KEPT_SNAPSHOT) for line in console)
        assert any("no snapshot for the next visit" in line for line in console)
        assert errors == [], errors


#: The files the first answer waits for: all of them slow is a slow link.
FIRST_ANSWER_FILES = ("pyodide-lock.json.", "pyodide.asm.js.", "pyodide.asm.wasm.", "python_stdlib.zip.",
                      "first-screen.bundle.", "app.bundle.", "libraries.bundle.")


def test_on_a_slow_link_python_does_not_wait_for_libraries_that_cannot_come_in_time(served_without_start, browser):
    """Every file of the first answer is slow (a slow link): at the pace the first files came, numpy's
    libraries are further away than the grace, so Python starting afresh starts at once, not after
    waiting for them; the first screen answers, and the full page loads them before Panel as on any
    late arrival. (From the build's snapshot, Python never waits for them.)"""
    folder, url = served_without_start
    with slow_first_visit(browser, url, dict.fromkeys(FIRST_ANSWER_FILES, 2)) as (page, console, errors):
        assert any(line.startswith("[bpe] numpy's libraries are ") and line.endswith("not waited for")
                   for line in console), [line for line in console if not line.startswith("[bpe-timing]")]
        assert "[bpe] Python starts before numpy's libraries have arrived" in console
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
        wait_for_console(page, console, LIBRARIES_LATE)
        assert errors == [], errors


#: The files after the first ones, in the order the worker asks for them over a slow link (numpy's
#: libraries wait until they are wanted, after the first answer).
IN_TURN = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/first-screen.bundle", "app.bundle")


def test_over_a_narrow_link_the_big_files_come_with_brotli_one_at_a_time(served, browser):
    """Every body comes at 2 MB/s (16 Mbit/s): the first files' pace is below 100 Mbit/s, so the worker
    takes the big files with brotli (1.5 MB fewer) and inflates them itself; the first screen answers
    from them. The rule itself: gzip where the pace is fast or not known, or no brotli was shipped.
    The files come one at a time, each asked for once the one before it is nearly all here, so
    that the wasm comes with the whole link (and is compiled while the stdlib comes). numpy's
    libraries, which Python starts without there, are held back until the first screen has
    answered, so that inflating them does not slow Python's start; the full page still gets them."""
    folder, url = served
    _, _, config = worker_config(folder)
    RecordingHandler.asked.clear()
    RecordingHandler.sent.clear()
    RecordingHandler.rate = 2e6
    try:
        with slow_first_visit(browser, url, {}) as (page, console, errors):
            asked = {path.removeprefix(f"/{SUBFOLDER}/") for path in RecordingHandler.asked}
            said = [line for line in console if CODEC_CHOSEN.match(line)]  # the bodies timed: at most 16 Mbit/s
            assert codecs_chosen(console) == {"brotli"}, said
            assert 4 <= int(re.search(r"at (\d+) Mbit/s", said[0]).group(1)) <= 20, said
            for path in BOTH_WAYS:
                entry = config["shipped"][path]
                assert entry["smaller"]["file"] in asked and entry["file"] not in asked, path
            app_worker = next(worker for worker in page.workers if "/app." in worker.url)
            rule = app_worker.evaluate("""([entry, plain]) => {
              const mbit = (rate) => rate * 1e6 / 8 / 1000;  // bytes per ms
              return [bpeShipped.codecFor(entry, mbit(20)).codec, bpeShipped.codecFor(entry, mbit(99)).codec,
                      bpeShipped.codecFor(entry, mbit(101)).codec, bpeShipped.codecFor(entry, 0).codec,
                      bpeShipped.codecFor(plain, mbit(20)).codec,
                      bpeShipped.pace([[0, 10, 1000], [5, 20, 1000], [30, 40, 500]])];
            }""", [config["shipped"]["pyodide/pyodide.asm.wasm"], config["shipped"]["pyodide/libraries.bundle"]])
            assert rule == ["brotli", "brotli", "gzip", "gzip", "gzip", 2500 / 30]
            assert ONE_AT_A_TIME in console
            names = [(config["shipped"][path].get("smaller") or config["shipped"][path])["file"].rsplit("/", 1)[-1]
                     for path in IN_TURN]
            for name, later in zip(names, names[1:]):
                # Nearly here: the next one is asked for in this one's last quarter second (the wasm
                # takes 1.1 s to come, the stdlib 0.6 s; all at once, the stdlib would be asked with it).
                sent, later_asked = RecordingHandler.sent[name][1], RecordingHandler.sent[later][0]
                assert later_asked > sent - 0.25, (name, later, sent - later_asked)
            assert LIBRARIES_HELD in console
            assert START_SLOW in console
            assert config["shipped"][START_SNAPSHOT]["file"] not in asked
            page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
            marks = [line.split()[1] for line in console if line.startswith("[bpe-timing] ")]
            assert marks.index("first-screen") < marks.index("loaded:libraries.bundle"), marks
            assert errors == [], errors
    finally:
        RecordingHandler.rate = None


@contextlib.contextmanager
def busy_machine():
    """Every core kept busy by other processes, as on a shared CI machine."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def test_a_busy_machine_on_a_fast_link_is_not_taken_for_a_slow_link(served_without_start, browser):
    """On localhost with every core busy, the files come slowly but the link is fast: the pace is the
    link's (bytes here, before inflating), so Python waits the grace for numpy's libraries rather
    than giving up on them (and on the snapshot for the next visit) at once."""
    folder, url = served_without_start
    with busy_machine(), slow_first_visit(browser, url, {}) as (page, console, errors):
        said = [line for line in console if line.startswith("[bpe] numpy's libraries are ")]
        assert len(said) == 1 and said[0].endswith(": waited for, up to 600 ms"), said
        assert errors == [], errors


#: The shipped files this browser keeps for the site, by name.
CACHE_KEYS = """async (base) =>
  (await (await caches.open(`bpe-site ${new URL(base).pathname}`)).keys()).map((r) => r.url.slice(base.length))"""


def test_before_the_first_answer_nothing_is_kept_and_the_pages_scripts_are_not_fetched(served, browser):
    """On 2 cores, writing the fetched files into the Cache API and inflating Bokeh's and Panel's
    scripts on the page's thread both slowed Python's start. Here the first screen's bundle comes
    6 s late, so the first answer does too: Pyodide's files are here and the wasm compiled long
    before, yet none is kept and no script of the page's is asked for until the first screen has
    answered; then every file is kept and the scripts come."""
    folder, url = served
    _, _, config = worker_config(folder)
    scripts = [entry["file"] for entry in page_scripts(folder)]
    wasm = config["shipped"]["pyodide/pyodide.asm.wasm"]["kept"]
    asked_scripts = lambda: [name for name in scripts if f"/{SUBFOLDER}/{name}" in RecordingHandler.asked]
    context = browser.new_context()
    RecordingHandler.asked.clear()
    RecordingHandler.slow["first-screen.bundle."] = 6
    try:
        page = context.new_page()
        console = []
        page.on("console", lambda message: console.append(message.text))
        page.goto(url)
        wait_for_console(page, console, "[bpe-timing] compiled")
        page.wait_for_timeout(1000)
        assert not any(line.startswith("[bpe-timing] first-screen ") for line in console)
        assert page.evaluate(CACHE_KEYS, url) == []
        assert asked_scripts() == []
        page.wait_for_function("() => document.body.classList.contains('bpe-first')", timeout=120_000)
        wasm_kept = f"async (base) => ({CACHE_KEYS})(base).then((kept) => kept.includes({json.dumps(wasm)}))"
        page.wait_for_function(wasm_kept, arg=url, timeout=60_000)
        for _ in range(150):
            if asked_scripts() == scripts:
                break
            page.wait_for_timeout(200)
        assert asked_scripts() == scripts
    finally:
        RecordingHandler.slow.clear()
        context.close()


def test_a_damaged_brotli_file_is_refused_with_its_reason(served, browser):
    """A brotli file cut short, or whole but not the file the build named, fails its load with a
    reason (which the page shows), and the file worker is not left half-way: the good file loads."""
    folder, url = served
    _, _, config = worker_config(folder)
    entry = config["shipped"]["pyodide/first-screen.bundle"]
    packed = (folder / entry["smaller"]["file"]).read_bytes()
    (folder / "cut.brotli").write_bytes(packed[:len(packed) // 2])
    (folder / "other.brotli").write_bytes(brotli.compress(b"not the first screen's bundle"))
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => document.body.classList.contains('bpe-first')", timeout=120_000)
        app_worker = next(worker for worker in page.workers if "/app." in worker.url)
        # Each under a name of its own to keep it by, so that none is found in the cache.
        loaded = app_worker.evaluate("""async ([entry, base]) => {
          const load = (file) => bpeShipped.load({ ...entry, ...entry.smaller, file, kept: `${file}-kept` }, base).then(
            (bytes) => bytes.length, (error) => error.message);
          return [await load("cut.brotli"), await load("other.brotli"), await load(entry.smaller.file)];
        }""", [entry, url])
    finally:
        context.close()
        for name in ("cut.brotli", "other.brotli"):
            (folder / name).unlink()
    assert loaded == ["the brotli stream ends before its last block",
                      "other.brotli: not the file this page was built with (sha256 differs)", entry["size"]]


def test_a_build_snapshot_that_is_not_the_builds_is_refused_and_python_starts_afresh(served, browser):
    """The build's snapshot is checked as any shipped file: one the server gives wrong is refused
    before Pyodide sees it (given a wrong heap, Pyodide's start can wait forever), Python starts
    afresh, the first screen answers and the visit keeps its own snapshot for the next one."""
    folder, url = served
    _, _, config = worker_config(folder)
    served_file = folder / config["shipped"][START_SNAPSHOT]["file"]
    good = served_file.read_bytes()
    served_file.write_bytes(gzip.compress(b"not the build's snapshot"))
    try:
        # A busy machine can bring even the first files below 100 Mbit/s, and over a slow link the
        # snapshot is not asked for: then the visit is made again.
        for _ in range(3):
            with slow_first_visit(browser, url, {}) as (page, console, errors):
                if START_SLOW in console:
                    continue
                assert any(line.startswith(START_GIVEN_UP) and "not the file this page was built with" in line
                           for line in console), [line for line in console if line.startswith("[bpe]")]
                assert STARTED_FROM_BUILD not in console
                wait_for_console(page, console, KEPT_SNAPSHOT)
                assert errors == [], errors
                break
        else:
            pytest.fail("three visits in turn took localhost for a slow link")
    finally:
        served_file.write_bytes(good)


def test_a_second_visit_reads_every_shipped_file_from_the_cache(served, profile):
    folder, url = served
    # A share link: the snapshot holds the default view, and the link is applied on top of it.
    page, console, asked, errors = visit(profile, url + "?preset=course&round=1&text=aab")
    assert errors == []
    assert shipped_summary(console) == "[bpe] shipped files: 9 from the cache, 0 from the network"
    assert [path for path in asked if path.endswith(SHIPPED_SUFFIXES)] == []
    assert STARTED_FROM_SNAPSHOT in console
    # The restored app answers as a fresh one: the link's view, then an edit, a new round, numpy.
    expect(page.locator(".bpe-corpus-summary").first).to_contain_text("5 tokens after 1 merge")
    chips = page.locator(".bpe-encoded").first.locator(".bpe-chip")
    expect(chips).to_have_count(2)
    assert chips.evaluate_all("chips => chips.map(chip => chip.dataset.id)") == ["256", "98"]  # aa, b
    page.locator(".encode-input input").first.fill("hug pug")
    expect(page.locator(".bpe-encoded").first).to_contain_text("hug")
    page.locator(".next-round button").first.click()
    expect(page.locator(".bpe-corpus-summary").first).to_contain_text("after 2 merges")
    app_worker = next(worker for worker in page.workers if "/app." in worker.url)
    assert app_worker.evaluate(
        "() => self.pyodide.runPython('import numpy.random; int(numpy.random.default_rng(7).integers(100))')") >= 0
    # The later bundles are written while the page renders the restored app: a module nobody
    # imported before the snapshot (the later stdlib's) is there to import.
    assert app_worker.evaluate("() => self.pyodide.runPython('import sys; \"graphlib\" in sys.modules')") is False
    assert app_worker.evaluate(
        "() => self.pyodide.runPython('import graphlib; \"\".join(graphlib.TopologicalSorter({\"b\": \"a\"}).static_order())')") == "ab"
    assert errors == [], errors
    page.close()


#: Kept snapshots that must be dropped, each made in the page from the good one (`kept`, read with
#: `cache`), and the reason the console gives: two the worker refuses before Pyodide sees them (no
#: length; a real one with its last 64 KiB cut off, which Pyodide would take as a heap whose top is
#: zeros), and one that passes its checks (its first word, its length) but that Pyodide refuses
#: (its build id).
DAMAGED = {
    "short": ("new Response('not a snapshot', { headers: { 'X-Bpe-Table': '1' } })", "the kept snapshot is damaged"),
    "cut short": ("""(async () => {
      const bytes = new Uint8Array(await kept.arrayBuffer());
      return new Response(bytes.subarray(0, bytes.length - 65536), { headers: kept.headers });
    })()""", "the kept snapshot is damaged"),
    "another Pyodide's": ("""(() => {
      const bytes = new Uint8Array(24 << 20);
      new DataView(bytes.buffer).setUint32(0, 1886286592, true);
      return new Response(bytes, { headers: { 'X-Bpe-Table': '1', 'X-Bpe-Length': String(bytes.length) } });
    })()""", "Snapshot build id mismatch"),
}


@pytest.mark.parametrize("damaged", DAMAGED)
def test_a_damaged_snapshot_is_dropped_and_python_starts_afresh(served, profile, damaged):
    folder, url = served
    worker, _, _ = worker_config(folder)
    page, console, asked, errors = visit(profile, url)  # a good one kept, if there was none
    if STARTED_FROM_SNAPSHOT not in console:
        wait_for_console(page, console, KEPT_SNAPSHOT)
    page.close()
    damage = profile.new_page()
    damage.goto(url + "favicon-none")  # any page of the site's origin
    response, reason = DAMAGED[damaged]
    damage.evaluate("""async ([base, file, response]) => {
      const cache = await caches.open(`bpe-site ${new URL(base).pathname}`);
      const kept = await cache.match(base + file);
      await cache.put(base + file, await eval(response));
    }""", [url, snapshot_file(worker.name), response])
    damage.close()
    page, console, asked, errors = visit(profile, url)
    refused = [line for line in console if line.startswith(SNAPSHOT_UNUSABLE)]
    assert refused and reason in refused[0], console
    page.locator(".encode-input input").first.fill("hug pug")
    expect(page.locator(".bpe-encoded").first).to_contain_text("hug")
    wait_for_console(page, console, KEPT_SNAPSHOT)  # a good one, in place of the damaged one
    page.close()
    page, console, asked, errors = visit(profile, url)
    assert STARTED_FROM_SNAPSHOT in console
    assert errors == [], errors
    page.close()


def test_a_new_build_is_never_mixed_with_an_old_one(served, profile):
    folder, url = served
    worker, template, config = worker_config(folder)
    # The build's snapshots hold the first screen's and the app's modules as the old build shipped
    # them: a real build makes its own (start_snapshot.py caches them by the worker's name); this one
    # has none.
    config["shipped"].pop(config.pop("start_snapshot")["path"])
    for snapshot in config.pop("app_snapshots").values():
        config["shipped"].pop(snapshot["path"])
    old_kept = set(config["keep"])
    # A new build whose app differs in its title: the app bundle and the worker get new names.
    # (The title changes in the source and in its compiled, unchecked .pyc, so it keeps its length.)
    old_app = config["shipped"]["app.bundle"]
    members = read_bundle(inflated((folder / old_app["file"]).read_bytes(), old_app["file"]))
    changed = [(name, data.replace(b"Byte pair encoding, merge by merge", b"Byte pair encoding, merge by BUILD"))
               for name, data in members]
    assert changed != members
    (folder / "app.bundle").write_bytes(make_bundle(changed))
    new_app = ship(folder, "app.bundle", old_app["type"], old_app["codec"], old_app["smaller"]["codec"])
    (folder / old_app["file"]).unlink()
    (folder / old_app["smaller"]["file"]).unlink()
    config["shipped"]["app.bundle"] = new_app
    config["keep"] = [new_app["kept"] if kept == old_app["kept"] else kept for kept in config["keep"]]
    config["first_files"]["load"] = [[new_app if entry == old_app else entry for entry in group]
                                     for group in config["first_files"]["load"]]
    worker.unlink()
    (folder / "app.js").write_text(template.replace("__CONFIG__", json.dumps(config)))
    new_worker = rename_hashed(folder, "app.js")
    # The page names the new worker, and its file worker loads the new app bundle first.
    index = folder / "index.html"
    page_text = index.read_text()
    assert page_text.count(json.dumps(old_app)) == 1
    index.write_text(page_text.replace(worker.name, new_worker).replace(json.dumps(old_app), json.dumps(new_app)))
    # A kept file that was damaged is fetched again, not used.
    wasm = config["shipped"]["pyodide/pyodide.asm.wasm"]
    damage = profile.new_page()
    damage.goto(url + "favicon-none")  # any page of the site's origin
    damage.evaluate("""async ([base, wasm]) => {
      const cache = await caches.open(`bpe-site ${new URL(base).pathname}`);
      await cache.put(base + wasm, new Response('not wasm'));
    }""", [url, wasm["kept"]])
    damage.close()

    page, console, asked, errors = visit(profile, url)
    assert errors == [], errors
    # The old build's snapshot holds the old title: the new build starts afresh, with its own.
    expect(page.get_by_text("Byte pair encoding, merge by BUILD")).to_be_visible()
    assert STARTED_FROM_SNAPSHOT not in console
    assert shipped_summary(console) == "[bpe] shipped files: 7 from the cache, 2 from the network"
    # Only those two, each in one codec; the brotli decoder, if the page needs it, from the cache.
    shipped_asked = {path.removeprefix(f"/{SUBFOLDER}/") for path in asked if path.endswith(SHIPPED_SUFFIXES)}
    assert len(shipped_asked) == 2, shipped_asked
    for entry in (new_app, wasm):
        assert len(shipped_asked & {entry["file"], entry["smaller"]["file"]}) == 1, shipped_asked
    # Once the new build is running, the old build's app bundle is forgotten.
    page.wait_for_function("""async ([base, old]) => {
      const keys = (await (await caches.open(`bpe-site ${new URL(base).pathname}`)).keys()).map((r) => r.url);
      return keys.length > 0 && !keys.includes(base + old);
    }""", arg=[url, old_app["kept"]], timeout=30_000)
    wait_for_console(page, console, KEPT_SNAPSHOT)
    kept = page.evaluate(CACHE_KEYS, url)
    assert {unquote(file) for file in kept} == (old_kept - {old_app["kept"]}) | {new_app["kept"],
                                                                              snapshot_file(new_worker)}
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "site-new-build.png"))
    page.close()
