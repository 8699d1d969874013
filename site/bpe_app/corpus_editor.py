"""The corpus editor, which keeps a very long corpus out of the browser's text box until asked.

A text box holding 2 MB is not free: Chromium keeps each of its lines as nodes, and lays
all of them out again whenever the panel around it changes, which froze the page for
2.7 s after a 2 MB upload and added tens of milliseconds to every scrub step after it.
So a corpus longer than `EDITOR_CHARS` that arrived from elsewhere (an upload, a share
link) is trained on and shown as chips, and the box waits, empty and hidden, until the
person asks for the text. What the person types or pastes in the box stays in it.

>>> editor_note(1_989_905)
'This corpus has 1,989,905 characters: the editor shows at most 100,000 unless asked, because a longer text slows every change on the page.'
"""
from __future__ import annotations

import panel as pn

from .state.documents import MAX_CORPUS_BYTES, megabytes
from .styles import html_pane, light_button

#: The longest corpus shown in the text box without asking.
EDITOR_CHARS = 100_000


def editor_note(length: int) -> str:
    return (f"This corpus has {length:,} characters: the editor shows at most {EDITOR_CHARS:,} unless asked, "
            "because a longer text slows every change on the page.")


class CorpusEditor(pn.viewable.Viewer):
    """The text box for `state.corpus_text`, and, for a long corpus from elsewhere, a note and a button."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._state = state
        self._syncing = False  # set while the box is filled from the state: that is no edit
        self._asked = False  # the current long corpus is to be shown: asked for, or typed in the box
        self._typed = False  # set while the box's own text reaches the state
        self.box = pn.widgets.TextAreaInput(
            name="Corpus", css_classes=["corpus-input"], height=150, max_length=4 * MAX_CORPUS_BYTES,
            sizing_mode="stretch_width",
            description=f"Edit freely, then click outside the box to retrain. At most {megabytes(MAX_CORPUS_BYTES)}.")
        self.note = html_pane("", margin=(0, 10), css_classes=["corpus-long"])
        self.show = light_button(name="Show the text in the editor", css_classes=["corpus-show"],
                                 sizing_mode="stretch_width",
                                 description="Put the whole corpus in the text box, to read or edit it there.")
        self.show.on_click(self._ask)
        self.box.param.watch(self._edited, "value")
        state.param.watch(self._changed, "corpus_text")
        self._layout = pn.Column(self.note, self.show, self.box, margin=0, sizing_mode="stretch_width")
        self._sync()

    def _changed(self, event) -> None:
        # Typed or pasted in the box: it is there already, so it stays. From elsewhere: ask again.
        self._asked, self._typed = self._typed, False
        self._sync()

    def _edited(self, event) -> None:
        if self._syncing or event.new == self._state.corpus_text:
            return
        self._typed = True
        self._state.corpus_text = event.new

    def _ask(self, event) -> None:
        self._asked = True
        self._sync()

    def _sync(self) -> None:
        text = self._state.corpus_text
        hidden = len(text) > EDITOR_CHARS and not self._asked
        in_box = "" if hidden else text
        self._syncing = True
        try:
            with pn.io.hold():
                self.note.object = f'<div class="bpe-note">{editor_note(len(text))}</div>' if hidden else ""
                self.note.visible = self.show.visible = hidden
                self.box.visible = not hidden
                if self.box.value != in_box:  # 2 MB is not sent to the browser again for nothing
                    self.box.value = in_box
        finally:
            self._syncing = False

    def __panel__(self):
        return self._layout
