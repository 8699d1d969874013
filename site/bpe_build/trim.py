"""What the browser is never sent (files of the start-up packages and of the stdlib the page never
reads), and which of the stdlib it needs first.

A test (tests/browser/test_site_shipping.py) checks that the live page imported none of the files
left out, and runs frozen the modules left out as frozen; tests/test_start_stdlib.py that the first
screen imports nothing outside `START_STDLIB` and `FIRST_SCREEN_STDLIB`.
"""
from __future__ import annotations

#: Codecs the page keeps. It decodes and encodes UTF-8 only (bpe.io.textio); Python itself and the
#: libraries it loads ask for these few by name. The other ~100 are legacy charsets (cp*, mac_*,
#: iso8859_*, the CJK ones).
KEPT_CODECS = frozenset({
    "__init__", "aliases", "ascii", "latin_1", "charmap", "utf_8", "utf_8_sig", "utf_16", "utf_16_be",
    "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_7", "unicode_escape", "raw_unicode_escape",
    "idna", "punycode", "base64_codec", "hex_codec", "zlib_codec", "undefined",
})
#: Clients and servers of network protocols: a page has no sockets to run them on.
NETWORK_MODULES = ("xmlrpc", "wsgiref", "imaplib", "smtplib", "nntplib", "ftplib", "poplib", "telnetlib",
                   "mailbox", "cgi", "cgitb", "socketserver")


def never_loaded(name: str) -> bool:
    """Files of the start-up packages the app never reads: a dist-info's RECORD (only
    importlib.metadata.files() reads it) and numpy.f2py (numpy imports it only when asked for).

    >>> never_loaded("numpy/f2py/crackfortran.pyc"), never_loaded("numpy/linalg/linalg.pyc")
    (True, False)
    """
    return name.endswith(".dist-info/RECORD") or name.startswith("numpy/f2py/")


#: Modules Pyodide's Python runs from the copies frozen into its wasm (`_imp._frozen_module_names()`,
#: whose `__spec__.origin` is "frozen"): their files in the stdlib are never read.
FROZEN = frozenset({"_collections_abc", "_sitebuiltins", "abc", "codecs", "genericpath", "io", "ntpath", "os",
                    "posixpath", "runpy", "site", "stat", "zipimport"})


def stdlib_left_out(name: str) -> bool:
    """A file of python_stdlib.zip the page does without.

    >>> [stdlib_left_out(n) for n in ("encodings/cp1252.pyc", "encodings/utf_8.pyc", "xmlrpc/client.pyc",
    ...                               "json/__init__.pyc", "os.pyc")]
    [True, False, True, False, True]
    """
    if name.removesuffix(".pyc") in FROZEN:
        return True
    top, _, rest = name.partition("/")
    if top == "encodings" and rest:
        return rest.split(".")[0] not in KEPT_CODECS and "/" not in rest
    return top.split(".")[0] in NETWORK_MODULES


#: The stdlib's top-level modules and packages that Python needs to start in Pyodide (besides the
#: frozen ones; found by running it under Node). Only these are in python_stdlib.zip, which Pyodide
#: loads before Python starts: over a slow link, its last bytes are what Python's start waits for.
#: A package is kept or left whole: a package's modules are found only where its __init__ was.
START_STDLIB = frozenset({
    "__future__", "_compression", "_pyodide", "_weakrefset", "ast", "asyncio", "bisect", "bz2", "collections",
    "concurrent", "contextlib", "contextvars", "copy", "copyreg", "dis", "encodings", "enum", "fnmatch",
    "functools", "heapq", "importlib", "inspect", "ipaddress", "json", "keyword", "linecache", "locale",
    "logging", "opcode", "operator", "pathlib", "pyodide", "random", "re", "reprlib", "selectors", "shutil",
    "signal", "socket", "string", "struct", "subprocess", "tempfile", "textwrap", "threading", "token",
    "tokenize", "traceback", "types", "typing", "urllib", "warnings", "weakref", "zipfile",
})
#: What the first screen (bpe, param and the app's panes and state) imports on top, checked by
#: tests/test_start_stdlib.py: in the first screen's bundle, written into /lib/python3.12 once
#: Python has started, with bpe and param. The rest of the stdlib arrives while the first screen
#: answers and is written there before Panel is imported.
FIRST_SCREEN_STDLIB = frozenset({"base64", "dataclasses", "datetime", "glob", "gzip", "hashlib", "html", "numbers"})


def stdlib_at_start(name: str) -> bool:
    """A file of python_stdlib.zip that Python's start needs (see START_STDLIB).

    >>> [stdlib_at_start(n) for n in ("json/decoder.pyc", "re/__init__.pyc", "email/parser.pyc", "gzip.pyc")]
    [True, True, False, False]
    """
    return name.split("/")[0].removesuffix(".pyc") in START_STDLIB


def stdlib_of_first_screen(name: str) -> bool:
    """A file of python_stdlib.zip that only the first screen needs (see FIRST_SCREEN_STDLIB).

    >>> [stdlib_of_first_screen(n) for n in ("html/entities.pyc", "gzip.pyc", "json/decoder.pyc")]
    [True, True, False]
    """
    return name.split("/")[0].removesuffix(".pyc") in FIRST_SCREEN_STDLIB
