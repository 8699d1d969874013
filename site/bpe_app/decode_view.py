"""The decode box: ids back to chips and text, with whichever tokenizer is selected (see `panes.decoding`)."""
from __future__ import annotations

import panel as pn
import param

from bpe.encoding.decoding import IdsError

from .message_view import message_html
from bpe.panes.decoding import decode_html
from .state.real_tokenizers import selected
from .styles import html_pane

#: The longest entry the box takes: room for more than ID_LIMIT ids, so that the limit is said, not hit.
MAX_CHARACTERS = 1_000_000


def decoded_html(training, rounds: int, ids_text: str, compare: str, reference) -> str:
    """The pane: the ids decoded, or, when a new round or tokenizer leaves them out of range, why."""
    try:
        return decode_html(training, rounds, ids_text, selected(compare, reference))
    except IdsError as error:
        return message_html(str(error), "info")


class DecodeView(pn.viewable.Viewer):
    """A box of ids; Enter (or leaving it) decodes them. A bad entry gets one sentence, and the
    chips and text shown stay as they were."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._state = state
        self._input = pn.widgets.TextInput(
            name="Decode ids", value=state.decode_ids, placeholder="[15339, 1917] or 15339 1917",
            css_classes=["decode-input"], sizing_mode="stretch_width",
            max_length=MAX_CHARACTERS)  # Panel's default, 5,000, would cut a long list silently
        self._input.param.watch(self._entered, "value")
        state.param.watch(self._show_ids, "decode_ids")
        self._error = html_pane("", css_classes=["bpe-decode-error"])
        p = state.param
        self._layout = pn.Column(
            self._input, self._error,
            html_pane(pn.bind(decoded_html, p.training, p.round, p.decode_ids, p.compare, p.reference),
                      css_classes=["bpe-decode-pane"]),
            sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _entered(self, event: param.parameterized.Event) -> None:
        text = event.new or ""
        state = self._state
        try:
            decode_html(state.training, state.round, text, selected(state.compare, state.reference))  # checks them
        except IdsError as error:
            self._error.object = message_html(str(error), "error")
            return
        self._error.object = ""
        state.decode_ids = text

    def _show_ids(self, event: param.parameterized.Event) -> None:
        """Put ids that did not come from the box (a shared link's) into it."""
        if event.new != self._input.value:
            self._input.value = event.new
            self._error.object = ""
