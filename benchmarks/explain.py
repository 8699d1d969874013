#!/usr/bin/env python3
"""How fast the page explains tokens: a click to the inspector drawn, and the vocabulary table on 100,000 tokens.

    .venv/bin/python benchmarks/explain.py [--clicks 30] [--keys 12] [--big-bytes 1990000] [--merges 2000]
        [--dist DIR] [--no-big]

In headless Debian Chromium, on a private copy of dist/ (built if stale), as benchmarks/site_interaction.py
does (its Session and DOM instruments are reused: a step is the input event's own timestamp to the
first DOM change that shows the result, and to the next painted frame):

1. `explainer` (the default page): --clicks clicks on chips of the merge list, each a different
   token from the one shown: click to `.bpe-inspector` naming the new id.
2. The vocabulary of cl100k_base (100,256 tokens; chosen in the table's own menu): --keys keystrokes
   into its search box (the queries below, one character at a time), each to the table's summary
   line changed; then each column heading clicked, to the table redrawn.
3. Inside the page's own Pyodide worker and in CPython: `bpe.explain.vocabulary.find` on cl100k_base for the
   same queries and sorts (best of 5 each; CPU time in CPython, wall time in the worker, whose
   `process_time` does not advance).
4. Unless --no-big: the first --big-bytes of Python's documentation sources (as site_interaction
   uses), uploaded as a file (by path, as a file chooser gives it), bytes + kinds, each line a
   document, --merges merges (with Chrome's long tasks over 50 ms recorded meanwhile), beside
   `python3 -m bpe train` on the same file (wall, median of 3) and beside `bpe.train` alone in the
   page's worker and in CPython; --clicks scrub steps (→ from round 0); then --clicks clicks
   alternating between chips of the corpus rows and of the merge list near the last round.

Prints a Markdown table with the machine's CPU and load.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
import site_interaction as si  # noqa: E402

#: Chrome's long-task timer: main-thread tasks over 50 ms, kept until read.
LONG_TASKS = """() => {
  window.bpeLongTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.bpeLongTasks.push(e.duration); })
    .observe({type: 'longtask'});
}"""
QUERIES = ("ing", "tion", " the", "日本")
TYPED = QUERIES[:3]  # typed key by key (a keystroke Playwright sends as text input has no keydown to time)
FIND_CODE = """
import json, sys, time
from bpe.explain.vocabulary import COLUMNS, find, real_vocabulary
try:
    from bpe_app.state import real_tokenizers
    encoding = real_tokenizers.load("cl100k_base")
except Exception:
    from bpe import real
    encoding = real.load("cl100k_base")
rows = real_vocabulary(encoding)
# Pyodide's process_time does not advance (no CPU clock in the browser): there, wall time, in a worker
# that does nothing else meanwhile.
clock = time.perf_counter if sys.platform == "emscripten" else time.process_time
def best(work):
    times = []
    for _ in range(5):
        start = clock(); work(); times.append(clock() - start)
    return min(times) * 1000
out = {"rows": len(rows)}
for query in QUERIES:
    out["search " + repr(query)] = best(lambda: find(rows, query))
for column in COLUMNS:
    out["sort by " + column] = best(lambda: find(rows, "", column, True))
_result = json.dumps(out)
_result
"""


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    load = Path("/proc/loadavg").read_text().split()[:3]
    return f"{model}, {shutil.os.cpu_count()} cores, load {' '.join(load)}"


def click_steps(session: si.Session, selectors: list[str], clicks: int) -> list[dict]:
    """Clicks on chips of `selectors` in turn, each naming a token other than the one inspected."""
    page, out, shown = session.page, [], None
    for k in range(clicks):
        chips = page.locator(selectors[k % len(selectors)] + " .bpe-chip[data-id]:not([data-id=unknown])")
        count = chips.count()
        for j in range(count):
            chip = chips.nth((k * 7 + j) % count)
            token = chip.get_attribute("data-id")
            if token != shown:
                break
        shown = token
        chip.scroll_into_view_if_needed()
        session.quiet(200)
        out.append(session.step(".bpe-inspector", chip.click, wanted=rf"id {token}(?!\d)|rank {int(token):,}(?![\d,])"))
    return out


def vocabulary_steps(session: si.Session, keys: int) -> tuple[list[dict], list[dict]]:
    page = session.page
    page.locator(".vocab-source select").first.select_option(label="GPT-4's cl100k_base")
    page.wait_for_function("() => { const s = window.bpeBench.find('.bpe-vocab-summary');"
                           " return s && s.textContent.includes('cl100k_base'); }", timeout=120_000)
    session.quiet(500)
    box = page.locator(".vocab-search input").first
    typed = []
    for query in TYPED:
        box.fill("")
        session.quiet(400)
        box.focus()
        for char in query:
            if len(typed) < keys:
                typed.append(session.step(".bpe-vocab-summary", lambda char=char: page.keyboard.type(char)))
    box.fill("")
    session.quiet(500)
    sorts = []
    for heading in page.locator(".bpe-vocab .bpe-sort").all():
        sorts.append(session.step(".bpe-vocab", heading.click))  # its headings show the sort
    return typed, sorts


def big_text(size: int) -> str:
    """The first `size` bytes of Python's documentation sources, cut at a character."""
    si.fetch_sources()
    text = "\n\n".join(path.read_text(encoding="utf-8") for path in sorted(si.SOURCES.rglob("*.rst.txt")))
    return text.encode("utf-8")[:size].decode("utf-8", "ignore")


def big_corpus(session: si.Session, path: Path, merges: int) -> dict:
    """Upload `path` as the corpus, as a file chooser does (Chromium reads the file itself: a buffer
    handed to Playwright would be decoded by its own script in the page, a 0.4 s task of its own)."""
    si.MERGES = merges
    session.configure()
    upload = session.page.locator("input[type=file]").first
    def choose() -> None:  # no key or mouse event starts it: the step's start is set by hand
        session.page.evaluate("() => { window.bpeBench.input = performance.now(); }")
        upload.set_input_files(str(path))

    timing = session.step(".bpe-caption", choose,
                          wanted=rf"Round \d+ of {merges}:", quiet=si.TRAIN_QUIET_MS)
    assert session.rounds()[1] == merges, session.caption()
    return timing


def command_line_train(path: Path, merges: int, runs: int = 3) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of `python3 -m bpe train` on `path` with the page's settings, each a fresh process."""
    command = [sys.executable, "-m", "bpe", "train", str(path), "--documents", "line", "--alphabet", "bytes",
               "--pretokenizer", "kinds", "--tie", "smallest", "--specials", "none", "--min-frequency", "2",
               "--merges", str(merges), "--out", os.devnull]
    out = []
    for _ in range(runs):
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=si.ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append((time.perf_counter() - start,
                    after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime))
    return out


def summary(steps: list[dict]) -> str:
    return (f"{si.percentile([s['dom'] for s in steps], 50):.0f} / {si.percentile([s['dom'] for s in steps], 95):.0f} ms"
            f" (frame p95 {si.percentile([s['frame'] for s in steps], 95):.0f} ms, n={len(steps)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--keys", type=int, default=12)
    parser.add_argument("--big-bytes", type=int, default=1_990_000)
    parser.add_argument("--merges", type=int, default=2000)
    parser.add_argument("--dist", type=Path, help="measure this built site instead of dist/")
    parser.add_argument("--no-big", action="store_true", help="skip the large corpus")
    args = parser.parse_args()
    build = si.load_build_script()
    if args.dist is None:
        build.build()
    served = Path(tempfile.mkdtemp()) / "dist"
    shutil.copytree(args.dist or build.DIST, served)
    server = build.make_server(served, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    rows = [("machine", machine())]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=si.CHROMIUM, args=si.CHROMIUM_ARGS, headless=True)
        session = si.Session(browser, url)
        try:
            rows.append(("click → inspector, explainer, p50 / p95", summary(click_steps(session, [".bpe-merges"], args.clicks))))
            typed, sorts = vocabulary_steps(session, args.keys)
            rows.append(("cl100k_base vocabulary: keystroke in the search → table, p50 / p95", summary(typed)))
            rows.append(("cl100k_base vocabulary: heading click → sorted table, p50 / p95", summary(sorts)))
            worker = si.run_in_worker(session.worker, FIND_CODE.replace("QUERIES", repr(QUERIES)))
            cpython = si.run_cpython(FIND_CODE.replace("QUERIES", repr(QUERIES)))
            for key in worker:
                if key != "rows":
                    rows.append((f"`find` {key}, Pyodide (wall) / CPython (CPU), ms", f"{worker[key]:.1f} / {cpython[key]:.1f}"))
            if not args.no_big:
                page = session.page
                page.locator(".vocab-source select").first.select_option(label="this tokenizer, at the selected round")
                page.evaluate(LONG_TASKS)
                text = big_text(args.big_bytes)
                big = served.parent / "python-docs.txt"
                big.write_text(text, encoding="utf-8")
                trained = big_corpus(session, big, args.merges)
                shown = trained["dom"] / 1000
                cli = command_line_train(big, args.merges)
                cli_wall = statistics.median(wall for wall, _ in cli)
                rows.append((f"{args.big_bytes / 1e6:.2f} MB, {args.merges:,} merges: upload → training shown, "
                             "÷ `python3 -m bpe train` on the same file (wall, median of 3)",
                             f"{shown:.1f} s ÷ {cli_wall:.2f} s = {shown / cli_wall:.2f}× "
                             f"(the command's CPU {statistics.median(cpu for _, cpu in cli):.2f} s)"))
                tasks = page.evaluate("() => window.bpeLongTasks.splice(0)")
                rows.append(("main-thread tasks over 50 ms while it trained and was shown: longest, total",
                             f"{max(tasks, default=0):.0f} ms, {sum(tasks):.0f} ms ({len(tasks)} tasks)"))
                code = si.TRAIN_CODE
                values = dict(TEXT=text, SPLIT="each line", MERGES=args.merges, REPS=2)
                worker = min(si.run_in_worker(session.worker, code, **values)["seconds"])
                cpython = min(si.run_cpython(code, **values)["seconds"])
                rows.append((f"`bpe.train` alone on the same corpus, the page's worker ÷ CPython (best of 2, wall)",
                             f"{worker:.2f} s ÷ {cpython:.2f} s = {worker / cpython:.2f}×"))
                keys = si.back_and_forth(0, args.merges, args.clicks)
                session.jump_home()
                scrub = session.scrub(keys)
                rows.append(("scrub step (← / →) from round 0, 1.99 MB, p50 / p95", summary(scrub)))
                page.locator(".round-slider").first.scroll_into_view_if_needed()
                session.jump_near_end()
                steps = click_steps(session, [".bpe-rows", ".bpe-merges"], args.clicks)
                rows.append((f"click → inspector, {args.big_bytes / 1e6:.2f} MB at round ~{session.rounds()[0]:,}, p50 / p95", summary(steps)))
            rows.append(("machine after", machine()))
        finally:
            session.close()
            browser.close()
            server.shutdown()
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print(json.dumps(dict(rows)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
