'''What the worker needs to name in a memory snapshot of Python: the JavaScript functions Python makes.

A snapshot (see worker/snapshot.js) names each JavaScript object Python holds, so that a later visit can
hand it back. Globals are named by their name. A function Python makes with `pyodide.code.run_js`
has no name, so it is named by its source, and only a source listed here is ever evaluated again.
Panel makes one such function when `panel.io.pyodide` is imported.

>>> function_source('x = run_js("""\\n((a) => a)\\n""")')
'(a) => a'
'''
from __future__ import annotations

import re
import zipfile

from .paths import CACHE
from .util import pins

#: `name = pyodide.code.run_js("""(function)""")`, as Panel writes it.
RUN_JS = re.compile(r'run_js\("""(.*?)"""\)', re.S)


def function_source(module_text: str) -> str:
    """What JavaScript's `toString()` gives for the one function the module makes with run_js:
    the text inside the parentheses that wrap it."""
    found = RUN_JS.findall(module_text)
    if len(found) != 1:
        raise SystemExit(f"expected one run_js call in panel/io/pyodide.py, found {len(found)}")
    text = found[0].strip()
    if not (text.startswith("(") and text.endswith(")")):
        raise SystemExit("panel/io/pyodide.py: the run_js function is no longer wrapped in parentheses")
    return text[1:-1]


def snapshot_functions() -> list[str]:
    """The sources of the functions Python holds after the worker's start-up imports (the pinned Panel's)."""
    wheel = CACHE / "pypi" / pins()["pure_wheels"]["panel"]["file"]
    with zipfile.ZipFile(wheel) as archive:
        return [function_source(archive.read("panel/io/pyodide.py").decode())]
