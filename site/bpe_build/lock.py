"""A pyodide-lock.json for the vendored wheels, and which packages the start-up bundle holds."""
from __future__ import annotations

import email.parser
import json
import re
import zipfile
from pathlib import Path

from .util import normalize, sha256_file


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
