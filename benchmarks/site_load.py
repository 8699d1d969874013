#!/usr/bin/env python3
"""How fast the built site loads: cold cache, headless Debian Chromium, dist/ served on 127.0.0.1.

    .venv/bin/python benchmarks/site_load.py [--runs 5] [--link 20:40] [--second-visit] [--dist DIR] [--json out.json]
                                             [--waterfall] [--js-flags=--liftoff-only]

Run `python3 build.py build` (or `build.py test`) first; this script builds dist/ if it is stale.
Each run uses a new browser context, so nothing is cached; with --second-visit the page is opened
once in that context first (and left open until its worker has kept its memory snapshot of
Python) and the second visit is the one measured (what the browser kept is used). --link MBIT:RTT_MS serves through a simulated link: every request waits one round trip
(HTTP/1.0, so a new connection each time: two round trips), and all responses share MBIT Mbit/s.
The served bytes are counted by the server itself, so the worker's requests count too.
Reported per run, in seconds from the start of navigation:

    prerendered  first contentful paint (Panel's prerendered page)
    first-edit   the text typed into the encoder as soon as the page was there (its still page, if
                 it has one: site/bpe_build/still_page.js) ("strawberry") came back as chips: from
                 the first screen (bpe_app/first_screen.py), or from the full app if it answered first
    arrow        the → key pressed right after it was answered (round 1's caption shown)
    rendered     the worker's live document replaced the prerendered one (body lost .pn-loading)
    interactive  an edit typed after that came back from the full app (chips re-rendered)
    MB           bytes served from the start of navigation until interactive
    pace-mbit    the pace the worker measured from its first files, and whether it therefore took
    brotli       the big files with brotli (1) or gzip (0)

plus the worker's own phase marks ([bpe-timing] lines: Pyodide loaded, packages loaded, app built)
and the page's (page:scripts-run, Bokeh's and Panel's JavaScript run; page:first-doc, the
prerendered document drawn by Bokeh, when the encoder can first be typed in; page:first-shown,
the first screen's first answer set on it).
"""
from __future__ import annotations

import argparse
import functools
import json
import re
import statistics
import sys
import threading
import time
import types
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


# Panel renders into nested shadow roots; find the first match at any depth.
DEEP_QUERY = """(() => {
  function deep(root, selector) {
    const found = root.querySelector(selector);
    if (found) return found;
    for (const node of root.querySelectorAll('*')) {
      if (node.shadowRoot) {
        const inner = deep(node.shadowRoot, selector);
        if (inner) return inner;
      }
    }
    return null;
  }
  return """


def load_build_script():
    """The build's steps this script uses, from the site's bpe_build package."""
    sys.path.insert(0, str(ROOT / "site"))
    from bpe_build import assemble, fetch, paths, serve

    return types.SimpleNamespace(build=assemble.build, DIST=paths.DIST, make_server=serve.make_server,
                                 fetch_pyodide=fetch.fetch_pyodide)


class Link:
    """A shared link: a round-trip delay per request and one bandwidth for all responses."""

    def __init__(self, mbit: float | None = None, rtt_ms: float = 0.0):
        self.rate = mbit * 1e6 / 8 if mbit else None  # bytes per second
        self.rtt = rtt_ms / 1000
        self.lock = threading.Lock()
        self.free_at = 0.0  # when the link has sent everything queued so far
        self.served = 0
        self.requests: list[tuple[str, float, float, float, int]] = []  # path, asked, first byte, last, bytes

    def send(self, write, data: bytes) -> None:
        for start in range(0, len(data), 16384):
            chunk = data[start:start + 16384]
            if self.rate:
                with self.lock:
                    self.free_at = max(self.free_at, time.monotonic()) + len(chunk) / self.rate
                    wait = self.free_at - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            write(chunk)
            with self.lock:
                self.served += len(chunk)


def make_handler(served, link: Link):
    """The server's handler (a functools.partial naming the folder), sending through the link."""
    class Handler(served.func):
        def handle_one_request(self):
            self.asked = time.monotonic()
            time.sleep(2 * link.rtt)  # connection set-up and the request itself
            super().handle_one_request()

        def copyfile(self, source, outputfile):
            data, first = source.read(), time.monotonic()
            link.send(outputfile.write, data)
            link.requests.append((self.path, self.asked, first, time.monotonic(), len(data)))

    return functools.partial(Handler, *served.args, **served.keywords)


KEPT = "[bpe] kept a snapshot"
#: The file worker's choice of codec for the big files, by the pace the first files came at.
CODEC_CHOSEN = re.compile(r"\[bpe\] the link brought the first files at (\d+) Mbit/s: the big ones come with (\w+)")


def open_once(context, url: str, link: Link, keep: bool = False) -> dict[str, float]:
    """One visit; with `keep`, the page stays open until the worker has kept the snapshot it made
    (if it made one), as a reader's page would, so that the next visit can start from it."""
    link.served = 0
    link.requests.clear()
    page = context.new_page()
    phases: dict[str, float] = {}
    said: list[str] = []

    def on_console(message):
        said.append(message.text)
        match = re.match(r"\[bpe-timing\] (\S+) (\d+) ms", message.text)
        if match:
            phases[f"worker:{match.group(1)}"] = int(match.group(2)) / 1000
        chosen = CODEC_CHOSEN.match(message.text)
        if chosen and "brotli" not in phases:  # the first choice: the wasm's
            phases["pace-mbit"] = float(chosen.group(1))
            phases["brotli"] = float(chosen.group(2) == "brotli")

    page.on("console", on_console)
    opened = time.monotonic()
    page.goto(url)
    early = page.evaluate("() => 'bpeFirstScreen' in window")  # an older build has no first screen
    if early:
        first_edit, arrow = early_answers(page)
    rendered = page.wait_for_function(
        "() => !document.body.classList.contains('pn-loading') && performance.now()", timeout=180_000,
        polling=10).json_value()
    encoded = page.locator(".bpe-encoded").first
    before = encoded.inner_html()
    page.locator(".encode-input input").first.fill("benchmark")
    interactive = page.wait_for_function(
        DEEP_QUERY + "([before]) => { const e = deep(document, '.bpe-encoded');"
        " return e && e.innerHTML !== before && performance.now(); }\n})()",
        arg=[before], timeout=60_000, polling=20).json_value()
    if not early:  # the full app answers the first edit and the first →
        first_edit, arrow = interactive, press_right(page)
    served = link.served
    if WATERFALL:
        print_waterfall(link.requests, opened, phases)
    paint = page.evaluate(
        "() => (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime")
    waited = 0
    while keep and "worker:snapshot-made" in phases and not any(line.startswith(KEPT) for line in said):
        if waited > 120_000:
            raise SystemExit("the worker made a snapshot but did not keep it within 2 minutes")
        page.wait_for_timeout(100)  # lets Playwright deliver the console events meanwhile
        waited += 100
    page.close()
    return {"prerendered": paint / 1000, "first-edit": first_edit / 1000, "arrow": arrow / 1000,
            "rendered": rendered / 1000, "interactive": interactive / 1000, "MB": served / 1e6, **phases}


WATERFALL = False  # --waterfall


def print_waterfall(requests, opened: float, phases: dict[str, float]) -> None:
    """Each file the server sent until the full app answered: when it was asked for, when its first
    and last bytes were sent (seconds from the page's opening, by the server's clock) and its size."""
    print(f"{'asked':>6} {'first':>6} {'last':>6} {'kB':>7}  file")
    for path, asked, first, last, size in sorted(requests, key=lambda request: request[1]):
        print(f"{asked - opened:6.2f} {first - opened:6.2f} {last - opened:6.2f} {size / 1000:7.0f}  {path}")
    print("first edit at " + ", ".join(f"{phases[key]:.2f} s ({key})" for key in phases if "first-screen" in key))


#: The page's still page, once drawn (a build without one: null; see site/bpe_build/still_page.js).
STILL_ROOT = "() => window.bpeFirstScreen.still ? window.bpeFirstScreen.still.root() : null"
#: The encoder's text box and chips: on the still page while it shows, else in the page.
STILL_FIRST = """() => {
  const still = window.bpeFirstScreen.still;
  return still ? Boolean(still.root()) || !still.page() : true;
}"""


def early_answers(page) -> tuple[float, float]:
    """Type into the encoder the moment the page is there (its still page, if it has one), then
    press →: when each was answered."""
    from playwright.sync_api import Error as PlaywrightError

    page.wait_for_function(STILL_FIRST, timeout=60_000, polling=10)
    root = page.evaluate_handle(STILL_ROOT)
    try:
        if not page.evaluate("(root) => root !== null", root):
            raise LookupError("no still page")
        page.evaluate_handle(DEEP_QUERY + "(root) => deep(root, '.encode-input').shadowRoot.querySelector('input')\n})()",
                             root).as_element().fill("strawberry")
    except (LookupError, PlaywrightError):  # none, or Bokeh's drawing took its place meanwhile (a second visit)
        box = page.locator(".encode-input input").first
        box.wait_for(timeout=60_000)
        box.fill("strawberry")
    first_edit = page.wait_for_function(
        DEEP_QUERY + "() => { const s = window.bpeFirstScreen.still; const root = s && s.root();"
        " const e = deep(root || document, '.bpe-encoded');"
        " return e && e.textContent.replace(/\\s/g, '').startsWith('strawberry') && performance.now(); }\n})()",
        timeout=180_000, polling=10).json_value()
    return first_edit, press_right(page)


def press_right(page) -> float:
    """Press → (off the text box) at round 0: when round 1's caption was shown (on the still page
    while it shows)."""
    page.evaluate("() => { const s = window.bpeFirstScreen && window.bpeFirstScreen.still;"
                  " let a = (s && s.root() && s.root().activeElement) || document.activeElement;"
                  " while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;"
                  " if (a && a.blur) a.blur(); }")
    page.keyboard.press("ArrowRight")
    return page.wait_for_function(
        DEEP_QUERY + "() => { const s = window.bpeFirstScreen && window.bpeFirstScreen.still;"
        " const e = deep((s && s.root()) || document, '.bpe-caption');"
        " return e && e.textContent.startsWith('Round 1 of') && performance.now(); }\n})()",
        timeout=180_000, polling=10).json_value()


def one_run(browser, url: str, link: Link, second_visit: bool) -> dict[str, float]:
    context = browser.new_context()
    if second_visit:
        open_once(context, url, link, keep=True)
    result = open_once(context, url, link)
    context.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--link", metavar="MBIT:RTT_MS", help="simulate a link, for example 20:40")
    parser.add_argument("--second-visit", action="store_true", help="measure a second visit (same browser profile)")
    parser.add_argument("--dist", type=Path, help="serve this folder (say an older build's dist/) as it is")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--waterfall", action="store_true", help="print when each file was sent, run by run")
    parser.add_argument("--js-flags", metavar="FLAGS",
                        help="V8 flags for the browser, to see what stands in the way (say --liftoff-only: "
                             "WebAssembly never tiers up to TurboFan); a page cannot set them")
    args = parser.parse_args()
    global WATERFALL
    WATERFALL = args.waterfall
    mbit, rtt = (float(part) for part in args.link.split(":")) if args.link else (None, 0.0)
    link = Link(mbit, rtt)

    build = load_build_script()
    if not args.dist:
        build.build()
    dist = args.dist or build.DIST
    size = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
    server = build.make_server(dist, 0)
    server.RequestHandlerClass = make_handler(server.RequestHandlerClass, link)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"

    results = []
    with sync_playwright() as playwright:
        flags = [f"--js-flags={args.js_flags}"] if args.js_flags else []
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS + flags,
                                             headless=True)
        for index in range(args.runs):
            result = one_run(browser, url, link, args.second_visit)
            results.append(result)
            print(f"run {index + 1}: " + "  ".join(f"{k} {v:.2f}" for k, v in result.items()), flush=True)
        browser.close()
    server.shutdown()

    keys = list(results[0])
    summary = {key: statistics.median(r[key] for r in results if key in r) for key in keys}
    print(f"{dist}: {size / 1e6:.1f} MB; link: {args.link or 'localhost'}; second visit: {args.second_visit}"
          + (f"; V8 flags: {args.js_flags}" if args.js_flags else ""))
    print("median: " + "  ".join(f"{k} {v:.2f} s" for k, v in summary.items()))
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "median": summary, "dist_bytes": size}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
