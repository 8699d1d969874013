"""The site's live views from CPython: `show` puts them in a Jupyter cell (scrub the rounds,
encode, inspect, browse), `serve` runs the whole page on a Panel server (`bpe serve`), for a corpus
too big for the browser.

The views are the site's own (`bpe_app.notebook`, `bpe_app.server`), which need Panel: `pip install
"bpe[notebook]"`. The core reaches them by name when called, so that `import bpe` never loads
Panel; without the extra, both say what to install. Objects also draw themselves without Panel, as a
cell's plain output (`_repr_html_`, see `bpe.display`).
"""
from __future__ import annotations

import contextlib
import importlib

from .errors import UserInputError

#: What a person who lacks the notebook's extra is told.
NEEDS_PANEL = ('{what} needs Panel, which the notebook extra installs: pip install "bpe[notebook]" '
               "(a cell's plain output, `training` or `tokenizer.encode_pieces(text)`, needs nothing more)")


class NeedsPanel(UserInputError, ImportError):
    """`bpe.show` or `bpe serve` without Panel installed."""


def show(obj, view: str | None = None, **options):
    """The page's views of `obj`, live in the cell: a Training (the rounds, the corpus rows, the
    candidate pairs, the encoder, the inspector and the vocabulary), or a tokenizer (a real one, a
    file, a `bpe.Tokenizer`: the encoder, the inspector, the vocabulary). `view` names one view
    alone ("encoder", "corpus", "pairs", "rounds", "vocabulary", ... ); `options` set what it
    shows first (`text="strawberry"`, `round=3`). Call `panel.extension()` in the notebook first,
    as for any Panel object; `show` does it if no cell has.

        bpe.show(training)
        bpe.show(training, "encoder", text="strawberry")
        bpe.show(bpe.real.load("cl100k_base"))
    """
    with _needs_panel("bpe.show"):
        views = importlib.import_module("bpe_app.notebook")
    return views.show(obj, view, **options)


def serve(port: int = 8000, training=None) -> None:
    """The whole page on a Panel server at 127.0.0.1:`port`, each visitor with a state of their own,
    showing `training` (trained once, in CPython) or, without one, the presets; until interrupted."""
    with _needs_panel("bpe serve"):
        server = importlib.import_module("bpe_app.server")
    server.serve(port, training)


@contextlib.contextmanager
def _needs_panel(what: str):
    """Inside, a missing Panel (or page) is NeedsPanel, which says what to install."""
    try:
        yield
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] in ("panel", "param", "bokeh", "bpe_app", "pyviz_comms"):
            raise NeedsPanel(NEEDS_PANEL.format(what=what)) from None
        raise
