"""Python's main module linked in less time: pyodide_link.js put into the pinned pyodide.asm.js.

Each patch is checked to apply exactly once, so a Pyodide whose Emscripten code differs fails the
build rather than linking some other way.

>>> patched = link_patched(ORIGINAL_SAMPLE)
>>> "bpeLinkMain(wasmExports,1024)" in patched and "bpeWrapped.get(func)" in patched
True
"""
from __future__ import annotations

import re
from pathlib import Path

LINK_JS = Path(__file__).with_name("pyodide_link.js")

#: (Emscripten's code, what takes its place); the functions of pyodide_link.js go in after
#: relocateExports, in the same scope (they use its `var`s: GOT, wasmTable, wasmImports, ...).
PATCHES = (
    ('Module["relocateExports"]=relocateExports;', 'Module["relocateExports"]=relocateExports;\n{link}\n'),
    ("wasmExports=instance.exports;wasmExports=relocateExports(wasmExports,1024);",
     "wasmExports=instance.exports;wasmExports=bpeLinkMain(wasmExports,1024);"),
    ('mergeLibSymbols(wasmExports,"main");LDSO.init();loadDylibs();',
     "bpeMergeMain(wasmExports);LDSO.init();bpeWrapJs();loadDylibs();"),
    ("var convertJsFunctionToWasm=(func,sig)=>{",
     "var convertJsFunctionToWasm=(func,sig)=>{var wrapped=bpeWrapped.get(func);if(wrapped){return wrapped}"),
    # Nothing lists the exports' names: the copy with the 15 pointer-returning wrappers inherits
    # the rest rather than copying 9,837 properties.
    ("function applySignatureConversions(wasmExports){wasmExports=Object.assign({},wasmExports);",
     "function applySignatureConversions(wasmExports){wasmExports=Object.create(wasmExports);"),
)

# The five places in a few words of Emscripten's code, and its list of internal names, for the doctest.
ORIGINAL_SAMPLE = "".join(old for old, _ in PATCHES) + 'var isInternalSym=symName=>["__dso_handle"].includes(symName)'



#: Emscripten's list of names never linked: pyodide_link.js looks it up only for names starting with _.
INTERNAL = re.compile(r"var isInternalSym=symName=>\[([^\]]*)\]\.includes\(symName\)")


def link_patched(text: str) -> str:
    """pyodide.asm.js's text with the faster linking; ValueError if a place is not found once."""
    internal = INTERNAL.findall(text)
    if len(internal) != 1 or not all(name.startswith('"_') for name in internal[0].split(",")):
        raise ValueError("pyodide.asm.js's isInternalSym is not one list of names starting with _: "
                         "is Pyodide still the pinned version?")
    link = LINK_JS.read_text(encoding="utf-8")
    for old, new in PATCHES:
        if text.count(old) != 1:
            raise ValueError(f"pyodide.asm.js has {text.count(old)} copies of {old!r}, not one: "
                             "is Pyodide still the pinned version?")
        text = text.replace(old, new.replace("{link}", link))
    return text
