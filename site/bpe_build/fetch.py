"""Downloads, each pinned by version and sha256: Pyodide from npm, wheels and sdists from PyPI."""
from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from .paths import CACHE, PYTHON
from .util import check_sha256, pins, run, sha256_file, step


def fetch_pyodide() -> Path:
    """npm pack pyodide@<pin>, check its sha256, unpack; returns the unpacked package dir."""
    return fetch_npm("pyodide")


def fetch_npm(key: str) -> Path:
    """npm pack the package pins.json names under `key`, check its sha256, unpack; returns its dir
    (.cache/<npm name>-<version>)."""
    pin = pins()[key]
    npm_dir = CACHE / "npm"
    tarball = npm_dir / pin["file"]
    target = CACHE / f"{npm_name(pin['npm']).lstrip('@').replace('/', '-')}-{pin['version']}"
    if (target / ".verified").exists():
        return target
    if not tarball.exists() or sha256_file(tarball) != pin["sha256"]:
        npm_dir.mkdir(parents=True, exist_ok=True)
        with step(f"npm pack {pin['npm']}"):
            run("npm", "pack", pin["npm"], "--pack-destination", npm_dir, "--silent", stdout=subprocess.DEVNULL)
    check_sha256(tarball, pin["sha256"])
    shutil.rmtree(target, ignore_errors=True)
    unpacking = CACHE / f"{key}-tmp"
    shutil.rmtree(unpacking, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(unpacking, filter="data")
    (unpacking / "package").rename(target)
    shutil.rmtree(unpacking, ignore_errors=True)
    (target / ".verified").write_text(pin["sha256"])
    return target


def npm_name(spec: str) -> str:
    """The package's name in an npm spec: '@anthropic-ai/tokenizer@0.0.4' -> '@anthropic-ai/tokenizer'."""
    return spec.rsplit("@", 1)[0]


def node_modules(keys: list[str]) -> Path:
    """A node_modules folder holding the pinned npm packages `keys` (each fetched as `fetch_npm`
    does) by their names, for Node's require; returns the folder."""
    folder = CACHE / "node_modules"
    for key in keys:
        link = folder / npm_name(pins()[key]["npm"])
        source = fetch_npm(key)
        if not link.is_symlink() or link.resolve() != source.resolve():
            link.parent.mkdir(parents=True, exist_ok=True)
            link.unlink(missing_ok=True)
            link.symlink_to(source, target_is_directory=True)
    return folder


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
            with step(f"pip download {len(missing)} pinned files: {', '.join(req for req, _, _ in missing)}"):
                run(PYTHON, "-m", "pip", "download", "--disable-pip-version-check", "--progress-bar", "off",
                    "--no-deps", "--require-hashes", "-d", pypi, *options, "-r", handle.name)
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
    # Only these two must come as sources (wheels.py rebuilds them as pure wheels). Naming them,
    # not :all:, lets pip take their build tools (Cython among them) as wheels: with :all: it
    # compiled those from source first, for minutes.
    sdists = p["pure_sdists"]
    pip_download([(f"{name}=={pin['version']}", pin["file"], pin["sha256"]) for name, pin in sdists.items()],
                 "--no-binary=" + ",".join(sdists))
