"""The message line: what was wrong with the latest input (the last good training stays on screen)."""
from __future__ import annotations

import html

import panel as pn

from .styles import html_pane


def message_html(message: str, kind: str) -> str:
    """An escaped message box, or nothing when all is well."""
    if not message:
        return ""
    return f'<div class="bpe-message bpe-{kind}" role="alert">{html.escape(message)}</div>'


class MessageView(pn.viewable.Viewer):
    def __init__(self, state, **params):
        super().__init__(**params)
        self._pane = html_pane(pn.bind(message_html, state.param.message, state.param.message_kind),
                               visible=state.param.message.rx.bool())

    def __panel__(self):
        return self._pane
