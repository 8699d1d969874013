"""The whole page on a Panel server in CPython (`bpe serve`): the same app as the static site, for a
corpus too big for the browser. Each visitor gets a state of their own; a training made at start
(`bpe serve FILE ...`) is shown to each of them as if the page had made it (`SideA.take`)."""
from __future__ import annotations

import panel as pn

import bpe

from .app import TITLE, App
from .notebook import CORPUS_LIMIT
from .state import AppState


def session(training: bpe.Training | None = None) -> App:
    """One visitor's page: a state of its own, showing `training` if there is one."""
    state = AppState(corpus_limit=CORPUS_LIMIT)
    if training is not None:
        state.take(training)
    return App(state=state)


def serve(port: int, training: bpe.Training | None = None) -> None:
    """Serve the page on 127.0.0.1:`port` until interrupted (Panel's own server, Bokeh's scripts from it)."""
    pn.extension()
    print(f"Serving the page on http://127.0.0.1:{port}/  (Ctrl+C stops)", flush=True)
    pn.serve({"/": lambda: session(training)}, port=port, address="127.0.0.1", show=False, title=TITLE,
             websocket_origin=[f"127.0.0.1:{port}", f"localhost:{port}"], print_url=False)
