"""Downloads: the trained tokenizer as JSON, the merge table as CSV, and the tokenizer for other libraries.

The exports are those of `python3 -m bpe export`, one button per format in `bpe.options.FORMAT`
(each format's module says its download, what it cannot hold, and how to load it). What a
format cannot express is said on the page instead of downloading.
"""
from __future__ import annotations

import csv
import html
import io

import panel as pn

import bpe
from bpe import formats
from bpe.options import FORMAT

from .notes import scope_note_html
from .styles import html_pane

#: The merge table's columns: a merge's record, its tokens as text, and the corpus length after it.
CSV_COLUMNS = ("round", "left", "right", "id", "left_text", "right_text", "text", "count", "replacements", "ties",
               "corpus_tokens")


def merges_csv(training: bpe.Training) -> str:
    """One row per merge, in rank order; tokens as text with broken UTF-8 as \\xNN."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    text = training.tokenizer.token_text
    for row in bpe.files.merge_rows(training):
        writer.writerow((row["rank"] + 1, row["left"], row["right"], row["id"], text(row["left"]), text(row["right"]),
                         row["text"], row["count"], row["replacements"], row["ties"], training.tokens[row["rank"] + 1]))
    return out.getvalue()


def export_note_html(training: bpe.Training) -> str:
    """How to load each export, or why one cannot be made."""
    notes = []
    for value in FORMAT:
        module = value.module()
        problem = module.problem(training.tokenizer)
        note = f"<b>No {value.label} file</b>: {html.escape(problem)}" if problem else module.how_to_load(
            training.tokenizer)
        notes.append(f'<div class="bpe-note bpe-export-{value.name}">{note}</div>')
    return "".join(notes)


def up_to(training: bpe.Training, rounds: int | None) -> bpe.Training:
    """The training to download: all of it (None), or only its first `rounds` merges.

    >>> t = bpe.train(["aab aab ab"], bpe.Settings(pretokenizer="none", merges=2, min_frequency=1))
    >>> len(up_to(t, 1).merges), up_to(t, None) is t
    (1, True)
    """
    if rounds is None or rounds >= len(training.merges):
        return training
    return bpe.Training(training.settings, training.corpus, training.merges[:rounds],
                        f"cut at round {rounds} on the page")


class ExportDownload(pn.widgets.FileDownload):
    """A download whose callback returns None when there is nothing to send (having said why)."""

    def _sync_data(self, fileobj) -> None:
        if fileobj is not None:
            super()._sync_data(fileobj)


class DownloadsView(pn.viewable.Viewer):
    """Buttons that save the current (last good) training."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._state = state
        self._cut = pn.widgets.Checkbox(name="only up to the selected round", css_classes=["download-cut"])
        button = dict(button_type="primary", button_style="outline", sizing_mode="stretch_width")
        self._layout = pn.Column(
            self._cut,
            html_pane(pn.bind(scope_note_html, state.param.training, state.param.round, self._cut), margin=(0, 10),
                      css_classes=["bpe-scope-note-pane"]),
            pn.Row(
                pn.widgets.FileDownload(callback=lambda: io.StringIO(bpe.files.dumps(self.training())),
                                        filename="tokenizer.json", label="tokenizer JSON", **button),
                pn.widgets.FileDownload(callback=lambda: io.StringIO(merges_csv(self.training())),
                                        filename="merges.csv", label="merge table CSV", **button),
                sizing_mode="stretch_width",
            ),
            pn.Row(*(self._export_button(value, button) for value in FORMAT), sizing_mode="stretch_width"),
            html_pane(pn.bind(export_note_html, state.param.training), margin=(0, 10)),
            sizing_mode="stretch_width",
        )

    def _export_button(self, value, style: dict) -> ExportDownload:
        """A download of the tokenizer in one of the registry's formats, off while it cannot hold it."""
        module = value.module()
        problem = self._state.param.training.rx().rx.pipe(lambda training: module.problem(training.tokenizer))
        return ExportDownload(callback=lambda: self._export(module.download), filename=module.DOWNLOAD,
                              label=value.label + (" (zip)" if module.DOWNLOAD.endswith(".zip") else ""),
                              css_classes=[f"export-{value.name}"], disabled=problem.rx.bool(), **style)

    def training(self) -> bpe.Training:
        """What the buttons save: the last good training, all of it or up to the selected round."""
        return up_to(self._state.training, self._state.round if self._cut.value else None)

    def _export(self, convert) -> io.BytesIO | None:
        """The converted tokenizer, or None after saying in the message line why the format cannot hold it."""
        try:
            return io.BytesIO(convert(self.training().tokenizer))
        except formats.FormatError as error:
            self._state.report(f"This tokenizer cannot be exported: {error}")
            return None

    def __panel__(self):
        return self._layout
