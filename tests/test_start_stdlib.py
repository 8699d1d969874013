"""The stdlib's start zip (bpe_build.trim.START_STDLIB) and the first screen's bundle
(FIRST_SCREEN_STDLIB) hold every stdlib module the first screen imports: the worker answers the
first screen before the rest of the stdlib is written (and a test switch holds it back for good),
so a module missing from them would fail an answer in the browser.

The first screen runs here in a fresh CPython through every preset and event kind, once every
module of the start zip is imported; the stdlib modules it imports on top must all be in one of
them (or frozen into Pyodide's Python).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bpe_build.trim import FIRST_SCREEN_STDLIB, FROZEN, START_STDLIB, stdlib_at_start, stdlib_of_first_screen

ROOT = Path(__file__).resolve().parents[1]

EXERCISE = r"""
import importlib, json, sys
for name in START:  # what Pyodide's own start imports is there already, and what those import
    try:
        importlib.import_module(name)
    except ImportError:  # Pyodide's own (pyodide, _pyodide)
        pass
before = set(sys.modules)
sys.path[:0] = [ROOT + "/site", ROOT]
from bpe_app import first_screen
screen = first_screen.start("preset=course&round=2&text=aaa")
screen.view()
for preset in screen.state.param.preset.objects:
    for event in ({"preset": preset}, {"round": 10**6}, {"step": -1}, {"round": 0}, {"step": 3},
                  {"text": "walkable strawberry 😀 日本語 Привет \r\n 12345 x\u00a0y"},
                  {"example": "emoji"}, {"inspect": ["", 256]}, {"inspect": ["b", 3]}, {"preset": "<script>"}):
        screen.answer(event)
first_screen.start("tour=explainer&step=2").view()
first_screen.start("round=abc&text=%FF").view()
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_the_first_screen_imports_only_stdlib_modules_of_the_start_zip():
    code = f"ROOT = {str(ROOT)!r}\nSTART = {sorted(START_STDLIB | FROZEN)!r}\n" + EXERCISE
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True)
    imported = json.loads(out.stdout.splitlines()[-1])
    stdlib = {name.split(".")[0] for name in imported} & set(sys.stdlib_module_names)
    assert "bpe" in {name.split(".")[0] for name in imported}
    # Modules built into Pyodide's interpreter (no file in the zip) need no place in it.
    builtin = {name for name in stdlib if name.startswith("_") or name in sys.builtin_module_names
               or name in {"unicodedata", "math", "binascii", "zlib", "array", "select", "time", "itertools"}}
    assert sorted(stdlib - builtin - START_STDLIB - FIRST_SCREEN_STDLIB - FROZEN) == []


def test_a_package_is_kept_whole():
    assert stdlib_at_start("json/__init__.pyc") and stdlib_at_start("json/decoder.pyc")
    assert not stdlib_at_start("email/__init__.pyc") and not stdlib_at_start("email/parser.pyc")
    assert stdlib_at_start("encodings/utf_8.pyc") and not stdlib_at_start("xml/dom/minidom.pyc")
    assert stdlib_of_first_screen("html/__init__.pyc") and stdlib_of_first_screen("html/entities.pyc")
    assert not START_STDLIB & FIRST_SCREEN_STDLIB and not (START_STDLIB | FIRST_SCREEN_STDLIB) & FROZEN
