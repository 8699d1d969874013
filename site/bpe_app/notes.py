"""Two notes in the settings, as HTML, without Panel: what the corpus on screen is, and what the
downloads hold. The app's panes and the first screen (which shows them before Panel loads) both
render them from here."""
from __future__ import annotations

import html

import bpe
from bpe.presets import PRESETS


def preset_description(name: str, edited: bool = False, upload_name: str = "", corpus_text: str = "") -> str:
    """What the corpus on screen is: the preset's own, or the person's (uploaded or edited).

    >>> preset_description("course", True, "<notes>.txt", "walk walked")
    '<div class="bpe-note"><b>&lt;notes&gt;.txt</b>: 11 characters, uploaded. The other settings start from course.</div>'
    """
    if not edited:
        return f'<div class="bpe-note">{html.escape(PRESETS[name].description)}</div>'
    what = f"<b>{html.escape(upload_name)}</b>: " if upload_name else "<b>Your corpus</b>: "
    how = "uploaded" if upload_name else "edited"
    return (f'<div class="bpe-note">{what}{len(corpus_text):,} characters, {how}. '
            f'The other settings start from {html.escape(name)}.</div>')


def scope_note_html(training: bpe.Training, rounds: int, cut: bool) -> str:
    """What the downloads hold, in words.

    >>> training = bpe.train(PRESETS["course"].documents, PRESETS["course"].settings)
    >>> scope_note_html(training, 2, False)
    '<div class="bpe-note">The downloads hold all 2 merges.</div>'
    >>> scope_note_html(training, 1, True)[22:62]
    'The downloads hold rounds 1–1 of 2: the '

    """
    total = len(training.merges)
    if cut and rounds < total:
        return (f'<div class="bpe-note">The downloads hold rounds 1–{rounds:,} of {total:,}: '
                "the tokenizer as the page shows it now.</div>")
    return f'<div class="bpe-note">The downloads hold all {total:,} merges.</div>'
