"""Live encoding: any text, cut by the tokenizer as it stands after the selected round."""
from __future__ import annotations

import panel as pn
import param

from bpe.panes.encoding import EXAMPLES, b_encoding_html, encoding_html
from .styles import html_pane, light_button


class TextBox(pn.viewable.Viewer):
    """The encoder's text box, encoded as you type, with one-click examples and the "special tokens
    in text" toggle: what this tokenizer's encoder and a real one's (`compare_view`) both read."""

    def __init__(self, state, **params):
        super().__init__(**params)
        # The box's value goes to the state, never back: echoing it while someone types
        # would overwrite the keys pressed since.
        self._input = pn.widgets.TextInput(
            name="Encode any text", value=state.encode_text, value_input=state.encode_text,
            css_classes=["encode-input"], sizing_mode="stretch_width", placeholder="type here",
        )
        self._input.param.watch(lambda event: setattr(state, "encode_text", event.new or ""), "value_input")
        state.param.watch(self._show_text, "encode_text")
        buttons = [light_button(name=label, margin=(2, 3), css_classes=["bpe-example"])
                   for label, _ in EXAMPLES]
        for button, (_, text) in zip(buttons, EXAMPLES):
            button.on_click(lambda event, text=text: self._input.param.update(value=text, value_input=text))
        self._layout = pn.Column(
            self._input,
            pn.FlexBox(*buttons, gap="0px"),
            # For this tokenizer's specials (octlm's), B's and the real one's compared with.
            pn.widgets.Checkbox.from_param(state.param.specials_in_text, name="special tokens in text",
                                           css_classes=["specials-in-text"]),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout

    def _show_text(self, event: param.parameterized.Event) -> None:
        """Put a text that did not come from the box (a shared link's) into it."""
        if event.new != (self._input.value_input or ""):
            self._input.param.update(value=event.new, value_input=event.new)


class EncoderView(pn.viewable.Viewer):
    """The text box, and the text as this tokenizer (and B) cut it after the selected round."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        self._layout = pn.Column(
            TextBox(state),
            html_pane(pn.bind(encoding_html, p.training, p.encode_text, p.round, specials=p.specials_in_text),
                      css_classes=["bpe-encoding-pane"]),
            # Always there, empty without a B (see compare_view on Panel and `visible`).
            html_pane(pn.bind(b_encoding_html, p.training, p.training_b, p.encode_text, p.round, p.specials_in_text),
                      css_classes=["bpe-encoding-b-pane"]),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
