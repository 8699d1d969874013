"""The still page: the prerendered document as Bokeh draws it, written into index.html as HTML.

Without it the page is blank until Bokeh's scripts (2.5 MB) have run and drawn the prerendered
document, about 2 s on two cores, and that work shares the cores with Python's start. With it the
page is there as soon as index.html is, and its text boxes, menus and buttons are the browser's
own: the first screen (first_screen.js) sends what the visitor does to the worker and sets its
answers, each pane's HTML as the app's Python renders it, on the still page, until Bokeh has drawn
the document, which then takes the still page's place. Nothing is rendered twice: the still page is
what Bokeh drew from the prerendered document, recorded at build time in Debian's Chromium.

The page shows it (still_page.js) in a closed shadow root, its style sheets put back in, through
the browser's parser (`setHTMLUnsafe`, which reads declarative shadow roots).
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import sys
import threading
from pathlib import Path

from .paths import BUILD_ASSETS, CACHE, CHROMIUM, CHROMIUM_ARGS, PYTHON, SITE
from .util import log, run

#: The prerendered document drawn, as the page judges it (first_screen.js, `viewsDrawn`).
DRAWN = "() => window.bpeFirstScreen.viewsDrawn()"

#: Where the still page goes: before the first of Panel's root elements. Its data come with gzip,
#: in base64 (61 KB instead of 310 KB: a host need not compress the page); still_page.js draws it.
STILL_SCRIPT = """<div id="bpe-still"></div>
    <script type="application/octet-stream" id="bpe-still-data">__DATA__</script>
    <script type="text/javascript">window.bpeFirstScreen.still.parsed();</script>
"""


def capture(dist: Path) -> dict:
    """The still page of the page in `dist` ({roots, styles, head, panes}, see still_capture.js), as
    Chromium draws it with the worker blocked (Python never starts); cached by index.html. Recorded
    by the venv's Python, which has Playwright (`record`)."""
    html = (dist / "index.html").read_text()
    recorder = (BUILD_ASSETS / "still_capture.js").read_text() + Path(__file__).read_text()
    key = hashlib.sha256((html + recorder).encode()).hexdigest()[:20]
    cached = CACHE / "still" / f"{key}.json"
    if not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        run(PYTHON, "-m", "bpe_build.still", dist, cached, cwd=SITE, env=dict(os.environ, PYTHONPATH=str(SITE)))
    return json.loads(cached.read_text())


def record(dist: Path, out: Path) -> None:
    """Draw the page in `dist` in Chromium and write its still page to `out` (JSON)."""
    from playwright.sync_api import sync_playwright

    from .serve import make_server

    server = make_server(dist, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.route("**/app.*.js*", lambda route: route.abort())  # the worker: no Python
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            page.wait_for_function(DRAWN, timeout=120_000, polling=50)
            still = page.evaluate((BUILD_ASSETS / "still_capture.js").read_text(), (dist / "index.html").read_text())
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    temporary = out.with_suffix(".part")
    temporary.write_text(json.dumps(still))
    temporary.replace(out)


def with_still(html: str, still: dict) -> str:
    """The page with the still page in its body, before Panel's root elements (ids checked: the
    recorded roots must be the page's own)."""
    ids = [root["id"] for root in still["roots"]]
    if any(html.count(f'<div id="{id}" data-root-id=') != 1 for id in ids):
        raise SystemExit(f"the still page's roots {ids} are not the page's")
    first = html.index(f'<div id="{ids[0]}" data-root-id=')
    data = {"html": "".join(root["html"] for root in still["roots"]), "styles": still["styles"],
            "head": still["head"], "panes": still["panes"]}
    packed = gzip.compress(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(), 9, mtime=0)
    return html[:first] + STILL_SCRIPT.replace("__DATA__", base64.b64encode(packed).decode()) + "    " + html[first:]


def add_still(dist: Path) -> None:
    """Record the still page of dist/index.html and write it in."""
    still = capture(dist)
    page = dist / "index.html"
    page.write_text(with_still(page.read_text(), still))
    log(f"the still page: {len(page.read_bytes()) / 1e3:.0f} kB of index.html")


if __name__ == "__main__":
    record(Path(sys.argv[1]), Path(sys.argv[2]))
