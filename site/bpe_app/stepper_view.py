"""The encoder's stepper: the typed text as base units, then one merge rule at a time, as the encoder applies them.

It is the explainer's "walk the merge rules from first to last, and wherever a rule matches,
apply it" made visible (`bpe.explain.steps`): each step names the rule, its rank and how many places it
matched, and outlines the tokens it made. The last step is the encoder's output, and says why
nothing more merges.
"""
from __future__ import annotations

import panel as pn

from bpe.panes.stepper import last_step, stepper_html
from .styles import html_pane

#: Milliseconds per step while playing.
PLAY_INTERVAL = 900


class StepperView(pn.viewable.Viewer):
    """The stepper under the encoder; its buttons and keys arrive as actions (see `actions`)."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._state = state
        self._timer = None
        p = state.param
        self._pane = html_pane(pn.bind(stepper_html, p.training, p.encode_text, p.round, p.encode_step, p.stepping),
                               css_classes=["bpe-stepper-pane"])
        state.param.watch(self._play, "stepping")

    def __panel__(self):
        return self._pane

    def _play(self, event) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if event.new:
            self._timer = pn.state.add_periodic_callback(self._tick, period=PLAY_INTERVAL)

    def _tick(self) -> None:
        state = self._state
        state.step_encoding(1, last_step(state.training, state.encode_text, state.round))

