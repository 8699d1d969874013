#!/usr/bin/env python3
"""How fast the built site loads: cold cache, headless Debian Chromium, dist/ served on 127.0.0.1.

    .venv/bin/python benchmarks/site_load.py [--runs 5] [--json out.json]

Run `python3 build.py build` (or `build.py test`) first; this script builds dist/ if it is stale.
Each run uses a new browser context, so nothing is cached. Reported per run, in seconds from the
start of navigation:

    prerendered  first contentful paint (Panel's prerendered page)
    rendered     the worker's live document replaced the prerendered one (body lost .pn-loading)
    interactive  a first edit in the encoder came back from Python (chips re-rendered)

plus the worker's own phase marks ([bpe-timing] lines: Pyodide loaded, packages loaded, app built).
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import threading
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


def one_run(browser, url: str) -> dict[str, float]:
    context = browser.new_context()
    page = context.new_page()
    phases: dict[str, float] = {}

    def on_console(message):
        match = re.match(r"\[bpe-timing\] (\S+) (\d+) ms", message.text)
        if match:
            phases[f"worker:{match.group(1)}"] = int(match.group(2)) / 1000

    page.on("console", on_console)
    page.goto(url)
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
    paint = page.evaluate(
        "() => (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: NaN}).startTime")
    context.close()
    return {"prerendered": paint / 1000, "rendered": rendered / 1000, "interactive": interactive / 1000, **phases}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    build = load_build_script()
    build.build()
    size = sum(p.stat().st_size for p in build.DIST.rglob("*") if p.is_file())
    server = build.make_server(build.DIST, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"

    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        for index in range(args.runs):
            result = one_run(browser, url)
            results.append(result)
            print(f"run {index + 1}: " + "  ".join(f"{k} {v:.2f}" for k, v in result.items()), flush=True)
        browser.close()
    server.shutdown()

    keys = list(results[0])
    summary = {key: statistics.median(r[key] for r in results if key in r) for key in keys}
    print(f"dist/: {size / 1e6:.1f} MB")
    print("median: " + "  ".join(f"{k} {v:.2f} s" for k, v in summary.items()))
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "median": summary, "dist_bytes": size}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
