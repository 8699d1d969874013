"""The build's faster linking of Python's main module (bpe_build/pyodide_link.py) gives what
Emscripten's own gives: the same table, slot for slot, the same GOT values and the same imports,
at Python's start and once numpy's libraries (side modules) are linked against it."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bpe_build.pyodide_link import link_patched

ROOT = Path(__file__).resolve().parent.parent
DUMP = ROOT / "tests" / "pyodide_link_dump.js"
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


@pytest.fixture(scope="module")
def pyodides(tmp_path_factory):
    """(Emscripten's linking, the build's): two Pyodide folders, pyodide.asm.js the only change."""
    from bpe_build.fetch import fetch_pyodide

    pinned = fetch_pyodide()
    patched = tmp_path_factory.mktemp("patched")
    for name in PYODIDE_FILES:
        shutil.copy2(pinned / name, patched / name)
    (patched / "pyodide.asm.js").write_text(link_patched((pinned / "pyodide.asm.js").read_text(encoding="utf-8")),
                                            encoding="utf-8")
    return pinned, patched


@pytest.fixture(scope="module")
def numpy_wheel(pyodides):
    from bpe_build.wheels import prepare_wheels

    return prepare_wheels(pyodides[0])["numpy"]


def dumps(runs: list[tuple[Path, list[str], Path | None]], tmp_path: Path) -> list[dict]:
    """Each run's dump, the runs side by side (each is one Node process)."""
    started = []
    for number, (pyodide, names, wheel) in enumerate(runs):
        names_file = tmp_path / f"names-{number}.json"
        names_file.write_text(json.dumps(names))
        command = ["node", str(DUMP), str(pyodide), str(names_file), *([str(wheel)] if wheel else [])]
        started.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    out = []
    for process in started:
        stdout, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, stderr[-3000:]
        out.append(json.loads(stdout.split("DUMP ", 1)[1]))
    return out


def same_links(emscripten: dict, ours: dict, exact: set[str]) -> None:
    """The same table; the same GOT values and imports for the names in `exact`, and the same
    kinds for the others (a side module's data moves from run to run: where malloc put it)."""
    assert len(ours["table"]) == len(emscripten["table"])
    changed = [index for index, (a, b) in enumerate(zip(emscripten["table"], ours["table"])) if a != b]
    assert changed == [], [(index, emscripten["table"][index], ours["table"][index]) for index in changed[:5]]
    assert ours["got"].keys() == emscripten["got"].keys()
    for name, value in emscripten["got"].items():
        assert ours["got"][name] == value if name in exact else (ours["got"][name] != 0) == (value != 0), name
        kind = emscripten["imports"][name].split(" ")[0]
        assert (ours["imports"][name] == emscripten["imports"][name] if name in exact
                else ours["imports"][name].split(" ")[0] == kind), name


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run Pyodide")
def test_main_module_is_linked_as_emscripten_links_it(pyodides, tmp_path):
    pinned, patched = pyodides
    [emscripten] = dumps([(pinned, [], None)], tmp_path)
    names = list(emscripten["dump"]["got"])  # every GOT entry Emscripten made: read from ours, one by one
    assert len(names) > 9000
    [ours] = dumps([(patched, names, None)], tmp_path)
    same_links(emscripten["dump"], ours["dump"], set(names))
    # The JavaScript functions are in the table, and with the signatures they had.
    assert sum(entry.startswith("calls ") for entry in ours["dump"]["table"]) > 100


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run Pyodide")
def test_numpys_libraries_link_against_it_as_against_emscriptens(pyodides, numpy_wheel, tmp_path):
    """The side modules ask for GOT entries that ours makes only then; numpy then runs the same."""
    pinned, patched = pyodides
    started, emscripten = dumps([(pinned, [], None), (pinned, [], numpy_wheel)], tmp_path)
    names = list(emscripten["dump"]["got"])
    assert len(names) > len(started["dump"]["got"])
    [ours] = dumps([(patched, names, numpy_wheel)], tmp_path)
    assert ours["numpy"] == emscripten["numpy"] == "[12 15 18 21]"
    same_links(emscripten["dump"], ours["dump"], exact=set(started["dump"]["got"]))


def test_a_pyodide_with_other_linking_code_fails_the_build():
    with pytest.raises(ValueError, match="is Pyodide still the pinned version"):
        link_patched("var relocateExports=(exports,memoryBase,replace)=>{};")
