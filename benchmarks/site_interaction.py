#!/usr/bin/env python3
"""How fast the built site responds: scrubbing, typing and training, in headless Debian Chromium.

    .venv/bin/python benchmarks/site_interaction.py [--runs 3] [--steps 40] [--train-reps 5]
        [--profile-steps 10] [--json out.json] [--no-doc] [--no-node]

About 90 s per run on 2 busy cores.

dist/ is built if stale (as benchmarks/site_load.py does) and a private copy is served on 127.0.0.1.
Each run is a fresh browser context (a cold page load, not timed here), and in it:

1. Scrub the `explainer` preset (the page's default): --steps presses of → / ← (back and forth
   over its 10 rounds). One step = the keydown's own timestamp to the moment the corpus summary
   (`.bpe-corpus-summary`) text changes in the DOM (a MutationObserver on every shadow root).
2. Type --steps characters into the encoder (`encode-input`): keydown to `.bpe-encoded` changed.
3. Paste the first 100,000 bytes of Python's documentation sources (Debian's python3.11-doc, the
   files benchmarks/core.py uses, in sorted order, joined by blank lines) into the corpus editor, with
   alphabet bytes, pre-tokenizer kinds, tie smallest, min count 2, budget 1,000 merges, documents
   "each line"; then blur the editor (what commits it) and time until the trained view is shown
   (caption "Round k of 1000", then no DOM change for 300 ms).
4. Inside the page's own worker (Playwright can evaluate in it; `site/bpe_build/worker/` keeps the
   Pyodide instance in `self.pyodide`): `bpe.train` on the same documents, --train-reps times, and
   the view functions for the rounds scrubbed. Then the same `bpe.train` in CPython (a subprocess,
   right after, so both see about the same machine load) and in the pinned Pyodide under Node
   (`tests/pyodide_run.js`). The training ratio (target ≤ 3×) takes the best of the reps on each side.
   CPython also runs the page's whole retraining and round changes (see below).
5. Scrub the 100 KB training: --steps/2 presses of → from round 0 (slider handle, Home key), then
   from round ~1,000 (a click at the right end of the slider's track) back with ←.
6. Type --steps characters into the encoder again, now with the 100 KB tokenizer at round ~980.
   Then tick "Train B too": B is the same 100 KB settings with the explainer's suggested change (tie
   largest-text), and the step runs from the click's mousedown to both being shown (the first
   difference stated in `.bpe-first-difference`, then no DOM change for 300 ms). B is then turned off.
   Then each real tokenizer is chosen in the comparison menu for the first time: from the choice to
   its heading shown and the DOM quiet (its table fetched from dist/assets, parsed, the encoder's
   text and the cost-across-languages table encoded). And in the worker and in CPython, each table
   read and parsed, and the seven-language passage encoded with a cold and a warm chunk cache
   (`site_interaction/real.py`).
7. cProfile --profile-steps round changes of the page's own AppState inside the worker (shown for
   the first session only).

Each step also records, from the worker's side (its onmessage and postMessage are wrapped), when the
page's patch reached the worker and when the worker posted `idle`: Python's share of the step.
The page's synchronous handling of the worker's patches (Bokeh applying them to the DOM) is timed by
wrapping the page's handler. In CPython, the same round change (AppState.step on the same App,
rendered to a Bokeh document whose changes are serialized as the worker serializes them) gives the
Python time the worker would need at CPython speed (CPython 3.11 in .venv; Pyodide runs 3.12).

Writes docs/benchmarks_site.md (unless --no-doc) and prints the table.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import types
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
#: The JavaScript and Python this script runs in the page, the worker, CPython and Node.
SNIPPETS = Path(__file__).resolve().parent / "site_interaction"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SOURCES = ROOT / "benchmarks" / "data" / "python3.11-doc-sources"
VERSION_FILE = ROOT / "benchmarks" / "data" / "python3.11-doc.version"
OUTPUT = ROOT / "docs" / "benchmarks_site.md"

CORPUS_BYTES = 100_000
MERGES = 1000
SPLIT = "each line"
SETTINGS = dict(alphabet="bytes", pretokenizer="kinds", tie="smallest", specials="none", min_frequency=2)
TYPED = ("The quick brown fox walks past the talking dog, and then it walked home again. " * 4)
TARGETS = {  # milliseconds at the 95th percentile, or a ratio
    "scrub_explainer": 100,
    "scrub_100k": 250,
    "keystroke": 100,
    "train_ratio": 3.0,
}
STEP_QUIET_MS = 150  # a step is over when the DOM has not changed for this long (and the worker is idle)
TRAIN_QUIET_MS = 300

# --------------------------------------------------------------------------- page-side instruments

PAGE_HARNESS = (SNIPPETS / "page_harness.js").read_text()

WORKER_HARNESS = (SNIPPETS / "worker_harness.js").read_text()

# --------------------------------------------------------------------------- Python run everywhere

TRAIN_CODE = (SNIPPETS / "train.py").read_text()

VIEWS_CODE = (SNIPPETS / "views.py").read_text()

PANEL_CODE = (SNIPPETS / "panel.py").read_text()


PROFILE_CODE = (SNIPPETS / "profile.py").read_text()

REAL_CODE = (SNIPPETS / "real.py").read_text()


# --------------------------------------------------------------------------- helpers

def load_build_script():
    """The build's steps this script uses, from the site's bpe_build package."""
    sys.path.insert(0, str(ROOT / "site"))
    from bpe_build import assemble, fetch, paths, serve

    return types.SimpleNamespace(build=assemble.build, DIST=paths.DIST, make_server=serve.make_server,
                                 fetch_pyodide=fetch.fetch_pyodide)


def fetch_sources() -> None:
    """The Python documentation sources, fetched by benchmarks/core.py's fetch() if missing."""
    if SOURCES.is_dir() and any(SOURCES.rglob("*.rst.txt")):
        return
    sys.path.insert(0, str(ROOT))
    from benchmarks import core

    core.fetch()


def corpus_text() -> str:
    text = "\n\n".join(path.read_text(encoding="utf-8") for path in sorted(SOURCES.rglob("*.rst.txt")))
    return text.encode("utf-8")[:CORPUS_BYTES].decode("utf-8", "ignore")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def python_literal_script(code: str, **values) -> str:
    return "".join(f"{name} = {value!r}\n" for name, value in values.items()) + code


def run_cpython(code: str, **values) -> dict:
    """Run `code` (its last line an expression) in a fresh CPython; returns its JSON value."""
    body = code.rstrip().splitlines()
    body[-1] = "print('RESULT ' + _result)"
    script = f"import sys\nsys.path.insert(0, {str(ROOT / 'site')!r})\nsys.path.insert(0, {str(ROOT)!r})\n"
    script += python_literal_script("\n".join(body), **values)
    return _run_script([sys.executable, "-"], script)


def run_node(pyodide_dir: Path, code: str, **values) -> dict:
    body = code.rstrip().splitlines()
    body[-1] = "print('RESULT ' + _result)"
    script = "import sys\nsys.path.insert(0, '/repo/site')\n" + python_literal_script("\n".join(body), **values)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as handle:
        handle.write(script)
    try:
        return _run_script(["node", str(ROOT / "tests" / "pyodide_run.js"), str(pyodide_dir), str(ROOT), handle.name])
    finally:
        os.unlink(handle.name)


def _run_script(command: list[str], stdin: str | None = None) -> dict:
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=900)
    if done.returncode != 0 or "RESULT " not in done.stdout:
        raise RuntimeError(f"{command[0]} failed:\n{done.stderr[-3000:]}\n{done.stdout[-2000:]}")
    return json.loads(done.stdout.split("RESULT ", 1)[1].splitlines()[0])


def run_in_worker(worker, code: str, **values):
    """Run `code` in the page's own Pyodide (worker.js keeps it as self.pyodide), in a fresh namespace."""
    return json.loads(worker.evaluate(
        """([code, values]) => {
          const namespace = self.pyodide.globals.get('dict')();
          for (const [name, value] of Object.entries(values)) namespace.set(name, self.pyodide.toPy(value));
          try { return self.pyodide.runPython(code, {globals: namespace}); } finally { namespace.destroy(); }
        }""", [code, values]))


# --------------------------------------------------------------------------- one browser session

class Session:
    def __init__(self, browser, url: str):
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = page = self.context.new_page()
        page.set_default_timeout(120_000)
        self.console: list[str] = []
        self.errors: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.goto(url)
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=180_000)
        page.evaluate(PAGE_HARNESS)
        self.worker = next(w for w in page.workers if re.search(r"/app(\.[0-9a-f]+)?\.js(\?|$)", w.url))
        self.worker.evaluate(WORKER_HARNESS)
        self.quiet(500)

    def close(self) -> None:
        self.context.close()

    def quiet(self, ms: int) -> None:
        self.page.evaluate("(ms) => window.bpeBench.quiet(ms)", ms)

    def caption(self) -> str:
        return self.page.locator(".bpe-caption").first.inner_text()

    def rounds(self) -> tuple[int, int]:
        match = re.search(r"Round (\d+) of (\d+)", self.caption())
        return int(match.group(1)), int(match.group(2))

    def step(self, selector: str, act, wanted: str | None = None, quiet: int = STEP_QUIET_MS) -> dict:
        """Arm the DOM watch, act (an input), wait; returns the step's timings in ms from the input."""
        self.worker.evaluate("() => self.bpeBenchLog.splice(0)")
        self.page.evaluate("([s, w, q]) => window.bpeBench.arm(s, w, q)", [selector, wanted, quiet])
        act()
        result = self.page.evaluate("() => window.bpeBench.done")
        log = self.worker.evaluate("() => self.bpeBenchLog.splice(0)")
        if result["timeout"] or result["input"] is None:
            raise RuntimeError(f"step did not complete: {result}")
        start = result["input"]
        origin = result["origin"]
        worker = [(t - origin - start, direction, kind, what, size) for t, direction, kind, what, size in log]
        arrived = next((t for t, d, k, _, _ in worker if d == "in" and k == "patch"), float("nan"))
        idle = next((t for t, d, k, _, _ in worker if d == "out" and k == "idle" and t >= arrived), float("nan"))
        patches_out = [t for t, d, k, _, _ in worker if d == "out" and k == "patch"]
        return {
            "dom": result["changed"] - start,
            "frame": result["frame"] - start,
            "settled": result["last"] - start,
            "to_worker": arrived,
            "worker_busy": idle - arrived,
            "worker_last_patch": (max(patches_out) if patches_out else float("nan")),
            "page_apply": sum(end - begin for begin, end in result["patches"]),
            "patches": len(result["patches"]),
            # what the worker posted, in order: ms after the page's patch reached it, event, string length
            "posted": [(t - arrived, what, size) for t, d, k, what, size in worker if d == "out" and k == "patch"],
        }

    def scrub(self, keys: list[str]) -> list[dict]:
        self.page.evaluate("() => window.bpeBench.blurActive()")
        out = []
        for key in keys:
            out.append(self.step(".bpe-corpus-summary", lambda key=key: self.page.keyboard.press(key)))
        return out

    def type_text(self, text: str) -> list[dict]:
        box = self.page.locator(".encode-input input").first
        box.click()
        box.press("End")
        self.quiet(300)
        out = []
        for char in text:
            out.append(self.step(".bpe-encoded", lambda char=char: self.page.keyboard.type(char)))
        self.page.evaluate("() => window.bpeBench.blurActive()")
        return out

    def set_select(self, label: str, value: str) -> None:
        select = self.page.get_by_label(label, exact=True)
        if select.input_value() != value:
            select.select_option(value)
            self.quiet(500)

    def prepare_100k(self, text: str) -> dict:
        """Settings for the 100 KB training, then paste the corpus and time the retraining it starts."""
        self.configure()
        editor = self.page.locator(".corpus-input textarea").first
        editor.fill(text)  # value_input reaches the worker; `value` (what trains) only on blur
        self.quiet(500)
        timing = self.step(".bpe-caption", lambda: editor.evaluate(
            "(box) => { window.bpeBench.input = performance.now(); box.blur(); }"),
            wanted=rf"Round \d+ of {MERGES}:", quiet=TRAIN_QUIET_MS)
        assert self.rounds()[1] == MERGES, self.caption()
        return timing

    def configure(self) -> None:
        """The settings of the large trainings (SETTINGS, SPLIT and MERGES merges)."""
        for label, value in (("Alphabet", SETTINGS["alphabet"]), ("Pre-tokenizer", SETTINGS["pretokenizer"]),
                             ("Tie rule", SETTINGS["tie"]), ("Special tokens", SETTINGS["specials"]),
                             ("Documents", SPLIT), ("Budget", "merges")):
            self.set_select(label, value)
        for label, value in (("Minimum pair count", SETTINGS["min_frequency"]), ("how many", MERGES)):
            box = self.page.get_by_label(label, exact=True)
            if box.input_value() != str(value):
                box.fill(str(value))
                box.press("Enter")
                self.quiet(500)

    def train_b(self) -> dict:
        """Tick "Train B too" and time until A and B are both shown; then untick it."""
        switch = self.page.locator(".compare-b input").first
        timing = self.step(".bpe-first-difference", switch.click, wanted=r"Round \d+: |same pairs", quiet=TRAIN_QUIET_MS)
        switch.click()
        self.quiet(500)
        return timing

    def choose_real(self) -> dict:
        """Choose each real tokenizer in the comparison menu for the first time; ms to it shown."""
        from bpe_app.state import COMPARISONS

        select, out = self.page.locator(".compare-select select").first, {}
        for label, name in COMPARISONS.items():
            if name not in real_names():
                continue
            def act(label=label):
                self.page.evaluate("() => { window.bpeBench.input = performance.now(); }")
                select.select_option(label=label)
            out[name] = self.step(".bpe-compare .bpe-heading", act, wanted=re.escape(label), quiet=TRAIN_QUIET_MS)
        select.select_option(label="nothing")
        self.quiet(500)
        return out

    def jump_home(self) -> None:
        """Home on the slider's handle: round 0."""
        handle = self.page.locator(".round-slider [role=slider]").first
        handle.focus()
        handle.press("Home")
        self.page.wait_for_function(
            "() => { const c = window.bpeBench.find('.bpe-caption'); return c && c.textContent.startsWith('Round 0 of'); }")
        self.quiet(300)
        self.page.evaluate("() => window.bpeBench.blurActive()")

    def jump_near_end(self) -> int:
        """A click at the right end of the slider's track (its End key goes to the first training's last
        round: noUiSlider's keyboard keeps a stale range); returns the round it lands on."""
        track = self.page.locator(".round-slider .noUi-base").first.bounding_box()
        self.page.mouse.click(track["x"] + track["width"] - 1, track["y"] + track["height"] / 2)
        self.page.wait_for_function(
            "(n) => { const c = window.bpeBench.find('.bpe-caption');"
            " const m = c && c.textContent.match(/Round (\\d+) of/); return m && Number(m[1]) >= n; }",
            arg=MERGES - 20)
        self.quiet(300)
        self.page.evaluate("() => window.bpeBench.blurActive()")
        return self.rounds()[0]


def back_and_forth(start: int, last: int, steps: int) -> list[str]:
    keys, position, direction = [], start, +1
    for _ in range(steps):
        if not 0 <= position + direction <= last:
            direction = -direction
        keys.append("ArrowRight" if direction > 0 else "ArrowLeft")
        position += direction
    return keys


def one_session(browser, url: str, text: str, args, pyodide_dir: Path | None, log) -> dict:
    session = Session(browser, url)
    try:
        result: dict = {"load": os.getloadavg()[0]}
        round_, last = session.rounds()
        assert "explainer" in session.page.get_by_label("Preset", exact=True).input_value()
        result["explainer_rounds"] = last
        result["scrub_explainer"] = session.scrub(back_and_forth(round_, last, args.steps))
        log(f"  explainer scrub: p50 {pct(result['scrub_explainer'], 'dom', 50):.0f} ms")
        result["keys_explainer"] = session.type_text(TYPED[:args.steps])
        log(f"  explainer keystrokes: p50 {pct(result['keys_explainer'], 'dom', 50):.0f} ms")

        result["train_page"] = session.prepare_100k(text)
        log(f"  100 KB trained view after {result['train_page']['settled']:.0f} ms")
        # Python timings inside the same worker, then CPython and Node right after (similar load).
        result["train_worker"] = run_in_worker(session.worker, TRAIN_CODE, TEXT=text, SPLIT=SPLIT, MERGES=MERGES,
                                               REPS=args.train_reps)
        result["train_cpython"] = run_cpython(TRAIN_CODE, TEXT=text, SPLIT=SPLIT, MERGES=MERGES, REPS=args.train_reps)
        if pyodide_dir is not None:
            result["train_node"] = run_node(pyodide_dir, TRAIN_CODE, TEXT=text, SPLIT=SPLIT, MERGES=MERGES,
                                            REPS=args.train_reps)
        result["panel_cpython"] = _run_script([sys.executable, "-"], python_literal_script(
            PANEL_CODE, SITE=str(ROOT / "site"), TEXT=text, SPLIT=SPLIT, MERGES=MERGES, HALF=args.steps // 2,
            REPS=args.train_reps))
        half = args.steps // 2
        rounds = [*range(1, half + 1), *range(MERGES - 1, MERGES - 1 - (args.steps - half), -1)]
        result["views_worker"] = run_in_worker(session.worker, VIEWS_CODE, TEXT=text, SPLIT=SPLIT, MERGES=MERGES,
                                               ROUNDS=rounds)
        result["views_cpython"] = run_cpython(VIEWS_CODE, TEXT=text, SPLIT=SPLIT, MERGES=MERGES, ROUNDS=rounds)
        log("  bpe.train: worker {:.3f} s, CPython {:.3f} s{}".format(
            statistics.median(result["train_worker"]["seconds"]), statistics.median(result["train_cpython"]["seconds"]),
            f", Node {statistics.median(result['train_node']['seconds']):.3f} s" if "train_node" in result else ""))

        session.jump_home()
        forward = session.scrub(["ArrowRight"] * half)
        result["backward_from"] = session.jump_near_end()
        backward = session.scrub(["ArrowLeft"] * (args.steps - half))
        result["scrub_100k"] = forward + backward
        log(f"  100 KB scrub: p50 {pct(result['scrub_100k'], 'dom', 50):.0f} ms")
        result["keys_100k"] = session.type_text(TYPED[args.steps:2 * args.steps])
        log(f"  100 KB keystrokes: p50 {pct(result['keys_100k'], 'dom', 50):.0f} ms")
        result["train_b"] = session.train_b()
        log(f"  100 KB B trained and both shown after {result['train_b']['settled']:.0f} ms")
        result["real_page"] = session.choose_real()
        log("  first use of each real tokenizer: " + ", ".join(
            f"{name} {step['settled']:.0f} ms" for name, step in result["real_page"].items()))
        result["real_worker"] = run_in_worker(session.worker, REAL_CODE)
        result["real_cpython"] = run_cpython(REAL_CODE)
        if args.profile_steps:
            session.quiet(300)
            result["profile"] = run_in_worker(session.worker, PROFILE_CODE, STEPS=args.profile_steps, TOP=15)
            session.quiet(500)
        result["errors"] = session.errors
        result["console_errors"] = [line for line in session.console if "rror" in line][:20]
        result["load_end"] = os.getloadavg()[0]
        return result
    finally:
        session.close()


def real_names() -> tuple[str, ...]:
    sys.path.insert(0, str(ROOT))
    from bpe import real

    return real.NAMES


def pct(steps: list[dict], key: str, q: float) -> float:
    return percentile([s[key] for s in steps], q)


# --------------------------------------------------------------------------- report

STEP_KEYS = ("to_worker", "worker_busy", "page_apply", "dom", "frame", "settled")
MEASURES = (  # key, label, target (ms, p95 of `dom`)
    ("scrub_explainer", "scrub step, `explainer` preset (→/←)", TARGETS["scrub_explainer"]),
    ("scrub_100k", f"scrub step, 100 KB corpus at {MERGES:,} merges", TARGETS["scrub_100k"]),
    ("keys_explainer", "keystroke in the encoder, `explainer`", TARGETS["keystroke"]),
    ("keys_100k", "keystroke in the encoder, 100 KB tokenizer", TARGETS["keystroke"]),
)


def summarize(runs: list[dict]) -> dict:
    med = statistics.median
    out: dict = {}
    for name, _, _ in MEASURES:
        steps = [step for run in runs for step in run[name]]
        out[name] = {key: {"p50": pct(steps, key, 50), "p95": pct(steps, key, 95)} for key in STEP_KEYS}
        out[name]["n"] = len(steps)
        out[name]["patches"] = med(s["patches"] for s in steps)
        # What the worker posted, by position, over the steps that posted the usual number of patches.
        usual = statistics.mode(len(s["posted"]) for s in steps)
        same = [s["posted"] for s in steps if len(s["posted"]) == usual]
        out[name]["posted"] = [
            {"what": statistics.mode(p[i][1] for p in same), "chars_p50": med(p[i][2] for p in same),
             "ms_p50": med(p[i][0] for p in same), "ms_p95": percentile([p[i][0] for p in same], 95)}
            for i in range(usual)]

    def best(run, key):
        return min(run[key]["seconds"])

    train = []
    for run in runs:
        row = {
            "page_caption_s": run["train_page"]["dom"] / 1000,
            "page_view_s": run["train_page"]["settled"] / 1000,
            "page_frame_s": run["train_page"]["frame"] / 1000,
            "page_worker_s": run["train_page"]["worker_last_patch"] / 1000,
            "worker_s": best(run, "train_worker"), "worker_median_s": med(run["train_worker"]["seconds"]),
            "cpython_s": best(run, "train_cpython"), "cpython_median_s": med(run["train_cpython"]["seconds"]),
            "panel_cpython_s": min(run["panel_cpython"]["retrain"]),
            "page_b_s": run["train_b"]["settled"] / 1000,
        }
        if "train_node" in run:
            row["node_s"] = best(run, "train_node")
            row["node_median_s"] = med(run["train_node"]["seconds"])
        row["worker_ratio"] = row["worker_s"] / row["cpython_s"]
        row["node_ratio"] = row["node_s"] / row["cpython_s"] if "node_s" in row else None
        row["page_view_ratio"] = row["page_view_s"] / row["cpython_s"]
        row["page_b_ratio"] = row["page_b_s"] / row["page_view_s"]
        row["page_worker_ratio"] = row["page_worker_s"] / row["panel_cpython_s"]
        train.append(row)
    out["train"] = train
    out["train_digests"] = sorted({run[k]["digest"] for run in runs
                                   for k in ("train_worker", "train_cpython", "train_node") if k in run})
    out["train_merges"] = sorted({run[k]["merges"] for run in runs
                                  for k in ("train_worker", "train_cpython", "train_node") if k in run})

    views = {}
    names = list(runs[0]["views_worker"])
    for name in names:
        worker = [x for run in runs for x in run["views_worker"][name]]
        cpython = [x for run in runs for x in run["views_cpython"][name]]
        views[name] = (worker, cpython)
    views["all of them"] = tuple(
        [sum(column) for column in zip(*[views[name][side] for name in names])] for side in (0, 1))
    out["views"] = {name: {"worker_p50": 1000 * med(w), "worker_p95": 1000 * percentile(w, 95),
                           "cpython_p50": 1000 * med(c), "cpython_p95": 1000 * percentile(c, 95)}
                    for name, (w, c) in views.items()}

    panel = [x for run in runs for x in run["panel_cpython"]["forward"] + run["panel_cpython"]["backward"]]
    out["profile"] = runs[0].get("profile")
    out["real"] = {name: [{"page": run["real_page"][name]["settled"], "worker": run["real_worker"][name],
                           "cpython": run["real_cpython"][name], "tokens": run["real_cpython"][name]["tokens"]}
                          for run in runs] for name in runs[0]["real_page"]}
    out["panel_step"] = {"p50": 1000 * med(panel), "p95": 1000 * percentile(panel, 95),
                         "patch_kb": med(x for run in runs for x in run["panel_cpython"]["patch_bytes"]) / 1000,
                         "retrain_kb": med(x for run in runs for x in run["panel_cpython"]["retrain_bytes"]) / 1000}
    return out


def fmt_table(rows: list[list[str]], header: list[str]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def verdict(good: bool) -> str:
    return "yes" if good else "**no**"


def targets_table(s: dict) -> str:
    med = statistics.median
    rows = []
    for name, label, target in MEASURES:
        d = s[name]["dom"]
        rows.append([label, f"{d['p50']:.0f} ms", f"{d['p95']:.0f} ms", f"p95 ≤ {target} ms", verdict(d["p95"] <= target),
                     f"{s[name]['frame']['p95']:.0f} ms", str(s[name]["n"])])
    t = s["train"]
    ratio = [row["worker_ratio"] for row in t]
    rows.append([f"training 100 KB to {MERGES:,} merges: `bpe.train` in the page's worker ÷ in CPython (best of reps)",
                 f"{med(ratio):.2f}×", f"worst session {max(ratio):.2f}×", f"≤ {TARGETS['train_ratio']:g}×",
                 verdict(med(ratio) <= TARGETS["train_ratio"]), "–", str(len(ratio))])
    node = [row["node_ratio"] for row in t if row["node_ratio"] is not None]
    if node:
        rows.append(["same, Pyodide under Node (`tests/pyodide_run.js`) ÷ CPython", f"{med(node):.2f}×",
                     f"worst session {max(node):.2f}×", f"≤ {TARGETS['train_ratio']:g}×",
                     verdict(med(node) <= TARGETS["train_ratio"]), "–", str(len(node))])
    return fmt_table(rows, ["measure", "p50 / median", "p95", "target", "met", "p95 to next frame", "n"])


def details(s: dict) -> str:
    parts = []
    rows = []
    short = {"scrub_explainer": "scrub, explainer", "scrub_100k": "scrub, 100 KB",
             "keys_explainer": "keystroke, explainer", "keys_100k": "keystroke, 100 KB"}
    for name, _, _ in MEASURES:
        x = s[name]
        rows.append([short[name]]
                    + [f"{x[k]['p50']:.0f} / {x[k]['p95']:.0f}" for k in STEP_KEYS] + [f"{x['patches']:.0f}"])
    parts.append(fmt_table(rows, [
        "step (ms from keydown, p50 / p95)", "page's patch reaches the worker", "worker busy (receipt → idle)",
        "page applies the worker's patches (sync, summed)", "watched text changed", "next frame (rAF)",
        "DOM quiet (every pane done)", "patches"]))

    posted = s["scrub_100k"]["posted"]
    parts.append("What the worker posts for one 100 KB round change, in order (ms after it received the page's patch):\n\n"
                 + fmt_table([[str(i + 1), f"`{p['what']}`", f"{p['chars_p50'] / 1000:.1f}" if p["chars_p50"] >= 0 else "–",
                               f"{p['ms_p50']:.0f} / {p['ms_p95']:.0f}"] for i, p in enumerate(posted)],
                             ["#", "event", "string (k chars)", "posted at p50 / p95"]))

    rows = [[name, f"{v['worker_p50']:.1f} / {v['worker_p95']:.1f}", f"{v['cpython_p50']:.1f} / {v['cpython_p95']:.1f}",
             f"{v['worker_p50'] / v['cpython_p50']:.1f}×" if v["cpython_p50"] >= 0.05 else "–"]
            for name, v in s["views"].items()]
    parts.append("The pure view functions a round change re-runs, timed inside the page's worker and in CPython "
                 "(100 KB training, the rounds scrubbed):\n\n"
                 + fmt_table(rows, ["view function", "worker ms p50 / p95", "CPython ms p50 / p95", "ratio p50"]))

    p, busy = s["panel_step"], s["scrub_100k"]["worker_busy"]
    parts.append(
        f"The whole Python side of one 100 KB round change in CPython (AppState.step → every bound view → Bokeh "
        f"models → the JSON patches the worker would post, {p['patch_kb']:.0f} KB of JSON): {p['p50']:.0f} ms p50, "
        f"{p['p95']:.0f} ms p95. The worker is busy {busy['p50']:.0f} ms p50, {busy['p95']:.0f} ms p95 for the same "
        f"step: {busy['p50'] / p['p50']:.1f}× CPython at p50, against about "
        f"{s['views']['all of them']['worker_p50'] / s['views']['all of them']['cpython_p50']:.1f}× for the view "
        "functions alone.")

    if s.get("profile"):
        prof = s["profile"]
        per_step = 1000 * prof["seconds"] / prof["steps"]
        rows = [[f"`{name}`", f"{1000 * tt / prof['steps']:.1f}", f"{1000 * ct / prof['steps']:.1f}", str(nc // prof["steps"])]
                for tt, ct, nc, name in prof["top"]]
        parts.append(
            f"cProfile of {prof['steps']} round changes of the 100 KB training inside the page's worker (session 1; "
            f"{per_step:.0f} ms per step under the profiler, which inflates Python-level calls), by own time, "
            "ms per step:\n\n" + fmt_table(rows, ["function", "own", "cumulative", "calls per step"]))

    t = s["train"]
    has_node = all("node_s" in row for row in t)
    rows = [
        ["page: editor blurred → caption shows the new training", *(f"{r['page_caption_s']:.2f}" for r in t)],
        ["page: editor blurred → the worker's last patch posted", *(f"{r['page_worker_s']:.2f}" for r in t)],
        ["page: editor blurred → trained view, DOM quiet", *(f"{r['page_view_s']:.2f}" for r in t)],
        ["CPython: the same retraining through App + Bokeh serialization (best of reps)",
         *(f"{r['panel_cpython_s']:.2f}" for r in t)],
        ["`bpe.train` in the page's worker, best / median of reps",
         *(f"{r['worker_s']:.3f} / {r['worker_median_s']:.3f}" for r in t)],
        *([["`bpe.train` in Pyodide under Node, best / median",
            *(f"{r['node_s']:.3f} / {r['node_median_s']:.3f}" for r in t)]] if has_node else []),
        ["`bpe.train` in CPython, best / median", *(f"{r['cpython_s']:.3f} / {r['cpython_median_s']:.3f}" for r in t)],
        ["ratio worker ÷ CPython (`bpe.train`, best)", *(f"{r['worker_ratio']:.2f}×" for r in t)],
        ["ratio worker's last patch ÷ CPython App retraining", *(f"{r['page_worker_ratio']:.2f}×" for r in t)],
        ["ratio trained view in the page ÷ CPython `bpe.train`", *(f"{r['page_view_ratio']:.2f}×" for r in t)],
        ["page: “Train B too” ticked (B: tie largest-text) → A and B shown, DOM quiet",
         *(f"{r['page_b_s']:.2f}" for r in t)],
        ["ratio B and both shown ÷ A's trained view in the page", *(f"{r['page_b_ratio']:.2f}×" for r in t)],
    ]
    parts.append("Training the 100 KB corpus to 1,000 merges, seconds, one column per browser session:\n\n"
                 + fmt_table(rows, ["", *(f"session {i + 1}" for i in range(len(t)))]))
    parts.append(real_table(s))
    return "\n\n".join(parts)


def real_table(s: dict) -> str:
    """Each real tokenizer's first use in the page, and in the worker and CPython: medians over the sessions."""
    med = statistics.median
    rows = []
    for name, runs in s["real"].items():
        page = med(run["page"] for run in runs)
        worker, cpython = ({key: med(run[side][key] for run in runs) for key in ("load", "cold", "warm")}
                           for side in ("worker", "cpython"))
        rows.append([f"`{name}`", f"{page:.0f}",
                     *(f"{1000 * worker[k]:.0f} / {1000 * cpython[k]:.0f}" for k in ("load", "cold", "warm")),
                     f"{runs[0]['tokens']:,}"])
    return ("Each real tokenizer's first use, ms (medians over the sessions). Page: from choosing it in the "
            "comparison menu to its heading shown and the DOM quiet (the table fetched from dist/assets and "
            "parsed, the encoder's text and the cost-across-languages table encoded). Then, in the page's "
            "worker / in CPython: the table read and parsed; the seven-language passage (3,223 characters) "
            "encoded with a cold chunk cache; the same again, warm:\n\n"
            + fmt_table(rows, ["tokenizer", "page: chosen → shown", "read + parse, worker / CPython",
                               "7 languages cold", "7 languages warm", "tokens (all 7)"]))


def write_doc(targets: str, detail: str, meta: dict, summary: dict) -> str:
    return f"""# Site interaction benchmark

`.venv/bin/python benchmarks/site_interaction.py --runs {meta['runs']} --steps {meta['steps']}`: the built site
(`dist/`, a private copy served on 127.0.0.1) in headless Debian Chromium driven by Playwright. The script's
docstring says exactly what each step does.

- {meta['date']}, commit {meta['commit']}{' plus uncommitted changes in site/ (built into dist/)' if meta['dirty'] else ''}
- {meta['machine']}; load average (1 / 5 / 15 min) {meta['load_start']} at the start, {meta['load_end']} at the end.
  The machine is shared, so absolute times move with the load; the ratios much less.
- Chromium {meta['chromium']}; Pyodide {meta['pyodide']} (Python {meta['pyodide_python']}); CPython {meta['cpython']};
  Node {meta['node']}; Panel 1.8.1, Bokeh 3.7.3
- 100 KB corpus: the first {CORPUS_BYTES:,} bytes of `{meta['sources']}`'s `_sources/**/*.rst.txt` in sorted
  order joined by blank lines, pasted into the corpus editor; documents "{SPLIT}" ({meta['documents']:,} documents),
  alphabet bytes, pre-tokenizer kinds, tie smallest, min count 2, {MERGES:,} merges. Every environment learned the
  same {', '.join(map(str, summary['train_merges']))} merges (digest {', '.join(summary['train_digests'])}).
- {meta['runs']} browser sessions × {meta['steps']} steps per measure, pooled. A step runs from the keydown event's own
  timestamp to the DOM mutation that changes the watched text (`.bpe-corpus-summary` when scrubbing,
  `.bpe-encoded` when typing), seen by a MutationObserver on every shadow root; "next frame" is the first
  requestAnimationFrame after that mutation (the frame that can paint it).

## Targets

{targets}

## Where the time goes

"Worker busy" runs from the worker's receipt of the page's patch to its `idle` message: Panel applies
the patch, the app re-renders the bound views, Bokeh serializes each change and the worker posts it.
"Page applies" is the page's synchronous handling of the worker's patches (Bokeh updates models and
views: the `innerHTML` of the chip panes); style, layout and paint follow before the next frame.

{detail}
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="browser sessions (each measures everything once)")
    parser.add_argument("--steps", type=int, default=40, help="scrub steps and keystrokes per measure and session")
    parser.add_argument("--train-reps", type=int, default=5, help="bpe.train repetitions per environment and session")
    parser.add_argument("--profile-steps", type=int, default=10,
                        help="cProfile this many 100 KB round changes in the worker at the end of each session (0: none)")
    parser.add_argument("--dist", type=Path, help="measure this folder (say an older build's dist/) as it is")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument("--no-doc", action="store_true", help=f"do not write {OUTPUT.relative_to(ROOT)}")
    parser.add_argument("--no-node", action="store_true", help="skip the Pyodide-under-Node comparison")
    args = parser.parse_args()
    if args.steps < 30:
        parser.error("--steps must be at least 30")
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731

    load_start = os.getloadavg()
    build = load_build_script()
    if not args.dist:
        build.build()
    fetch_sources()
    text = corpus_text()
    pyodide_dir = None if args.no_node or shutil.which("node") is None else build.fetch_pyodide()

    # Serve a private copy: other builds in the same checkout may replace dist/ meanwhile.
    with tempfile.TemporaryDirectory(prefix="bpe-site-") as tmp:
        served = Path(tmp) / "dist"
        shutil.copytree(args.dist or build.DIST, served)
        server = build.make_server(served, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        runs = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            chromium = browser.version
            for index in range(args.runs):
                log(f"session {index + 1}/{args.runs} (load {os.getloadavg()[0]:.1f})")
                runs.append(one_session(browser, url, text, args, pyodide_dir, log))
            browser.close()
        server.shutdown()
        server.server_close()

    summary = summarize(runs)
    load_end = os.getloadavg()

    pins = json.loads((ROOT / "site" / "bpe_build" / "pins.json").read_text())
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip() if pyodide_dir else "–"
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True, cwd=ROOT).stdout.strip()  # noqa: E731
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "?")
    meta = {
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "commit": git("rev-parse", "--short", "HEAD"),
        "dirty": bool(git("status", "--porcelain", "--", "site", "bpe", "build.py")),
        "machine": f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}",
        "load_start": " / ".join(f"{x:.1f}" for x in load_start),
        "load_end": " / ".join(f"{x:.1f}" for x in load_end),
        "chromium": chromium, "pyodide": pins["pyodide"]["version"],
        "pyodide_python": runs[0]["train_worker"]["python"], "cpython": platform.python_version(), "node": node_version,
        "sources": VERSION_FILE.read_text().strip() if VERSION_FILE.exists() else "python3.11-doc",
        "documents": runs[0]["train_worker"]["documents"], "runs": args.runs, "steps": args.steps,
    }
    targets, detail = targets_table(summary), details(summary)
    print(f"\nload average {meta['load_start']} → {meta['load_end']}; Chromium {chromium}; Pyodide {meta['pyodide']}")
    print(targets)
    print()
    print(detail)
    errors = [e for run in runs for e in run["errors"]]
    if errors:
        print("page errors:", *errors[:10], sep="\n  ")
    if not args.no_doc:
        OUTPUT.write_text(write_doc(targets, detail, meta, summary), encoding="utf-8")
        log(f"wrote {OUTPUT.relative_to(ROOT)}")
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "summary": summary, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
