"""The table of candidate pairs a round chose from: counts, the winner starred, ties explained."""
from __future__ import annotations

import panel as pn

from bpe.panes.candidates import candidates_html
from .styles import html_pane


class CandidatesView(pn.viewable.Viewer):
    """The pairs counted in the selected round (round 1's at round 0), best first."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._pane = html_pane(pn.bind(candidates_html, state.param.training, state.param.round),
                               css_classes=["bpe-candidates-pane"])

    def __panel__(self):
        return self._pane
