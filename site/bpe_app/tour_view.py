"""The guided tour on the page: "Take the tour" and "Tour this corpus" near the title, and the tour's box.

The box (`tour.tour_html`) is drawn by Python; its Back, Next and Close buttons, and ← → and Escape
while it has focus, reach the state through `token_clicks.TokenClicks` like every other action. That
listener also brings the pane a step speaks about into view, outlines it, and moves focus to the box.
"""
from __future__ import annotations

import panel as pn

from bpe.explain import tours

from .state import tour as guide
from .styles import html_pane, light_button


def seed_for(preset: str) -> str:
    """The seed tour "Take the tour" opens: the preset's own, or the explainer's."""
    return preset if preset in tours.NAMES else "explainer"


class TourButtons(pn.viewable.Viewer):
    """The two controls that open a tour."""

    def __init__(self, state, **params):
        super().__init__(**params)
        take = pn.widgets.Button(name="Take the tour", button_type="primary", css_classes=["tour-open"],
                                 align="center", margin=(4, 6))
        story = light_button(name="Tour this corpus", css_classes=["tour-corpus"], align="center", margin=(4, 6))
        take.on_click(lambda _: guide.open_tour(state, seed_for(state.preset)))
        story.on_click(lambda _: guide.open_tour(state, guide.CORPUS))
        self._layout = pn.Row(take, story, margin=0, align="center")

    def __panel__(self):
        return self._layout


class TourView(pn.viewable.Viewer):
    """The open tour's box (nothing while no tour is open)."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        self._pane = html_pane(pn.bind(lambda *_: guide.tour_html(state.tour, state.tour_step, guide.steps(state)),
                                       p.tour, p.tour_step, p.training, p.training_b),
                               margin=0, height=0, css_classes=["bpe-tour-pane"])

    def __panel__(self):
        return self._pane
