"""The corpus as rows of token chips, as it stands after the selected round."""
from __future__ import annotations

import panel as pn

from bpe.panes.corpus import corpus_html
from .styles import html_pane


class CorpusView(pn.viewable.Viewer):
    """Every document as a row of chips; chips the selected round made are outlined."""

    def __init__(self, state, **params):
        super().__init__(**params)
        # The inspected token's chips are outlined by the browser (see token_clicks), so that opening
        # the inspector does not send the corpus's thousands of chips again.
        self._pane = html_pane(pn.bind(corpus_html, state.param.training, state.param.round, state.param.training_b),
                               css_classes=["bpe-corpus-pane"])

    def __panel__(self):
        return self._pane
