"""The build's shipping step, without a browser: names, the page's scripts, content types, trimming."""
from __future__ import annotations

import doctest
import gzip
import json
import threading
import urllib.request

import brotli
import pytest
from bpe_build import app_snapshot, bundles, convert, serve, ship, start_snapshot, trim


@pytest.mark.parametrize("module", [app_snapshot, bundles, ship, start_snapshot, trim])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_a_shipped_file_is_gzip_under_a_name_that_follows_its_content(tmp_path, monkeypatch):
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    (tmp_path / "a.js").write_text("let a = 1;")
    entry = ship.ship(tmp_path, "a.js", "text/javascript")
    assert not (tmp_path / "a.js").exists()
    assert gzip.decompress((tmp_path / entry["file"]).read_bytes()) == b"let a = 1;"
    (tmp_path / "a.js").write_text("let a = 2;")
    assert ship.ship(tmp_path, "a.js")["file"] != entry["file"]
    assert entry["file"].startswith("a.js.") and entry["file"].endswith(".gzip") and entry["size"] == 10
    assert entry["codec"] == "gzip" and entry["packed"] == (tmp_path / entry["file"]).stat().st_size
    # Kept by the browser under the name without the codec's suffix, whatever codec brought it.
    assert entry["kept"] == entry["file"].removesuffix(".gzip") and "smaller" not in entry


def test_the_start_snapshot_is_shipped_and_named_by_a_new_worker(tmp_path, monkeypatch):
    """The build's snapshot (made in Chromium, here a stand-in) is shipped with gzip without its
    pages of zeros, named in the worker's config with its table length, its size and where its
    pages go and where numpy's libraries are, kept by no one, and the worker written again under its new content-hashed name,
    which index.html then names."""
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    page = start_snapshot.PAGE
    heap = b"heap" * (page // 4) + bytes(2 * page) + b"tail"
    places = [[9883824, 1900000, 6000], [11783840, 20000, 8100]]
    monkeypatch.setattr(start_snapshot, "capture", lambda dist, worker: (heap, {"table": 17457, "libraries": places}))
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "app.old.js").write_text("old worker")
    (tmp_path / "index.html").write_text('<script>new Worker("./app.old.js?" + query)</script>')
    config = {"shipped": {}, "keep": ["a.kept"]}
    written = []

    def write_worker(config):
        written.append(json.loads(json.dumps(config)))
        (tmp_path / "app.new.js").write_text("new worker")
        return "app.new.js"

    assert start_snapshot.add_start_snapshot(tmp_path, "app.old.js", write_worker, config) == "app.new.js"
    entry = config["shipped"][start_snapshot.PATH]
    runs = [[0, page], [3 * page, 4]]
    assert config["start_snapshot"] == {"path": start_snapshot.PATH, "table": 17457, "libraries": places,
                                        "size": len(heap), "runs": runs}
    assert written == [config]
    shipped = gzip.decompress((tmp_path / entry["file"]).read_bytes())
    assert shipped == heap[:page] + b"tail" and entry["size"] == len(shipped)
    assert config["keep"] == ["a.kept"] and "smaller" not in entry
    assert not (tmp_path / "app.old.js").exists() and not (tmp_path / start_snapshot.PATH).exists()
    assert (tmp_path / "index.html").read_text() == '<script>new Worker("./app.new.js?" + query)</script>'


def test_the_app_snapshots_are_shipped_one_per_theme_and_named_by_a_new_worker(tmp_path, monkeypatch):
    """The snapshots of the built app (made in Chromium, here stand-ins), one per theme, each taken
    in its own colour scheme: shipped with gzip without their pages of zeros, named in the worker's
    config with the function table's length they restore with, their size and where their pages
    go, kept by no one (the worker keeps the heap it makes of one), and the worker written again."""
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    page = start_snapshot.PAGE
    heaps = {"light": b"L" * page + bytes(page) + b"end", "dark": bytes(page) + b"D" * 5}
    asked = []

    def capture(dist, worker, made, dark):
        asked.append((worker, made, dark))
        return heaps["dark" if dark else "light"], {"table": 17500 + dark}

    monkeypatch.setattr(app_snapshot, "capture", capture)
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "app.old.js").write_text("old worker")
    (tmp_path / "index.html").write_text('<script>new Worker("./app.old.js?" + query)</script>')
    config = {"shipped": {}, "keep": ["a.kept"]}

    def write_worker(config):
        (tmp_path / "app.new.js").write_text(json.dumps(config))
        return "app.new.js"

    assert app_snapshot.add_app_snapshots(tmp_path, "app.old.js", write_worker, config) == "app.new.js"
    assert asked == [("app.old.js", "madeAppSnapshot", False), ("app.old.js", "madeAppSnapshot", True)]
    assert config["app_snapshots"] == {
        "light": {"path": "pyodide/app-snapshot-light.bin", "table": 17500, "size": 2 * page + 3,
                  "runs": [[0, page], [2 * page, 3]]},
        "dark": {"path": "pyodide/app-snapshot-dark.bin", "table": 17501, "size": page + 5, "runs": [[page, 5]]},
    }
    for theme, shipped in (("light", b"L" * page + b"end"), ("dark", b"D" * 5)):
        entry = config["shipped"][app_snapshot.app_path(theme)]
        assert gzip.decompress((tmp_path / entry["file"]).read_bytes()) == shipped and "smaller" not in entry
    assert config["keep"] == ["a.kept"]
    assert json.loads((tmp_path / "app.new.js").read_text()) == config and not (tmp_path / "app.old.js").exists()
    assert (tmp_path / "index.html").read_text() == '<script>new Worker("./app.new.js?" + query)</script>'


def test_an_app_snapshot_with_no_table_length_stops_the_build(tmp_path, monkeypatch):
    monkeypatch.setattr(app_snapshot, "capture", lambda dist, worker, made, dark: (b"heap", {"error": "timed out"}))
    with pytest.raises(SystemExit, match="light app snapshot"):
        app_snapshot.add_app_snapshots(tmp_path, "app.old.js", lambda config: "app.new.js", {"shipped": {}})


def test_a_file_shipped_with_brotli_is_brotli_under_its_own_suffix(tmp_path, monkeypatch):
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    text = "const merges = [];\n" * 500
    (tmp_path / "a.js").write_text(text)
    entry = ship.ship(tmp_path, "a.js", "text/javascript", codec="brotli")
    packed = (tmp_path / entry["file"]).read_bytes()
    assert brotli.decompress(packed) == text.encode()
    assert entry["file"].endswith(".brotli") and entry["codec"] == "brotli" and entry["packed"] == len(packed)
    assert len(packed) < len(gzip.compress(text.encode(), 9))
    # Cached by content: the same bytes again are not compressed again.
    assert [path.name for path in (tmp_path / "cache" / "shipped").iterdir()] == [f"{entry['sha256']}.brotli"]


def test_a_file_shipped_both_ways_is_gzip_with_a_smaller_brotli_beside_it(tmp_path, monkeypatch):
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    text = "const merges = [];\n" * 500
    (tmp_path / "a.wasm").write_text(text)
    entries = ship.ship_worker_files(tmp_path, ["a.wasm"], both=("a.wasm",))
    entry = entries["a.wasm"]
    smaller = entry["smaller"]
    assert entry["codec"] == "gzip" and smaller["codec"] == "brotli" and entry["type"] == "application/wasm"
    assert gzip.decompress((tmp_path / entry["file"]).read_bytes()) == text.encode()
    assert brotli.decompress((tmp_path / smaller["file"]).read_bytes()) == text.encode()
    assert smaller["packed"] == (tmp_path / smaller["file"]).stat().st_size < entry["packed"]
    # One content, one name to keep it under: a visit over a slow link and one on localhost share it.
    assert entry["file"] == entry["kept"] + ".gzip" and smaller["file"] == entry["kept"] + ".brotli"
    assert not (tmp_path / "a.wasm").exists()


def test_the_page_and_the_worker_are_told_where_the_brotli_decoder_is(tmp_path, monkeypatch):
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    package = tmp_path / "package"
    (package / "pkg").mkdir(parents=True)
    (package / "pkg" / "brotli_dec_wasm.js").write_text("export default async function init() {}")
    (package / "pkg" / "brotli_dec_wasm_bg.wasm").write_bytes(b"\0asm\1\0\0\0")
    decoder = ship.ship_decoder(tmp_path / "out", package)
    assert {part: entry["codec"] for part, entry in decoder.items()} == {"module": "gzip", "wasm": "gzip"}
    assert gzip.decompress((tmp_path / "out" / decoder["wasm"]["file"]).read_bytes()) == b"\0asm\1\0\0\0"
    code = ship.shipped_js(decoder)
    assert "__BROTLI_DECODER__" not in code and decoder["module"]["file"] in code
    # The file worker's part only where the script runs as the file worker: not on the page.
    marker = 'self.name === "bpe-shipped"'
    assert marker not in code and marker in ship.shipped_js(decoder, worker=True)


PAGE = """<head>
<script type="text/javascript">early();</script>
<script type="esms-options">{}</script>
<script type="text/javascript" src="static/one.js"></script>
<script type="text/javascript">uses_one();</script>
<script type="text/javascript" src="static/two&amp;.js"></script>
</head><body><script type="application/json" id="doc">{}</script>
<script type="text/javascript">render();</script></body>"""


def test_the_page_runs_its_scripts_in_order_once_the_shipped_ones_are_loaded(tmp_path, monkeypatch):
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "one.js").write_text("one")
    (tmp_path / "static" / "two&.js").write_text("two")
    html, entries = ship.ship_page(tmp_path, PAGE)  # gzip unless told
    assert [entry["file"].split(".")[0] for entry in entries] == ["static/one", "static/two&", "prerendered"]
    # Before the first shipped script, the page is as it was; from it on, every script waits.
    assert '<script type="text/javascript">early();</script>' in html
    assert '<script type="esms-options">{}</script>' in html
    assert html.count('type="text/x-bpe-later"') == 4
    assert html.index('data-shipped="0"') < html.index("uses_one") < html.index('data-shipped="1"') < html.index("render")
    # The prerendered document's JSON is shipped too; the loader puts it back into its element.
    assert '<script type="application/json" id="doc" data-shipped="2"></script>' in html
    assert gzip.decompress((tmp_path / entries[2]["file"]).read_bytes()) == b"{}"
    assert entries[2]["type"] == "application/json"
    loader = ship.page_loader(entries, {})
    assert "bpeShipped" in loader and entries[1]["file"] in loader and "__SCRIPTS__" not in loader


CONVERTED = """<script type="esms-options">{"shimMode": true}</script>
<script type="text/javascript" src="https://cdn.holoviz.org/panel/1.8.1/dist/bundled/reactiveesm/es-module-shims@^1.10.0/dist/es-module-shims.min.js"></script>
<script type="text/javascript" src="https://cdn.bokeh.org/bokeh/release/bokeh-3.7.3.min.js"></script>
<script type="text/javascript" src="https://cdn.bokeh.org/bokeh/release/bokeh-gl-3.7.3.min.js"></script>
<script type="text/javascript" src="https://cdn.bokeh.org/bokeh/release/bokeh-tables-3.7.3.min.js"></script>"""


def test_the_page_skips_the_scripts_the_app_never_uses():
    html = convert.without_unused_scripts(CONVERTED, "1.8.1", "3.7.3")
    assert "esms" not in html and "es-module-shims" not in html and "bokeh-gl" not in html
    assert "bokeh-3.7.3.min.js" in html and "bokeh-tables-3.7.3.min.js" in html  # panel.min.js requires the tables
    # A converter that no longer writes one of them (another Panel) stops the build, to be looked at.
    with pytest.raises(SystemExit, match="bokeh-gl"):
        convert.without_unused_scripts(CONVERTED.replace("bokeh-gl", "bokeh-gl2"), "1.8.1", "3.7.3")


def test_a_page_without_scripts_to_ship_stops_the_build(tmp_path):
    with pytest.raises(SystemExit, match="no <script src>"):
        ship.ship_page(tmp_path, "<head></head>")


def test_a_page_with_two_documents_stops_the_build(tmp_path, monkeypatch):
    monkeypatch.setattr(ship, "CACHE", tmp_path / "cache")
    (tmp_path / "static").mkdir()
    for name in ("one.js", "two&.js"):
        (tmp_path / "static" / name).write_text(name)
    with pytest.raises(SystemExit, match="more than one document"):
        ship.ship_page(tmp_path, PAGE + '<script type="application/json" id="other">{}</script>')


def test_serve_gives_the_types_and_cache_rules_of_a_static_host_and_compresses_nothing(tmp_path):
    names = ("a.wasm", "a.js", "a.bundle", "a.gzip", "a.brotli", "index.html", "a.0123456789abcdef.js")
    for name in names:
        (tmp_path / name).write_bytes(b"\x1f\x8b" if name == "a.gzip" else b"x")
    server = serve.make_server(tmp_path, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        types = {}
        for name in names:
            with urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/{name}") as response:
                types[name] = response.headers["Content-Type"]
                assert response.headers["Content-Encoding"] is None
                kept = "immutable" in response.headers["Cache-Control"]
                assert kept == (name == "a.0123456789abcdef.js"), (name, response.headers["Cache-Control"])
    finally:
        server.shutdown()
        server.server_close()
    assert types == {"a.wasm": "application/wasm", "a.js": "text/javascript", "a.bundle": "application/octet-stream",
                     "a.gzip": "application/octet-stream", "a.brotli": "application/octet-stream",
                     "index.html": "text/html",
                     "a.0123456789abcdef.js": "text/javascript"}


def test_the_build_leaves_out_only_what_the_page_never_reads():
    assert trim.stdlib_left_out("encodings/cp1252.pyc") and not trim.stdlib_left_out("encodings/utf_8.pyc")
    assert not trim.stdlib_left_out("encodings/__init__.pyc") and not trim.stdlib_left_out("email/parser.pyc")
    assert trim.stdlib_left_out("xmlrpc/client.pyc") and not trim.stdlib_left_out("http/client.pyc")
    assert trim.never_loaded("panel-1.8.1.dist-info/RECORD") and not trim.never_loaded("panel-1.8.1.dist-info/METADATA")
