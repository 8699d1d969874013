"""How the core's objects draw themselves in a notebook cell: IPython calls `_repr_html_`.

The drawing is the panes' (`bpe.panes.notebook`), at the top of the core, which knows every object
and renders it with the page's own pane functions; the objects sit lower (a Training, a Tokenizer,
a text's pieces), so they reach it by name when a notebook asks. This, `bpe/__init__`'s lazy names
and `options`' formats are the places the core binds a module by name (tests/test_architecture.py
lists them). Nothing here needs Panel: `bpe.show` is for the live views.

>>> import bpe
>>> "bpe-chip" in bpe.Tokenizer.__mro__[1]._repr_html_(bpe.train(["ab ab"]).tokenizer.encode_pieces("ab"))
True
"""
from __future__ import annotations

import importlib


class Shown:
    """A mixin: the object is drawn as HTML in a notebook cell (`bpe.panes.notebook.html`)."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return importlib.import_module("bpe.panes.notebook").html(self)
