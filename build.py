#!/usr/bin/env python3
"""One entry point for the project: set-up, build, serve, test.

    python3 build.py build    # assemble the self-hosted static site in dist/
    python3 build.py serve    # build the site if needed and serve dist/ on 127.0.0.1
    python3 build.py test     # make .venv, install what the tests need, build dist/, run pytest

Every install step lives here, so a fresh clone on a fresh machine needs nothing else.
Everything fetched from outside (npm, PyPI) is pinned by version and sha256 in
site/build/pins.json; downloads and intermediate products are cached under .cache/.
"""
from __future__ import annotations

import argparse
import email.parser
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import socketserver
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
CACHE = ROOT / ".cache"
DIST = ROOT / "dist"
SITE = ROOT / "site"
BUILD_ASSETS = SITE / "build"
PINS_FILE = BUILD_ASSETS / "pins.json"
CHROMIUM = Path("/usr/bin/chromium")

# Layout of dist/ (all paths relative to dist/).
PYODIDE_DIR = "pyodide/"          # Pyodide core, precompiled stdlib, the start-up bundle, other wheels + lock
BOKEH_DIR = "static/bokeh/"       # bokeh-3.7.3.min.js & co, named as on Bokeh's CDN
PANEL_CDN_ROOT = "static/panel/"  # mirror of https://cdn.holoviz.org/panel/ (what we use of it)
PACKAGES_BUNDLE = "site-packages.bundle"  # every package the app imports at start-up (see make_bundle)
APP_BUNDLE = "app.bundle"         # site/ sources (app.py, bpe_app/) for the worker
APP_ARCHIVE = "app.zip"           # the same as a zip (a build intermediate, in .cache/)
# Inflating the 26 MB bundle costs 0.25-0.8 s of CPU in the worker while Pyodide starts; served from
# 127.0.0.1 the uncompressed bytes arrive faster than that. Set True for a host far from its users.
BUNDLE_GZIP = False
# Where files land inside Pyodide.
APP_DIR = "/home/pyodide/app"
SITE_PACKAGES = "/lib/python3.12/site-packages"  # Pyodide 0.27's (Python 3.12)

BOKEH_CDN = "https://cdn.bokeh.org/bokeh/release/"
PANEL_CDN = "https://cdn.holoviz.org/panel/"


# --------------------------------------------------------------------------- helpers

def run(*command: str | Path, **kwargs) -> subprocess.CompletedProcess:
    """Run a command, echoing it, and stop the build if it fails."""
    print("+", " ".join(str(part) for part in command), flush=True)
    return subprocess.run([str(part) for part in command], check=True, **kwargs)


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_sha256(path: Path, expected: str) -> None:
    actual = sha256_file(path)
    if actual != expected:
        raise SystemExit(f"sha256 mismatch for {path}:\n  expected {expected}\n  got      {actual}")


def tree_digest(paths: list[Path], extra: str = "") -> str:
    """A digest of file names and contents (directories walked), for cache keys."""
    digest = hashlib.sha256(extra.encode())
    for base in paths:
        files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file()) if base.exists() else []
        for path in files:
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def pins() -> dict:
    return json.loads(PINS_FILE.read_text())


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# --------------------------------------------------------------------------- set-up

def ensure_venv() -> None:
    """Create .venv with pip once; later calls reuse it."""
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)


def pip_install(*requirements: str) -> None:
    run(PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *requirements)


def pip_install_once(requirements: list[str], also_covers: tuple[str, ...] = ()) -> None:
    """pip install, skipped when the same requirements (and pyproject.toml) were installed before."""
    def marker_text(reqs) -> str:
        return "\n".join(reqs) + "\n" + (ROOT / "pyproject.toml").read_text()

    marker = VENV / f".installed-{sha256_bytes(marker_text(requirements).encode())[:16]}"
    if marker.exists():
        return
    pip_install(*requirements)
    marker.touch()
    for covered in also_covers:
        (VENV / f".installed-{sha256_bytes(marker_text(covered).encode())[:16]}").touch()


def build_requirements() -> list[str]:
    return [*pins()["build_requirements"], "-e", str(ROOT)]


def setup_build() -> None:
    """What `build` needs: the venv with Panel + Bokeh (the converter) and bpe itself."""
    ensure_venv()
    pip_install_once(build_requirements())


def setup_tests() -> None:
    ensure_venv()
    pip_install_once([*pins()["build_requirements"], *pins()["test_requirements"], "-e", f"{ROOT}[test]"],
                     also_covers=(build_requirements(),))
    ensure_chromium()


def ensure_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.geteuid() != 0:
        raise SystemExit("Debian's chromium is missing and we are not root: apt-get install -y chromium")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run("apt-get", "update", "-q", env=env)
    run("apt-get", "install", "-y", "-q", "chromium", env=env)


# --------------------------------------------------------------------------- fetching

def fetch_pyodide() -> Path:
    """npm pack pyodide@<pin>, check its sha256, unpack; returns the unpacked package dir."""
    pin = pins()["pyodide"]
    npm_dir = CACHE / "npm"
    tarball = npm_dir / pin["file"]
    target = CACHE / f"pyodide-{pin['version']}"
    if (target / ".verified").exists():
        return target
    if not tarball.exists() or sha256_file(tarball) != pin["sha256"]:
        npm_dir.mkdir(parents=True, exist_ok=True)
        run("npm", "pack", pin["npm"], "--pack-destination", npm_dir, "--silent", stdout=subprocess.DEVNULL)
    check_sha256(tarball, pin["sha256"])
    shutil.rmtree(target, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(CACHE / "pyodide-tmp", filter="data")
    (CACHE / "pyodide-tmp" / "package").rename(target)
    shutil.rmtree(CACHE / "pyodide-tmp", ignore_errors=True)
    (target / ".verified").write_text(pin["sha256"])
    return target


def pip_download(entries: list[tuple[str, str, str]], *options: str) -> None:
    """Download (requirement, file name, sha256) triples into .cache/pypi with pip, hash-checked."""
    pypi = CACHE / "pypi"
    pypi.mkdir(parents=True, exist_ok=True)
    missing = [(req, name, digest) for req, name, digest in entries
               if not (pypi / name).exists() or sha256_file(pypi / name) != digest]
    if missing:
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            for req, _, digest in missing:
                handle.write(f"{req} --hash=sha256:{digest}\n")
        try:
            run(PYTHON, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                "--require-hashes", "-d", pypi, *options, "-r", handle.name)
        finally:
            os.unlink(handle.name)
    for _, name, digest in entries:
        if not (pypi / name).exists():
            raise SystemExit(f"pip did not produce {name}")
        check_sha256(pypi / name, digest)


def fetch_pypi() -> None:
    p = pins()
    wasm = p["pyodide_wasm_wheels"]
    pip_download([(f"{wasm['pypi']}=={wasm['version']}", wasm["file"], wasm["sha256"])])
    pip_download([(f"{name}=={pin['version']}", pin["file"], pin["sha256"]) for name, pin in p["pure_wheels"].items()],
                 "--only-binary=:all:", "--platform", "any", "--python-version", "3.12",
                 "--implementation", "py", "--abi", "none")
    pip_download([(f"{name}=={pin['version']}", pin["file"], pin["sha256"]) for name, pin in p["pure_sdists"].items()],
                 "--no-binary=:all:")


# --------------------------------------------------------------------------- wheels

def wheel_bytes(files: dict[str, bytes], dist: str, version: str, requires: list[str] = (),
                tag: str = "py3-none-any") -> bytes:
    """A minimal, reproducible wheel from {archive path: content}."""
    dist_info = f"{dist.replace('-', '_')}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {req}\n" for req in requires)
    files = dict(files)
    files[f"{dist_info}/METADATA"] = metadata.encode()
    files[f"{dist_info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: bpe-build.py\nRoot-Is-Purelib: true\n"
                                   f"Tag: {tag}\n").encode()
    top = sorted({name.split("/")[0] for name in files if not name.startswith(dist_info)})
    files[f"{dist_info}/top_level.txt"] = "".join(f"{t.removesuffix('.py')}\n" for t in top).encode()
    record = "".join(f"{name},,\n" for name in sorted(files)) + f"{dist_info}/RECORD,,\n"
    files[f"{dist_info}/RECORD"] = record.encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return buffer.getvalue()


def served_apart() -> list[Path]:
    """Real tokenizers' rank tables (1.5 MB): left out of the start-up bundle and served as
    dist/assets/<file>, which the page fetches only when a comparison is first asked for."""
    return sorted((ROOT / "bpe" / "real").glob("*.ranks.gz"))


def build_bpe_wheel(out_dir: Path) -> Path:
    """The bpe wheel, from this repo's pyproject.toml (pure Python, no dependencies), without
    the files `served_apart`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name, version = project["name"], project["version"]
    package_dir = ROOT / name
    files = {str(path.relative_to(ROOT)): path.read_bytes()
             for path in sorted(package_dir.rglob("*"))
             if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo")
             and path not in served_apart()}
    if not any(f.endswith("__init__.py") for f in files):
        files[f"{name}/__init__.py"] = b""
    out = out_dir / f"{name}-{version}-py3-none-any.whl"
    out.write_bytes(wheel_bytes(files, name, version, project.get("dependencies", [])))
    return out


def build_pure_sdist_wheel(name: str, pin: dict, out_dir: Path) -> Path:
    """A py3-none-any wheel made of the sdist's Python files alone (no C speedups)."""
    files: dict[str, bytes] = {}
    with tarfile.open(CACHE / "pypi" / pin["file"]) as archive:
        root = archive.getnames()[0].split("/")[0]
        for member in archive.getmembers():
            for package in pin["packages"]:
                prefix = f"{root}/{package}/"
                if member.isfile() and member.name.startswith(prefix) and not member.name.endswith((".c", ".h", ".pyx")):
                    target = package.rsplit("/", 1)[-1] + "/" + member.name[len(prefix):]
                    files[target] = archive.extractfile(member).read()
    out = out_dir / f"{pin['dist'].replace('-', '_')}-{pin['version']}-py3-none-any.whl"
    out.write_bytes(wheel_bytes(files, pin["dist"], pin["version"]))
    return out


# What markdown-it renders for one line of words, plain punctuation and `code` spans with nothing
# linkify would take for a link, and plain text bleach returns unchanged: tests/test_build_patches.py
# checks both against markdown-it and bleach themselves.
PLAIN_PARAGRAPH = '''
def _plain_paragraph(text):
    """What markdown-it renders for `text` if it is one line of plain words (else None), without importing it."""
    import re
    words = re.sub(r"`[A-Za-z0-9_]+`", "", text)
    if (re.fullmatch(r"[A-Za-z][A-Za-z0-9 ,.:;'()-]*", words) is None or text.endswith(" ")
            or re.search(r"[A-Za-z0-9][.:][A-Za-z]|``", text) is not None):
        return None
    return "<p>" + re.sub(r"`([A-Za-z0-9_]+)`", r"<code>\\1</code>", text) + "</p>\\n"
'''
SANITIZER_PLAIN = r"[A-Za-z0-9_ .,:;/-]*"

# Small source patches to Panel, each checked to apply exactly.
PANEL_PATCHES = {
    # Panel's own CSS/JS addresses: honour PANEL_CDN_ROOT (the worker points it at dist/static/panel/).
    "panel/io/resources.py": [(
        'CDN_ROOT = "https://cdn.holoviz.org/panel/"',
        'CDN_ROOT = os.environ.get("PANEL_CDN_ROOT") or "https://cdn.holoviz.org/panel/"',
    )],
    # Without pyodide_http, panel.io.pyodide imports pandas only to patch pandas.read_csv for URLs;
    # do that only when pandas is there, so a widgets app need not ship or import pandas.
    "panel/io/pyodide.py": [(
        "if pyodide_http is None:\n    import pandas\n",
        "if pyodide_http is None and __import__('importlib.util').util.find_spec('pandas') is not None:\n"
        "    import pandas\n",
    )],
    # A widget's description is rendered with markdown-it, and ReactiveHTML passes every string
    # parameter (name, align, ...) through bleach: importing both (with html5lib) costs start-up time
    # although neither changes plain text. Plain text skips them and gets what they would give.
    "panel/widgets/base.py": [
        ("from ..viewable import Layoutable, Viewable\n",
         "from ..viewable import Layoutable, Viewable\n\n" + PLAIN_PARAGRAPH),
        ("                from ..pane.markup import Markdown\n"
         "                parser = Markdown._get_parser('markdown-it', (), Markdown.hard_line_break, **renderer_options)\n"
         "                html = parser.render(description)\n",
         "                html = None if renderer_options else _plain_paragraph(description)\n"
         "                if html is None:\n"
         "                    from ..pane.markup import Markdown\n"
         "                    parser = Markdown._get_parser('markdown-it', (), Markdown.hard_line_break, **renderer_options)\n"
         "                    html = parser.render(description)\n"),
    ],
    "panel/util/__init__.py": [(
        "    def clean(self, text):\n"
        "        if self._cleaner is None:\n",
        "    def clean(self, text):\n"
        f"        if isinstance(text, str) and re.fullmatch(r'{SANITIZER_PLAIN}', text):\n"
        "            return text  # nothing bleach would change\n"
        "        if self._cleaner is None:\n",
    )],
}


def slim_wheel(source: Path, out: Path, drop, placeholder, patches: dict[str, list[tuple[str, str]]]) -> Path:
    """Copy a wheel without files for which drop(name) holds, emptying those for which placeholder(name)."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name = info.filename
            if drop(name):
                continue
            data = b"" if placeholder(name) else zin.read(info)
            if name in patches:
                text = data.decode()
                for old, new in patches[name]:
                    if old not in text:
                        raise SystemExit(f"cannot patch {name} in {source.name}: {old!r} not found")
                    text = text.replace(old, new, 1)
                data = text.encode()
            zout.writestr(info, data)
    return out


def prepare_wheels(pyodide_pkg: Path) -> dict[str, Path]:
    """All wheels for the browser, as {normalized name: path}; sha256 checked where fetched."""
    p = pins()
    out_dir = CACHE / "wheels" / tree_digest([PINS_FILE, Path(__file__)])[:16]
    bpe_dir = CACHE / "wheels" / "bpe"
    bpe_dir.mkdir(parents=True, exist_ok=True)
    wheels: dict[str, Path] = {}
    if not (out_dir / ".done").exists():
        shutil.rmtree(out_dir, ignore_errors=True)
        out_dir.mkdir(parents=True)
        # 1. Official Pyodide wasm packages, out of the pinned PyPI wheel, checked against npm's lock.
        npm_lock = json.loads((pyodide_pkg / "pyodide-lock.json").read_text())["packages"]
        wasm = p["pyodide_wasm_wheels"]
        with zipfile.ZipFile(CACHE / "pypi" / wasm["file"]) as archive:
            for name in wasm["packages"]:
                entry = npm_lock[name]
                data = archive.read(wasm["prefix"] + entry["file_name"])
                if sha256_bytes(data) != entry["sha256"]:
                    raise SystemExit(f"{entry['file_name']} does not match Pyodide's lock")
                (out_dir / entry["file_name"]).write_bytes(data)
                if name == "numpy":  # checked as published; now without C headers, stubs, static libs
                    original = out_dir / (entry["file_name"] + ".orig")
                    (out_dir / entry["file_name"]).rename(original)
                    slim_wheel(original, out_dir / entry["file_name"],
                               drop=lambda n: n.endswith((".pyi", ".h", ".c", ".pxd", ".a", "/py.typed"))
                               or "/tests/" in n or n.startswith("numpy/_core/include/"),
                               placeholder=lambda n: False, patches={})
                    original.unlink()
        # 2. Pure wheels from PyPI, without what the browser never reads: type stubs, TypeScript
        #    sources, tests, docs tooling, and Panel's/Bokeh's bundled JS/CSS (served from dist/static).
        def never_read(n: str) -> bool:
            return n.endswith((".pyi", ".ts", ".map", "/py.typed")) or ".data/" in n.split("/")[0] + "/"

        for name, pin in p["pure_wheels"].items():
            source = CACHE / "pypi" / pin["file"]
            if name == "panel":
                slim_wheel(source, out_dir / pin["file"],
                           drop=lambda n: never_read(n) or n.startswith(
                               ("panel/tests/", "panel/dist/wheels/", "panel/dist/lib/", "panel/dist/dts/")),
                           # keep the file names (Panel checks that bundled files exist), not their content
                           placeholder=lambda n: n.startswith("panel/dist/") and not n.startswith("panel/dist/css/"),
                           patches=PANEL_PATCHES)
            elif name == "bokeh":
                slim_wheel(source, out_dir / pin["file"],
                           drop=lambda n: never_read(n) or n.startswith(
                               ("bokeh/server/static/", "bokeh/sampledata/", "bokeh/sphinxext/", "typings/")),
                           placeholder=lambda n: False, patches={})
            else:
                slim_wheel(source, out_dir / pin["file"], drop=never_read, placeholder=lambda n: False, patches={})
        # 3. Pure-Python fallbacks for PyYAML and MarkupSafe.
        for name, pin in p["pure_sdists"].items():
            build_pure_sdist_wheel(name, pin, out_dir)
        (out_dir / ".done").write_text("")
    for path in sorted(out_dir.glob("*.whl")):
        wheels[normalize(path.name.split("-")[0])] = path
    bpe = build_bpe_wheel(bpe_dir)
    wheels[normalize(bpe.name.split("-")[0])] = bpe
    return wheels


def wheel_metadata(path: Path) -> tuple[str, str, list[str], list[str]]:
    """(name, version, requirements, top-level import names) of a wheel."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(archive.read(meta_name).decode())
        tops = set()
        for n in names:
            first = n.split("/")[0]
            if first.endswith((".dist-info", ".data")):
                continue
            if "/" in n:
                tops.add(first)
            elif n.endswith((".py", ".pyc", ".so")):
                tops.add(first.split(".")[0])
    return meta["Name"], meta["Version"], meta.get_all("Requires-Dist") or [], sorted(tops)


def requirement_applies(requirement: str) -> str | None:
    """The normalized name of a Requires-Dist line if it applies in Pyodide (no extras, not excluded there)."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)
    marker = requirement.split(";", 1)[1] if ";" in requirement else ""
    if "extra" in marker or re.search(r"(sys_platform|platform_system)\s*!=\s*['\"](emscripten|Emscripten)", marker):
        return None
    return normalize(name)


def make_lock(wheels: dict[str, Path], pyodide_pkg: Path, load: list[str]) -> dict:
    """A pyodide-lock.json that lists only the vendored files.

    Dependencies come from each wheel's metadata, limited to what is vendored; a package loaded at
    start-up (in `load`) depends only on other such packages, so Bokeh's and Panel's declared
    pandas/pillow/contourpy/requests are not pulled in (they are not used by a widgets app).
    """
    npm_lock = json.loads((pyodide_pkg / "pyodide-lock.json").read_text()) if pyodide_pkg else {"packages": {}, "info": {}}
    packages = {}
    for key, path in wheels.items():
        name, version, requires, tops = wheel_metadata(path)
        depends = sorted({d for d in map(requirement_applies, requires)
                          if d and d in wheels and d != key and (key not in load or d in load)})
        entry = npm_lock["packages"].get(key)
        if entry and entry["file_name"] != path.name:
            entry = None  # same name, different file: not Pyodide's build
        packages[key] = {
            "name": name, "version": version, "file_name": path.name,
            "install_dir": "site", "sha256": sha256_file(path),
            "package_type": "package", "imports": entry["imports"] if entry else tops,
            "depends": entry["depends"] if entry else depends,
            "unvendored_tests": False,
        }
    return {"info": npm_lock["info"], "packages": packages}


# --------------------------------------------------------------------------- precompiling (Pyodide under Node)

def precompile(pyodide_pkg: Path, archives: list[tuple[Path, str, str, bool]]) -> list[Path]:
    """Python 3.12 bytecode, made by Pyodide itself under Node, for (archive, kind, prefix, keep_source).

    kind is "wheel" or "stdlib"; prefix is where the archive's files land in the browser (code objects
    carry those file names). Third-party code and the stdlib become sourceless .pyc files (what
    Pyodide's own "pyc" distribution does), so the browser neither compiles nor ships the sources;
    with keep_source (our own code) the sources stay and unchecked pycs go in __pycache__/.
    Cached by content: only archives that changed are recompiled. Returns the compiled paths.
    """
    out_root = CACHE / "pyc"
    jobs, result = [], []
    for path, kind, prefix, keep_source in archives:
        key = sha256_bytes(f"{sha256_file(path)} {kind} {prefix} {keep_source}".encode())[:20]
        target = out_root / key / path.name
        result.append(target)
        if not target.exists():
            jobs.append({"src": str(path), "dst": str(target), "kind": kind, "prefix": prefix,
                         "keep_source": keep_source})
    if jobs:
        for job in jobs:
            Path(job["dst"]).parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=out_root, prefix="jobs-", suffix=".json", delete=False) as handle:
            json.dump(jobs, handle)
        started = time.time()
        try:
            run("node", BUILD_ASSETS / "pyodide_tool.js", "precompile", pyodide_pkg, handle.name, cwd=ROOT)
        finally:
            os.unlink(handle.name)
        log(f"precompiled {len(jobs)} archives in {time.time() - started:.1f} s")
    return result


# --------------------------------------------------------------------------- converting the app

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
    run(VENV / "bin" / "panel", "convert", SITE / "app.py", "--to", "pyodide-worker", "--out", out,
        "--requirements", "bpe", cwd=SITE, env=env)
    log(f"converted site/app.py in {time.time() - started:.1f} s")
    return out


EARLY_WORKER = """    <script type="text/javascript">
      window.bpeEarlyMessages = [];
      window.bpeWorker = new Worker("./app.js");
      window.bpeWorker.onmessage = (event) => window.bpeEarlyMessages.push(event);
    </script>"""


def patch_page(html: str, panel_version: str, bokeh_version: str) -> str:
    """Point the converted page at our own copies of Bokeh's and Panel's JS/CSS."""
    html = html.replace(BOKEH_CDN, BOKEH_DIR)
    html = html.replace(PANEL_CDN, PANEL_CDN_ROOT)
    html = html.replace("<head>", '<head>\n    <link rel="icon" href="data:,">\n' + EARLY_WORKER, 1)
    # Panel's page creates the worker at the end of <body>, after Bokeh's scripts have loaded; the
    # worker is started at the top of <head> instead, and status messages it sends before Panel's
    # handler exists are replayed to that handler.
    for old, new in (
        ('const pyodideWorker = new Worker("./app.js");', "const pyodideWorker = window.bpeWorker;"),
        ("pyodideWorker.onmessage = async (event) => {",
         "setTimeout(() => window.bpeEarlyMessages.splice(0).forEach((e) => pyodideWorker.onmessage(e)), 0);\n"
         "      pyodideWorker.onmessage = async (event) => {"),
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


def app_archive() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in app_sources():
            info = zipfile.ZipInfo(str(path.relative_to(SITE)), date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


# --------------------------------------------------------------------------- build

def inputs_digest() -> str:
    return tree_digest([ROOT / "build.py", ROOT / "pyproject.toml", BUILD_ASSETS, ROOT / "bpe", *app_sources()])


def build(force: bool = False) -> Path:
    stamp = DIST / ".build-stamp"
    digest = inputs_digest()
    if not force and stamp.exists() and stamp.read_text() == digest:
        log("dist/ is up to date")
        return DIST
    started = time.time()
    if not (SITE / "app.py").exists():
        raise SystemExit("site/app.py is missing")
    setup_build()
    pyodide_pkg = fetch_pyodide()
    fetch_pypi()
    wheels = prepare_wheels(pyodide_pkg)
    app_zip = CACHE / "app" / APP_ARCHIVE
    app_zip.parent.mkdir(parents=True, exist_ok=True)
    app_zip.write_bytes(app_archive())
    own_code = {"bpe"}
    compiled = precompile(pyodide_pkg, [
        *[(path, "wheel", SITE_PACKAGES + "/", key in own_code) for key, path in wheels.items()],
        (pyodide_pkg / "python_stdlib.zip", "stdlib", "/lib/python312.zip/", False),
        (app_zip, "wheel", APP_DIR + "/", True),
    ])
    wheels = dict(zip(wheels, compiled))
    stdlib, app_zip = compiled[-2:]
    converted = convert_app()
    panel_version = pins()["pure_wheels"]["panel"]["version"]
    bokeh_version = pins()["pure_wheels"]["bokeh"]["version"]

    # Assemble beside dist/ (same file system, for the rename); a private name, since builds in the
    # same checkout may overlap.
    staging = Path(tempfile.mkdtemp(dir=CACHE, prefix="dist-staging-"))
    try:
        _assemble(staging, pyodide_pkg, wheels, stdlib, app_zip, converted, panel_version, bokeh_version)
        for attempt in range(3):
            shutil.rmtree(DIST, ignore_errors=True)
            try:
                staging.rename(DIST)
                break
            except OSError:
                if attempt == 2:
                    raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    stamp.write_text(digest)
    size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    count = sum(1 for p in DIST.rglob("*") if p.is_file())
    log(f"built dist/ in {time.time() - started:.1f} s: {count} files, {size / 1e6:.1f} MB")
    return DIST


def start_up_packages(wheels: dict[str, Path], load: list[str]) -> list[str]:
    """The load list and its dependencies (per each wheel's metadata, as in make_lock)."""
    lock = make_lock(wheels, None, load)
    needed, todo = [], list(load)
    while todo:
        name = todo.pop(0)
        if name not in needed:
            needed.append(name)
            todo.extend(lock["packages"][name]["depends"])
    return needed


def make_bundle(members: list[tuple[str, bytes]], compress: bool = BUNDLE_GZIP) -> bytes:
    """Files for the worker to write straight into Pyodide's file system.

    Format: a 4-byte little-endian length, that many bytes of JSON [[absolute path, size], ...],
    then the files' contents one after the other, the whole optionally gzip-compressed (the worker
    inflates it with the browser's own DecompressionStream). The worker writes each file with
    FS.writeFile: no zip handling in Python at all.
    """
    index = json.dumps([[name, len(data)] for name, data in members]).encode()
    raw = b"".join([len(index).to_bytes(4, "little"), index, *(data for _, data in members)])
    return gzip.compress(raw, compresslevel=6, mtime=0) if compress else raw


def archive_members(path: Path, root: str) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(path) as archive:
        return [(f"{root}/{info.filename}", archive.read(info)) for info in archive.infolist() if not info.is_dir()]


def cached_bundle(paths: list[Path], root: str) -> Path:
    key = sha256_bytes(" ".join(f"{p.name}:{sha256_file(p)}" for p in paths).encode()
                       + f"{root} {BUNDLE_GZIP}".encode())[:20]
    target = CACHE / "bundles" / f"{key}.bundle"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        members = [member for path in paths for member in archive_members(path, root)]
        partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        partial.write_bytes(make_bundle(members))
        partial.replace(target)
    return target


def _assemble(out: Path, pyodide_pkg: Path, wheels: dict[str, Path], stdlib: Path, app_zip: Path, converted: Path,
              panel_version: str, bokeh_version: str) -> None:
    load = pins()["browser"]["load"]
    unknown = [name for name in load if name not in wheels]
    if unknown:
        raise SystemExit(f"pins.json browser.load names packages that are not vendored: {unknown}")
    # What the app needs at start-up goes into one bundle; the rest stays as wheels for loadPackage,
    # listed (with the bundled packages they depend on, such as numpy for pandas) in pyodide-lock.json.
    bundled = start_up_packages(wheels, load)
    full_lock = make_lock(wheels, pyodide_pkg, load)
    in_lock, todo = [], [name for name in wheels if name not in bundled]
    while todo:
        name = todo.pop(0)
        if name not in in_lock:
            in_lock.append(name)
            todo.extend(full_lock["packages"][name]["depends"])
    lock = {"info": full_lock["info"], "packages": {name: full_lock["packages"][name] for name in sorted(in_lock)}}

    # Pyodide core, the precompiled stdlib, the bundle, the remaining wheels and their lock.
    pyo = out / PYODIDE_DIR
    pyo.mkdir(parents=True)
    for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm"):
        shutil.copy2(pyodide_pkg / name, pyo / name)
    shutil.copy2(stdlib, pyo / "python_stdlib.zip")
    for name in in_lock:
        shutil.copy2(wheels[name], pyo / wheels[name].name)
    (pyo / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    bundled_files = set()
    for package in bundled:
        with zipfile.ZipFile(wheels[package]) as archive:
            bundled_files.update(archive.namelist())
    preload = []
    for library in pins()["browser"]["preload_libraries"]:
        matches = [f for f in bundled_files if f.startswith(library + ".") and f.endswith(".so")]
        if len(matches) != 1:
            raise SystemExit(f"pins.json browser.preload_libraries: {library} matches {matches}")
        preload.append(f"{SITE_PACKAGES}/{matches[0]}")
    packages_bundle = cached_bundle([wheels[name] for name in bundled], SITE_PACKAGES)
    shutil.copy2(packages_bundle, pyo / PACKAGES_BUNDLE)
    (out / APP_BUNDLE).write_bytes(make_bundle(archive_members(app_zip, APP_DIR)))

    (out / "assets").mkdir()
    for path in served_apart():
        shutil.copy2(path, out / "assets" / path.name)

    # The page: Panel's prerendered HTML, pointed at local JS/CSS.
    html = patch_page((converted / "app.html").read_text(), panel_version, bokeh_version)
    (out / "index.html").write_text(html)
    copy_static(out, html, panel_version, bokeh_version)

    # The worker.
    config = {
        "pyodide_dir": PYODIDE_DIR, "panel_cdn_root": PANEL_CDN_ROOT, "app_dir": APP_DIR,
        "bundles": [
            {"file": PYODIDE_DIR + PACKAGES_BUNDLE, "sha256": sha256_file(pyo / PACKAGES_BUNDLE)},
            {"file": APP_BUNDLE, "sha256": sha256_file(out / APP_BUNDLE)},
        ],
        # so that a later pyodide.loadPackage (say of pandas) does not install these again
        "bundled_packages": {name: full_lock["packages"][name]["version"] for name in bundled},
        "preload_libraries": preload,
        "import_first": pins()["browser"]["import_first"],
    }
    worker = (BUILD_ASSETS / "worker.js").read_text().replace("__CONFIG__", json.dumps(config, indent=2))
    (out / "app.js").write_text(worker)
    disarm_cdn_defaults(out)


#: CDN addresses that vendored JavaScript keeps as defaults for paths this site never takes
#: (Pyodide's indexURL, which the worker always passes; Bokeh's MathJax and icon font).
CDN_ADDRESS = re.compile(r"https://(cdn\.jsdelivr\.net|cdn\.bokeh\.org|unpkg\.com|cdn\.holoviz\.org)/")


def disarm_cdn_defaults(out: Path) -> None:
    """Point those defaults at a local path that does not exist, so that if one is ever taken the
    request fails on 127.0.0.1 instead of leaving the machine, and dist/ names no outside host."""
    for path in [*out.rglob("*.js"), *out.rglob("*.html")]:
        text = path.read_text(encoding="utf-8")
        if CDN_ADDRESS.search(text):
            path.write_text(CDN_ADDRESS.sub(r"./no-cdn/\1/", text), encoding="utf-8")


# --------------------------------------------------------------------------- serve

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
                      ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
                      ".bundle": "application/octet-stream"}

    def log_message(self, format, *args):  # quiet unless asked
        if os.environ.get("BPE_SERVE_LOG"):
            super().log_message(format, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(directory: Path, port: int = 0) -> Server:
    handler = functools.partial(Handler, directory=str(directory))
    return Server(("127.0.0.1", port), handler)


def command_build(args: argparse.Namespace) -> int:
    build(force=args.force)
    return 0


def command_serve(args: argparse.Namespace) -> int:
    build()
    server = make_server(DIST, args.port)
    print(f"Serving dist/ on http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def command_test(args: argparse.Namespace) -> int:
    setup_tests()
    build()
    result = subprocess.run([str(PYTHON), "-m", "pytest", *args.pytest_args], cwd=ROOT)
    return result.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="assemble the self-hosted site in dist/")
    build_parser.add_argument("--force", action="store_true", help="rebuild even if dist/ looks up to date")
    build_parser.set_defaults(handler=command_build)
    serve = commands.add_parser("serve", help="build if needed and serve dist/ on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(handler=command_serve)
    test = commands.add_parser("test", help="install test dependencies, build dist/ and run the tests")
    test.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed on to pytest")
    test.set_defaults(handler=command_test)
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "test":  # argparse's REMAINDER does not take a leading option such as -q
        args.pytest_args = extra + args.pytest_args
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
