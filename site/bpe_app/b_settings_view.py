"""Compare with B: a second configuration trained on the same corpus, and its settings.

B starts from A's settings as they are, changed as the preset suggests (the explainer with the
other tie rule, say); any of its settings can then be changed, and it retrains as A does.
"""
from __future__ import annotations

import html

import panel as pn

from bpe.options import OPTIONS
from bpe.presets import PRESETS

from .settings_view import option_widgets
from .state.inputs import B
from .styles import html_pane, light_button


def suggestion_html(preset: str) -> str:
    """What the preset suggests comparing, and why ("" for a preset that suggests nothing).

    >>> suggestion_html("explainer")
    '<div class="bpe-note">Suggested for explainer: tie rule largest-text. The other tie rule: rounds 1, 4 and 5 are ties, so the rule decides them.</div>'
    """
    chosen = PRESETS[preset]
    if not chosen.contrast:
        return ('<div class="bpe-note">B starts as a copy of A: change any of its settings to see what '
                "that changes.</div>")

    changes = ", ".join(f"{OPTIONS[field].label} {value}" for field, value in chosen.contrast.items())
    return (f'<div class="bpe-note">Suggested for {html.escape(preset)}: {html.escape(changes)}. '
            f"{html.escape(chosen.contrast_why)}</div>")


class BSettingsView(pn.viewable.Viewer):
    """A switch for B, and B's settings while it is on.

    B's widgets are made the first time B is on: most visits never tick it, and in the page
    they are about a tenth of the time it takes to build the app."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._state = state
        # Not bound to `compare_b` both ways: ticking it copies A's settings into B first
        # (`compare_with_b`), while a link sets B's settings and `compare_b` as they are.
        switch = pn.widgets.Checkbox(name="Train B too, on the same corpus", value=state.compare_b,
                                     css_classes=["compare-b"])
        switch.param.watch(lambda event: state.compare_with_b(event.new), "value")
        state.param.watch(lambda event: setattr(switch, "value", event.new), "compare_b")
        self.body = pn.Column(visible=state.param.compare_b, sizing_mode="stretch_width")
        state.param.watch(self._fill, "compare_b")
        self._fill()
        self._layout = pn.Column(switch, self.body, sizing_mode="stretch_width")

    def _fill(self, *events) -> None:
        state = self._state
        if not state.compare_b or self.body.objects:
            return
        suggest = light_button(name="↺ B from A, as the preset suggests", css_classes=["b-suggested"],
                               sizing_mode="stretch_width",
                               description="B's settings as A's are now, changed as the preset suggests.")
        suggest.on_click(lambda event: state.param.update(state.b_from_a()))
        self.body.objects = [html_pane(pn.bind(suggestion_html, state.param.preset), margin=(0, 10)), suggest,
                             *option_widgets(state, B)]

    def __panel__(self):
        return self._layout
