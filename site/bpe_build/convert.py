"""Panel's converter on site/app.py, and the converted page pointed at our own copies of its JS/CSS."""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

from .paths import (
    BOKEH_CDN, BOKEH_DIR, BUILD_ASSETS, CACHE, PANEL_CDN, PANEL_CDN_ROOT, PINS_FILE, PYTHON, ROOT, SITE, VENV,
)
from .util import log, run, tree_digest


def app_sources() -> list[Path]:
    """Files of site/ that make up the app (everything except the build machinery)."""
    return sorted(path for path in SITE.rglob("*")
                  if path.is_file() and BUILD_ASSETS not in path.parents
                  and "__pycache__" not in path.parts and path.suffix not in (".pyc",))


def convert_app() -> Path:
    """Run Panel's converter on site/app.py (prerendered page); cached by the app's sources."""
    key = tree_digest([SITE / "app.py", *app_sources(), ROOT / "bpe", PINS_FILE])[:20]
    out = CACHE / "convert" / key
    if (out / "app.html").exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SITE), str(ROOT)]))
    started = time.time()
    log("converting site/app.py with Panel's converter (the prerendered page) ...")
    run(VENV / "bin" / "panel", "convert", SITE / "app.py", "--to", "pyodide-worker", "--out", out,
        "--requirements", "bpe", cwd=SITE, env=env)
    log(f"converted site/app.py in {time.time() - started:.1f} s")
    return out


#: The workers, started first: the file worker (shipped_worker.js), told at once which files to
#: fetch, then the app's worker, given a port to it. Started here, the file worker asks for
#: Pyodide's files before the app's worker has arrived (over 20 Mbit/s + 40 ms its script comes
#: 0.25 s after the page's first byte, and the file worker it started asked 0.15 s after that).
#: The first screen's script (first_screen.js) listens to the app's worker before Panel's page does.
#: The worker cannot ask for the system's colour scheme, so the page tells it in
#: the address; a test holds Panel back with `window.bpeHoldPanel`, set before the page's scripts run
#: (or until it calls `window.bpeReleaseApp()`, with `window.bpeHoldApp`),
#: and the build has the worker make its snapshots with `window.bpeMakeStartSnapshot` and
#: `window.bpeMakeAppSnapshot` (start_snapshot.py, app_snapshot.py).
EARLY_WORKER = """    <script type="text/javascript">
      window.bpeEarlyMessages = [];
      (() => {
        const files = new MessageChannel();
        const code = URL.createObjectURL(new Blob([__FILE_WORKER_JS__], { type: "text/javascript" }));
        new Worker(code, { name: "bpe-shipped" }).postMessage(
          { base: new URL(".", location.href).href, ...__FIRST_FILES__, port: files.port1 }, [files.port1]);
        window.bpeWorker = new Worker("./app.js?" + new URLSearchParams([
          ...(matchMedia("(prefers-color-scheme: dark)").matches ? [["theme", "dark"]] : []),
          ...(window.bpeHoldPanel ? [["hold-panel", "1"]] : []), ...(window.bpeHoldApp ? [["hold-app", "1"]] : []),
          ...(window.bpeMakeStartSnapshot ? [["make-start-snapshot", "1"]] : []),
          ...(window.bpeMakeAppSnapshot ? [["make-app-snapshot", "1"]] : []), ["files", "page"],
          ["t0", String(performance.timeOrigin)]]));
        window.bpeWorker.postMessage({ type: "files", port: files.port2 }, [files.port2]);
        window.bpeReleaseApp = () => window.bpeWorker.postMessage({ type: "release-app" });
      })();
    </script>
    <script type="text/javascript">
__FIRST_SCREEN_JS__
    </script>
    <script type="text/javascript">
      window.bpeWorker.onmessage = (event) => window.bpeEarlyMessages.push(event);
    </script>"""


def early_worker(worker: str = "", file_worker: str = "", first_files: dict | None = None) -> str:
    """EARLY_WORKER with the first screen's scripts in it (places.js, which it uses, first); given
    the app's worker's file name, the file worker's code and the files it loads first, filled in."""
    scripts = "\n".join((BUILD_ASSETS / name).read_text()
                         for name in ("places.js", "adopt.js", "hand_over.js", "still_page.js", "first_screen.js"))
    page = EARLY_WORKER.replace("__FIRST_SCREEN_JS__", scripts)
    if not worker:
        return page
    # Its comment lines left out: the page's first bytes carry it (11 kB of its 20). In a JavaScript
    # string "<\/" is "</": the code may not end the page's <script> element.
    code = json.dumps(without_comment_lines(file_worker)).replace("</", "<\\/")
    return (page.replace("./app.js", f"./{worker}").replace("__FILE_WORKER_JS__", code)
            .replace("__FIRST_FILES__", json.dumps(first_files)))


def without_comment_lines(code: str) -> str:
    """JavaScript without its lines that are only a comment (no template literal of this build's
    spans lines).

    >>> without_comment_lines("// why\\nconst a = 1;  // kept\\n  // gone\\n")
    'const a = 1;  // kept\\n'
    """
    return "".join(line for line in code.splitlines(keepends=True) if not line.lstrip().startswith("//"))


#: While Python starts, the prerendered page is greyed out and takes no clicks, and the phase
#: (Panel's "Loading Python", "Loading packages", ...) is a card in the page's own font. In the
#: system's dark mode the page is dark from the start (the worker then draws Panel's dark widgets).
LOADING_STYLE = """    <style>
      /* Greyed while Python starts; Panel's cover (body.pn-loading::after, loading.css) takes the clicks and
         shows the progress cursor. No inherited property (cursor, pointer-events, user-select) is set on the
         page: changing one when the first screen answers restyled the whole still page, 60-90 ms of the
         page's thread between the first answer and its text on screen. */
      body.pn-loading > [data-root-id] > *, body.pn-loading > #bpe-still { filter: grayscale(1) opacity(0.45); }
      /* Bokeh's document is drawn out of sight while the still page shows (first_screen.js) */
      body.bpe-still > [data-root-id] > * { position: absolute; left: 0; top: 0; width: 100%; visibility: hidden; }
      body.pn-loading .pn-loading-msg {
        position: fixed; top: auto; bottom: 16%; left: 50%; transform: translateX(-50%); width: auto; z-index: 1001;
        filter: none;
        font: 600 18px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
        background: #ffffff; border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 18px;
        box-shadow: 0 4px 16px rgba(31, 35, 40, 0.15);
      }
      body.pn-loading .pn-loading-msg::after { content: " …"; }
      /* Nothing turns while Python starts. Panel's spinner is an animated mask over the whole page, and
         drawing it took 0.3-0.5 s of the two cores from Python's start; a small one in the card took
         0.1-0.3 s (every frame draws the greyed page again). The card says what is being done. */
      body.pn-loading::before { display: none; }
      /* The first screen answers: the page is live, and the card is a small line at the bottom. */
      body.pn-loading.bpe-first { overflow: visible; }
      /* Panel's spinner and its cover, over the whole page */
      body.pn-loading.bpe-first::before, body.pn-loading.bpe-first::after { display: none; }
      body.pn-loading.bpe-first > [data-root-id] > *, body.pn-loading.bpe-first > #bpe-still { filter: none; }
      body.pn-loading.bpe-first .pn-loading-msg { bottom: 12px; font-size: 13px; font-weight: 400; padding: 6px 12px; }
      body.pn-loading.bpe-first .pn-loading-msg::after { content: none; }
      @media (prefers-color-scheme: dark) {
        html, body { background: #0d1117; color: #e6edf3; color-scheme: dark; }
        body.pn-loading .pn-loading-msg { background: #151b23; color: #e6edf3; border-color: #3d444d; }
      }
    </style>
"""


#: Scripts Panel's converter puts in every page, which this app never uses: Bokeh's WebGL (no
#: plot here: the chart is SVG) and the ES module shims of Panel's ReactiveESM (the app's own
#: models are ReactiveHTML). 0.25 MB of JavaScript less to compile and run on the page's thread
#: before the first screen can answer. (Bokeh's tables must stay: panel.min.js requires them as it
#: loads.) A model that needed one would stop the page with "could not resolve type": a page error,
#: which the browser tests record and assert there is none of.
UNUSED_SCRIPTS = (
    '<script type="esms-options">{"shimMode": true}</script>',
    '<script type="text/javascript" src="https://cdn.holoviz.org/panel/{panel}/dist/bundled/reactiveesm/'
    'es-module-shims@^1.10.0/dist/es-module-shims.min.js"></script>',
    '<script type="text/javascript" src="https://cdn.bokeh.org/bokeh/release/bokeh-gl-{bokeh}.min.js"></script>',
)


def without_unused_scripts(html: str, panel_version: str, bokeh_version: str) -> str:
    """The converted page without UNUSED_SCRIPTS (each must be there once: Panel may change it)."""
    for script in UNUSED_SCRIPTS:
        script = script.replace("{panel}", panel_version).replace("{bokeh}", bokeh_version)
        if html.count(script) != 1:
            raise SystemExit(f"cannot patch the converted page: {script!r} not found exactly once")
        html = html.replace(script, "")
    return html


def patch_page(html: str) -> str:
    """Point the converted page at our own copies of Bokeh's and Panel's JS/CSS."""
    html = html.replace(BOKEH_CDN, BOKEH_DIR)
    html = html.replace(PANEL_CDN, PANEL_CDN_ROOT)
    # A phone lays the page out at its own width (without this, at 980 px, zoomed out).
    html = html.replace("<head>", '<head>\n    <meta name="viewport" content="width=device-width, initial-scale=1">\n'
                        '    <link rel="icon" href="data:,">\n' + LOADING_STYLE
                        + early_worker(), 1)
    # Panel's page creates the worker at the end of <body>, after Bokeh's scripts have loaded; the
    # worker is started at the top of <head> instead, and status messages it sends before Panel's
    # handler exists are replayed to that handler.
    for old, new in (
        ('const pyodideWorker = new Worker("./app.js");', "const pyodideWorker = window.bpeWorker;"),
        ("pyodideWorker.onmessage = async (event) => {",
         "setTimeout(() => window.bpeEarlyMessages.splice(0).forEach((e) => pyodideWorker.onmessage(e)), 0);\n"
         "      pyodideWorker.onmessage = async (event) => {"),
        # The app's document takes over the prerendered one in place (adopt.js); if it cannot, it is
        # drawn beside it, and the two change places once it is (first_screen.js).
        ("const root_els = document.querySelectorAll('[data-root-id]')",
         "const adopted = await window.bpeFirstScreen.adopt(docs_json)\n"
         "          const root_els = adopted ? [] : document.querySelectorAll('[data-root-id]')"),
        ("el.innerHTML = ''\n             data_roots.push([el.getAttribute('data-root-id'), el.id])",
         "data_roots.push([el.getAttribute('data-root-id'), window.bpeFirstScreen.container(el).id])"),
        ("Bokeh.index.roots.map((v) => v.remove())", "const prerenderedViews = [...Bokeh.index.roots]"),
        ("const [views] = await Bokeh.embed.embed_items(docs_json, render_items)",
         "const [views] = adopted ? [adopted] : await Bokeh.embed.embed_items(docs_json, render_items)\n"
         "          if (!adopted) window.bpeFirstScreen.swap(prerenderedViews, views)"),
        # The first screen hands over once Panel's document is linked (first_screen.js).
        ("pyodideWorker.postMessage({'type': 'rendered'})",
         "pyodideWorker.postMessage({'type': 'rendered'})\n          window.bpeFirstScreen.linked()"),
    ):
        if html.count(old) != 1:
            raise SystemExit(f"cannot patch the converted page: {old!r} not found exactly once")
        html = html.replace(old, new)
    leftovers = sorted(set(re.findall(r"https?://[^\s\"'<>)]+", html)))
    external = [url for url in leftovers if not url.startswith(("http://www.w3.org/",))]
    if external:
        raise SystemExit(f"the converted page still references external addresses: {external}")
    return html


def copy_static(out: Path, html: str, panel_version: str, bokeh_version: str) -> None:
    """Copy Bokeh's and Panel's JS/CSS that the page (and Panel's models) refer to."""
    site_packages = Path(subprocess.check_output(
        [str(PYTHON), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True).strip())
    bokeh_js = site_packages / "bokeh" / "server" / "static" / "js"
    for name in sorted(set(re.findall(re.escape(BOKEH_DIR) + r"([\w.-]+\.js)", html))):
        source_name = name.replace(f"-{bokeh_version}", "")
        target = out / BOKEH_DIR / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(bokeh_js / source_name, target)
    panel_dist = site_packages / "panel" / "dist"
    target_dist = out / PANEL_CDN_ROOT / panel_version / "dist"
    wanted = {"panel.min.js", "css", "assets", "bundled/theme", "bundled/reactiveesm"}
    prefix = f"{PANEL_CDN_ROOT}{panel_version}/dist/"
    for ref in re.findall(re.escape(prefix) + r"([^\s\"'<>?]+)", html):
        parts = ref.split("/")
        wanted.add("/".join(parts[:2]) if parts[0] == "bundled" else ref)
    for item in sorted(wanted):
        source = panel_dist / item
        if source.is_dir():
            shutil.copytree(source, target_dist / item, dirs_exist_ok=True)
        elif source.is_file():
            (target_dist / item).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target_dist / item)
    theme_follows_system(target_dist / "bundled" / "theme")


def theme_follows_system(themes: Path) -> None:
    """Panel's light theme, with its dark theme under the system's dark mode.

    The prerendered page, which the first screen answers on, is drawn with the light theme; the
    worker builds the app with the dark one when the system is dark. A theme file is Panel's
    colours as CSS variables, so the light one holding the dark one's for `prefers-color-scheme:
    dark` draws the first screen's inputs, selects and buttons dark from the start, as the app
    draws them after the hand-over: no light widgets, no flash."""
    light, dark = themes / "default.css", themes / "dark.css"
    if not light.is_file() or not dark.is_file() or ":root" not in dark.read_text():
        raise SystemExit(f"Panel's themes are not where the build expects them: {light}, {dark}")
    light.write_text(f"{light.read_text()}\n@media (prefers-color-scheme: dark) {{\n{dark.read_text()}}}\n")


def app_archive() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in app_sources():
            info = zipfile.ZipInfo(str(path.relative_to(SITE)), date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()
