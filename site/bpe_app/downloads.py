"""Downloads: the trained tokenizer as JSON, and the merge table as CSV."""
from __future__ import annotations

import csv
import io

import panel as pn

import bpe
import bpe.files

#: The merge table's columns: a merge's record, its tokens as text, and the corpus length after it.
CSV_COLUMNS = ("round", "left", "right", "id", "left_text", "right_text", "text", "count", "replacements", "ties",
               "corpus_tokens")


def merges_csv(training: bpe.Training) -> str:
    """One row per merge, in rank order; tokens as text with broken UTF-8 as \\xNN."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    text = training.tokenizer.token_text
    for merge in training.merges:
        writer.writerow((merge.rank + 1, merge.left, merge.right, merge.id, text(merge.left), text(merge.right),
                         text(merge.id), merge.count, merge.replacements, merge.ties, training.tokens[merge.rank + 1]))
    return out.getvalue()


class DownloadsView(pn.viewable.Viewer):
    """Buttons that save the current (last good) training."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._layout = pn.Row(
            pn.widgets.FileDownload(callback=lambda: io.StringIO(bpe.files.dumps(state.training)),
                                    filename="tokenizer.json", label="tokenizer JSON", button_type="primary",
                                    button_style="outline", sizing_mode="stretch_width"),
            pn.widgets.FileDownload(callback=lambda: io.StringIO(merges_csv(state.training)),
                                    filename="merges.csv", label="merge table CSV", button_type="primary",
                                    button_style="outline", sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
