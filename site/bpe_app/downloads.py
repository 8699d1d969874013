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
import bpe.files
from bpe import formats
from bpe.options import FORMAT

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
        button = dict(button_type="primary", button_style="outline", sizing_mode="stretch_width")
        self._layout = pn.Column(
            pn.Row(
                pn.widgets.FileDownload(callback=lambda: io.StringIO(bpe.files.dumps(state.training)),
                                        filename="tokenizer.json", label="tokenizer JSON", **button),
                pn.widgets.FileDownload(callback=lambda: io.StringIO(merges_csv(state.training)),
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

    def _export(self, convert) -> io.BytesIO | None:
        """The converted tokenizer, or None after saying in the message line why the format cannot hold it."""
        try:
            return io.BytesIO(convert(self._state.training.tokenizer))
        except formats.FormatError as error:
            self._state.report(f"This tokenizer cannot be exported: {error}")
            return None

    def __panel__(self):
        return self._layout
