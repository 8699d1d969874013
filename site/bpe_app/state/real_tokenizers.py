"""The real tokenizers the encoder compares with, each loaded once, on first use.

Their rank data ships in the bpe package (`bpe/real/*.ranks.gz`). A site build may leave it out
of the package, to keep the start-up download small, and serve it beside the page instead as
`assets/<file>`: then it is fetched from there (a synchronous request, which a web worker may make).
"""
from __future__ import annotations

import functools
import sys
from urllib.parse import urljoin

from bpe import real

#: Where a site build serves the rank data, relative to the page.
ASSETS = "assets/"


class LoadError(Exception):
    """A real tokenizer that could not be loaded; the message says so in the page's words."""


def selected(compare: str, reference: real.Encoding | None) -> real.Encoding | None:
    """The real tokenizer the encoder compares with, once loaded (None: none, or not loaded yet)."""
    return reference if compare and reference is not None and reference.name == compare else None


@functools.cache
def load(name: str) -> real.Encoding:
    """The real tokenizer `name` (one of `bpe.real.NAMES`), from the package or, failing that, the site."""
    try:
        return real.load(name)
    except FileNotFoundError:
        pass
    try:
        return real.load(name, data=fetch(ASSETS + real.data_file(name)))
    except (OSError, ValueError) as error:
        raise LoadError(f"{name} could not be loaded ({error}), so there is nothing to compare with.") from None


def fetch(path: str) -> bytes:
    """A file served beside the page, read synchronously (in the Pyodide worker only)."""
    if sys.platform != "emscripten":
        raise OSError(f"{path} is only served to the browser build")
    import js  # Pyodide's bridge to the worker's globals

    request = js.XMLHttpRequest.new()
    request.open("GET", urljoin(str(js.location.href), path), False)
    request.responseType = "arraybuffer"
    request.send()
    if request.status != 200:
        raise OSError(f"HTTP {request.status} for {path}")
    return bytes(js.Uint8Array.new(request.response).to_py())
