"""How the site is shipped: from a subfolder, compressed, kept by the browser, never two builds mixed.

One browser profile visits a copy of dist/ served from /some/path/ (as project pages on common
static hosts are) three times: cold, again (every shipped file from the Cache API), and after a new
build of the app replaced the old one (only the changed file is fetched, the page is the new
build's, and the old build's files are forgotten). The server records every path asked of it, the
nested worker's too.
"""
from __future__ import annotations

import functools
import gzip
import json
import shutil
import threading
from pathlib import Path
from urllib.parse import unquote

import pytest
from bpe_build.bundles import make_bundle, read_bundle
from bpe_build.paths import DIST
from bpe_build.serve import Handler, Server
from bpe_build.ship import rename_hashed, ship
from bpe_build.trim import never_loaded, stdlib_left_out
from playwright.sync_api import expect

from conftest import OUTPUT, open_site

SUBFOLDER = "some/path"
CONFIG_START = "const CONFIG = "


class RecordingHandler(Handler):
    asked: list[str] = []

    def do_GET(self):
        self.asked.append(unquote(self.path))
        super().do_GET()


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
    return page, console, list(RecordingHandler.asked), errors


def shipped_summary(console: list[str]) -> str:
    return next(line for line in console if line.startswith("[bpe] shipped files:"))


def worker_config(folder: Path) -> tuple[Path, str, dict]:
    worker = next(folder.glob("app.*.js"))
    text = worker.read_text()
    start = text.index(CONFIG_START) + len(CONFIG_START)
    config, end = json.JSONDecoder().raw_decode(text, start)
    return worker, text[:start] + "__CONFIG__" + text[end:], config


def shipped_files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*.gzip")}


def test_the_site_works_from_a_subfolder_and_ships_compressed_files(served, profile):
    folder, url = served
    page, console, asked, errors = visit(profile, url)
    page.locator(".encode-input input").first.fill("hug pug")
    expect(page.locator(".bpe-encoded").first).to_contain_text("hug", timeout=30_000)
    assert errors == []
    assert shipped_summary(console) == "[bpe] shipped files: 0 from the cache, 6 from the network"
    assert all(path.startswith(f"/{SUBFOLDER}/") for path in asked), asked
    # What a first visit fetches is the shipped files (each a gzip stream) and small plain ones.
    fetched = {path.removeprefix(f"/{SUBFOLDER}/") for path in asked}
    assert shipped_files(folder) <= fetched
    for name in shipped_files(folder):
        assert (folder / name).read_bytes()[:2] == b"\x1f\x8b", name
    # Nothing the build left out (trim.py) was imported by the live page.
    app_worker = next(worker for worker in page.workers if "/app." in worker.url)
    modules = app_worker.evaluate("() => self.pyodide.runPython('import sys; \" \".join(sys.modules)')").split()
    assert "bpe" in modules and "panel" in modules
    imported_stdlib = [name.replace(".", "/") + ".pyc" for name in modules]
    assert [name for name in imported_stdlib if stdlib_left_out(name)] == []
    assert not any(never_loaded(name.replace(".", "/") + "/") for name in modules)
    page.close()


def test_a_second_visit_reads_every_shipped_file_from_the_cache(served, profile):
    folder, url = served
    page, console, asked, errors = visit(profile, url)
    assert errors == []
    assert shipped_summary(console) == "[bpe] shipped files: 6 from the cache, 0 from the network"
    assert [path for path in asked if path.endswith(".gzip")] == []
    page.close()


def test_a_new_build_is_never_mixed_with_an_old_one(served, profile):
    folder, url = served
    old_files = shipped_files(folder)
    worker, template, config = worker_config(folder)
    # A new build whose app differs in its title: the app bundle and the worker get new names.
    # (The title changes in the source and in its compiled, unchecked .pyc, so it keeps its length.)
    old_app = config["shipped"]["app.bundle"]
    members = read_bundle(gzip.decompress((folder / old_app["file"]).read_bytes()))
    changed = [(name, data.replace(b"Byte pair encoding, merge by merge", b"Byte pair encoding, merge by BUILD"))
               for name, data in members]
    assert changed != members
    (folder / "app.bundle").write_bytes(make_bundle(changed))
    new_app = ship(folder, "app.bundle", old_app["type"])
    (folder / old_app["file"]).unlink()
    config["shipped"]["app.bundle"] = new_app
    config["keep"] = [new_app["file"] if file == old_app["file"] else file for file in config["keep"]]
    worker.unlink()
    (folder / "app.js").write_text(template.replace("__CONFIG__", json.dumps(config)))
    new_worker = rename_hashed(folder, "app.js")
    index = folder / "index.html"
    index.write_text(index.read_text().replace(worker.name, new_worker))
    # A kept file that was damaged is fetched again, not used.
    wasm = config["shipped"]["pyodide/pyodide.asm.wasm"]["file"]
    damage = profile.new_page()
    damage.goto(url + "favicon-none")  # any page of the site's origin
    damage.evaluate("""async ([base, wasm]) => {
      const cache = await caches.open(`bpe-site ${new URL(base).pathname}`);
      await cache.put(base + wasm, new Response('not wasm'));
    }""", [url, wasm])
    damage.close()

    page, console, asked, errors = visit(profile, url)
    assert errors == [], errors
    expect(page.get_by_text("Byte pair encoding, merge by BUILD")).to_be_visible()
    assert shipped_summary(console) == "[bpe] shipped files: 4 from the cache, 2 from the network"
    gzip_asked = sorted(path.removeprefix(f"/{SUBFOLDER}/") for path in asked if path.endswith(".gzip"))
    assert gzip_asked == sorted([new_app["file"], wasm])
    # Once the new build is running, the old build's app bundle is forgotten.
    page.wait_for_function("""async ([base, old]) => {
      const keys = (await (await caches.open(`bpe-site ${new URL(base).pathname}`)).keys()).map((r) => r.url);
      return keys.length > 0 && !keys.includes(base + old);
    }""", arg=[url, old_app["file"]], timeout=30_000)
    kept = page.evaluate("""async (base) =>
      (await (await caches.open(`bpe-site ${new URL(base).pathname}`)).keys()).map((r) => r.url.slice(base.length))""",
                         url)
    assert {unquote(file) for file in kept} == (old_files - {old_app["file"]}) | {new_app["file"]}
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "site-new-build.png"))
    page.close()
