"""The whole page: settings on the left; the round, the corpus, the pairs, the encoder and the chart on the right."""
from __future__ import annotations

import inspect

import panel as pn

from .a11y import AccessibleNames
from .actions import listening
from .b_settings_view import BSettingsView
from .candidates_view import CandidatesView
from .chart_view import ChartView
from .chat_view import ChatView
from .compare_view import CompareView
from .corpus_view import CorpusView
from .difference_view import DifferenceView
from .downloads import DownloadsView
from .decode_view import DecodeView
from .encoder_view import EncoderView
from .inspector_view import InspectorView
from .languages_view import LanguagesView
from .message_view import MessageView
from .progress_view import ProgressView
from .scrubber import Scrubber
from .settings_view import SettingsView
from .share_view import ShareView
from .state import AppState
from .stepper_view import StepperView
from .styles import html_pane
from .tour_view import TourButtons, TourView
from .vocabulary_view import VocabularyView

TITLE = "Byte pair encoding, merge by merge"
INTRO = ("Training counts every adjacent pair of tokens in the corpus, fuses the most frequent pair into a new "
         "token, and repeats. Move through the rounds to watch the corpus shrink and the vocabulary grow.")


#: On a phone, where the settings follow the visualization: one tap brings them into view.
SETTINGS_JUMP = ('<button class="bpe-action bpe-settings-jump" data-action="settings" '
                 'aria-label="Settings: go to the settings, below">Settings ↓</button>')

#: How the page's boxes share a row: each gets its basis, and wraps below the other when the
#: window is narrower than both (a phone gets one column).
FLEX = """
:host { gap: 0 12px; }
.bpe-sidebar { flex: 1 1 300px; max-width: 340px; background: #f6f8fa; border-radius: 8px; }
.bpe-main { flex: 999 1 560px; min-width: 0; }
.bpe-half { flex: 1 1 340px; min-width: 0; }
@media (max-width: 700px) { .bpe-sidebar { max-width: none; } .bpe-main { flex-basis: 100%; order: -1; }
  .bpe-encode-half { order: -1; } }
@media (prefers-color-scheme: dark) { .bpe-sidebar { background: #151b23; } }
"""


def later(work) -> None:
    """Run `work` once the current event is handled: the page then shows `busy` while it runs.

    Panel holds a document's changes while it handles an event, so a training run inside the
    event would send `busy` on and off together, after the work. `work` may return a coroutine
    (a training in slices): it is then awaited, outside the hold, so its progress is sent as it goes."""
    async def run() -> None:
        with pn.io.hold():
            result = work()
        if inspect.isawaitable(result):
            await result

    pn.state.execute(run)


def heading(text: str, level: int = 2) -> pn.pane.HTML:
    size = {1: "1.5em", 2: "1.17em"}.get(level, "1em")  # the page's one h1 is its title; sections are h2
    return html_pane(f"<h{level} style='margin:0; font-size:{size}'>{text}</h{level}>", margin=(12, 10, 0, 10),
                     sizing_mode=None)


class App(pn.viewable.Viewer):
    def __init__(self, state: AppState | None = None, **params):
        super().__init__(**params)
        self.state = state = state or AppState()
        state.schedule = later  # from now on, trainings run after the event that asked for them
        state.hold = pn.io.hold
        sidebar = pn.Column(
            heading("Settings"), SettingsView(state), heading("Compare with B"), BSettingsView(state),
            heading("Download"), DownloadsView(state),
            heading("Share"), ShareView(state),
            css_classes=["bpe-sidebar"], sizing_mode="stretch_width",
        )
        main = pn.Column(
            pn.FlexBox(heading(TITLE, 1), TourButtons(state), html_pane(SETTINGS_JUMP, sizing_mode=None, align="center"),
                       ProgressView(state), flex_wrap="wrap", align_items="center", sizing_mode="stretch_width"),
            html_pane(f'<div class="bpe-note">{INTRO}</div>'),
            MessageView(state),
            Scrubber(state),
            DifferenceView(state),
            heading("Corpus"), CorpusView(state),
            pn.FlexBox(
                pn.Column(heading("Candidate pairs"), CandidatesView(state), css_classes=["bpe-half"]),
                pn.Column(heading("Encode"), EncoderView(state), heading("Step by step", 3), StepperView(state),
                          CompareView(state), heading("Decode", 3), DecodeView(state), css_classes=["bpe-half", "bpe-encode-half"]),
                stylesheets=[FLEX], sizing_mode="stretch_width",
            ),
            ChartView(state),
            heading("Cost across languages"), LanguagesView(state),
            heading("Chat: a conversation as the model sees it"), ChatView(state),
            heading("Vocabulary"), VocabularyView(state),
            InspectorView(state), TourView(state),
            css_classes=["bpe-main"], sizing_mode="stretch_width",
        )
        clicks = listening(state)
        # Side by side where there is room; on a phone the visualization comes first and the settings
        # after it, one tap away (the title's "Settings" button, or a link ending in #settings).
        self._layout = pn.FlexBox(sidebar, main, AccessibleNames(width=0, height=0, margin=0), clicks,
                                  stylesheets=[FLEX], sizing_mode="stretch_width",
                                  flex_wrap="wrap", align_items="flex-start")

    def __panel__(self):
        return self._layout
