"""The whole page: settings on the left; the round, the corpus, the pairs, the encoder and the chart on the right."""
from __future__ import annotations

import panel as pn

from .candidates_view import CandidatesView
from .chart_view import ChartView
from .compare_view import CompareView
from .corpus_view import CorpusView
from .downloads import DownloadsView
from .encoder_view import EncoderView
from .message_view import MessageView
from .scrubber import Scrubber
from .settings_view import SettingsView
from .share_view import ShareView
from .state import AppState
from .styles import html_pane

TITLE = "Byte pair encoding, merge by merge"
INTRO = ("Training counts every adjacent pair of tokens in the corpus, fuses the most frequent pair into a new "
         "token, and repeats. Move through the rounds to watch the corpus shrink and the vocabulary grow.")


def later(work) -> None:
    """Run `work` once the current event is handled: the page then shows `busy` while it runs.

    Panel holds a document's changes while it handles an event, so a training run inside the
    event would send `busy` on and off together, after the work."""
    async def run() -> None:
        with pn.io.hold():
            work()

    pn.state.execute(run)


def heading(text: str, level: int = 3) -> pn.pane.HTML:
    return html_pane(f"<h{level} style='margin:0'>{text}</h{level}>", margin=(12, 10, 0, 10), sizing_mode=None)


class App(pn.viewable.Viewer):
    def __init__(self, state: AppState | None = None, **params):
        super().__init__(**params)
        self.state = state = state or AppState()
        state.schedule = later  # from now on, trainings run after the event that asked for them
        busy = pn.indicators.LoadingSpinner(value=state.param.busy, visible=state.param.busy, size=22,
                                            align="center", name="training…")
        sidebar = pn.Column(
            heading("Settings"), SettingsView(state), heading("Download"), DownloadsView(state),
            heading("Share"), ShareView(state),
            width=330, styles={"background": "#f6f8fa", "border-radius": "8px"},
        )
        main = pn.Column(
            pn.Row(heading(TITLE, 2), busy),
            html_pane(f'<div class="bpe-note">{INTRO}</div>'),
            MessageView(state),
            Scrubber(state),
            heading("Corpus"), CorpusView(state),
            pn.Row(
                pn.Column(heading("Candidate pairs"), CandidatesView(state), sizing_mode="stretch_width"),
                pn.Column(heading("Encode"), EncoderView(state), CompareView(state), sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
            ),
            ChartView(state),
            sizing_mode="stretch_width",
        )
        self._layout = pn.Row(sidebar, main, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout
