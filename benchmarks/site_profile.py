#!/usr/bin/env python3
"""Where a page load's time goes, thread by thread: one visit with a Chrome trace and V8's CPU
profiler, and the self time of each function between two of the page's marks.

    .venv/bin/python benchmarks/site_profile.py [--dist DIR] [--second-visit] [--link 20:40]
        [--between compiled before-python] [--top 15] [--trace out.json]

The visit is site_load.py's (the text typed the moment the page is there, → pressed once it is
answered); the marks are its worker's and page's `[bpe-timing]` lines, in ms from the page's
navigation (`worker:` left off: `compiled`, `before-python`, `page:first-shown`, ...). Without
--between the window is the whole visit. For each thread with samples in it: its busy time (all
but `(idle)`; `(program)` is the browser's own work, parsing and layout among it) and its
functions by self time. Times are under tracing, which slows the page: compare them with each
other, not with site_load.py's.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

import site_load

CATEGORIES = ["disabled-by-default-v8.cpu_profiler", "v8", "v8.execute", "devtools.timeline", "toplevel",
              "blink.user_timing"]  # (the last for navigationStart)


def events_of(trace: dict | list) -> list[dict]:
    return trace["traceEvents"] if isinstance(trace, dict) else trace


def navigation_start(events: list[dict], url: str) -> float:
    """When the visit to `url` began, in the trace's clock (µs): its last main-frame navigation."""
    starts = [e["ts"] for e in events if e.get("name") == "navigationStart"
              and e.get("args", {}).get("data", {}).get("documentLoaderURL") == url]
    if not starts:
        raise SystemExit(f"the trace holds no navigation to {url}")
    return max(starts)


def self_times(events: list[dict], start: float, window: tuple[float, float]) -> dict[str, collections.Counter]:
    """{thread name (pid:tid): Counter(function -> ms)} of the V8 samples taken in `window` (ms from
    `start`, in µs of the trace's clock).

    >>> events = [
    ...     {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "Worker"}},
    ...     {"name": "Profile", "id": "p", "pid": 1, "tid": 2, "args": {"data": {"startTime": 1000}}},
    ...     {"name": "ProfileChunk", "id": "p", "pid": 1, "tid": 2, "args": {"data": {
    ...         "cpuProfile": {"nodes": [{"id": 1, "callFrame": {"functionName": "inflate", "url": "a.js",
    ...                                                       "lineNumber": 3}}],
    ...                        "samples": [1, 1, 1]},
    ...         "timeDeltas": [1000, 1000, 5000]}}}]
    >>> self_times(events, 0, (0, 3))
    {'Worker (1:2)': Counter({'inflate a.js:3': 2.0})}
    """
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    profiles = {}
    for e in events:
        if e.get("name") == "Profile":
            profiles[e["id"]] = {"thread": (e["pid"], e["tid"]), "at": e["args"]["data"]["startTime"],
                                 "nodes": {}, "samples": [], "deltas": []}
    for e in events:
        profile = profiles.get(e.get("id")) if e.get("name") == "ProfileChunk" else None
        if profile is None:
            continue
        data = e["args"]["data"]
        for node in data.get("cpuProfile", {}).get("nodes", []):
            profile["nodes"][node["id"]] = node
        profile["samples"] += data.get("cpuProfile", {}).get("samples", [])
        profile["deltas"] += data.get("timeDeltas", [])
    times: dict[str, collections.Counter] = {}
    for profile in profiles.values():
        pid, tid = profile["thread"]
        tally, at = collections.Counter(), profile["at"]
        for sample, delta in zip(profile["samples"], profile["deltas"]):
            at += delta
            if window[0] <= (at - start) / 1000 <= window[1]:
                frame = profile["nodes"].get(sample, {}).get("callFrame", {})
                where = frame.get("url", "").rsplit("/", 1)[-1][:40]
                name = f"{frame.get('functionName') or '(anonymous)'}" + (f" {where}:{frame.get('lineNumber')}" if where else "")
                tally[name] += delta / 1000
        if tally:
            times[f"{names.get((pid, tid), '?')} ({pid}:{tid})"] = tally
    return times


def report(times: dict[str, collections.Counter], top: int) -> None:
    for thread, tally in sorted(times.items(), key=lambda item: -sum(item[1].values())):
        busy = sum(ms for name, ms in tally.items() if name != "(idle)")
        if busy < 5:
            continue
        print(f"{thread}: {busy:.0f} ms busy of {sum(tally.values()):.0f} ms sampled")
        for name, ms in tally.most_common(top):
            print(f"  {ms:7.1f} ms  {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, help="serve this folder as it is (default: build dist/)")
    parser.add_argument("--second-visit", action="store_true")
    parser.add_argument("--link", metavar="MBIT:RTT_MS")
    parser.add_argument("--between", nargs=2, metavar=("FROM", "TO"), help="two marks, e.g. compiled before-python")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--trace", type=Path, help="keep the Chrome trace here")
    args = parser.parse_args()

    build = site_load.load_build_script()
    if not args.dist:
        build.build()
    mbit, rtt = (float(part) for part in args.link.split(":")) if args.link else (None, 0.0)
    link = site_load.Link(mbit, rtt)
    server = build.make_server(args.dist or build.DIST, 0)
    server.RequestHandlerClass = site_load.make_handler(server.RequestHandlerClass, link)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    trace_path = args.trace or Path(tempfile.mkdtemp()) / "trace.json"
    marks: dict[str, float] = {}

    def on_console(message):
        parts = message.text.split()
        if len(parts) == 4 and parts[0] == "[bpe-timing]" and parts[3] == "ms":
            marks[parts[1]] = float(parts[2])

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=site_load.CHROMIUM_ARGS,
                                             headless=True)
        context = browser.new_context()
        if args.second_visit:
            site_load.open_once(context, url, link, keep=True)
        page = context.new_page()
        page.on("console", on_console)
        browser.start_tracing(page=page, path=str(trace_path), categories=CATEGORIES)
        page.goto(url)
        first_edit, _ = site_load.early_answers(page)
        page.wait_for_timeout(2000)
        browser.stop_tracing()
        browser.close()
    server.shutdown()

    events = events_of(json.loads(trace_path.read_text()))
    window = (0.0, float("inf"))
    if args.between:
        missing = [mark for mark in args.between if mark not in marks]
        if missing:
            raise SystemExit(f"no mark {missing} in this visit; its marks: {', '.join(marks)}")
        window = (marks[args.between[0]], marks[args.between[1]])
    print(f"first edit at {first_edit:.0f} ms (under tracing); window {window[0]:.0f}-{window[1]:.0f} ms; "
          f"trace in {trace_path}")
    print("marks: " + ", ".join(f"{name} {ms:.0f}" for name, ms in sorted(marks.items(), key=lambda item: item[1])))
    report(self_times(events, navigation_start(events, url), window), args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
