"""While a training runs: a spinner, how far it is (merges learned of those asked for, time left) and a cancel button."""
from __future__ import annotations

import panel as pn

from .styles import html_pane, light_button


def progress_html(busy: bool, training_now: bool, progress: tuple[int, int, float]) -> str:
    """What the page is doing, in words ("" when idle).

    >>> progress_html(True, True, (500, 2000, 4.0))
    '<span class="bpe-note" role="status">training… 500 of 2,000 merges · about 12 s left</span>'
    >>> progress_html(True, True, (0, 2000, 0.0))
    '<span class="bpe-note" role="status">training… counting pairs</span>'
    """
    if not busy:
        return ""
    if not training_now:
        return '<span class="bpe-note" role="status">working…</span>'
    done, asked, seconds = progress
    if not done:
        return '<span class="bpe-note" role="status">training… counting pairs</span>'
    # Later merges touch fewer chunks than early ones, so the estimate errs long.
    left = f" · about {seconds * (asked - done) / done:,.0f} s left" if asked and seconds >= 1 else ""
    return (f'<span class="bpe-note" role="status">training… {done:,}{f" of {asked:,}" if asked else ""} '
            f"merges{left}</span>")


class ProgressView(pn.viewable.Viewer):
    """The spinner, the progress line and the cancel button, beside the page's title."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        spinner = pn.indicators.LoadingSpinner(value=p.busy, visible=p.busy, size=22, align="center",
                                               name="training…")
        cancel = light_button(name="cancel", css_classes=["cancel-training"], visible=p.training_now, align="center",
                              description="Stop this training and keep showing the last finished one.")
        cancel.on_click(lambda event: state.cancel())
        self._layout = pn.Row(spinner, html_pane(pn.bind(progress_html, p.busy, p.training_now, p.progress),
                                                 sizing_mode=None, align="center"), cancel, align="center")

    def __panel__(self):
        return self._layout
