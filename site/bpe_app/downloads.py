"""Downloads: the trained tokenizer as JSON, the merge table as CSV, and the tokenizer for other libraries.

The exports are those of `python3 -m bpe export`: a Hugging Face `tokenizer.json`, and a tiktoken
rank file with the other arguments of `tiktoken.Encoding` beside it (both in one zip). What a
format cannot express is said on the page instead of downloading.
"""
from __future__ import annotations

import csv
import html
import io
import json
import zipfile

import panel as pn

import bpe
import bpe.files
from bpe import formats

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
    for merge in training.merges:
        writer.writerow((merge.rank + 1, merge.left, merge.right, merge.id, text(merge.left), text(merge.right),
                         text(merge.id), merge.count, merge.replacements, merge.ties, training.tokens[merge.rank + 1]))
    return out.getvalue()


#: The tiktoken zip's files: the rank file, the other arguments of `tiktoken.Encoding`, and how to load both.
TIKTOKEN_RANKS, TIKTOKEN_ARGS, TIKTOKEN_LOADER = "bpe.tiktoken", "bpe.tiktoken.json", "load_bpe.py"
LOADER = f"""\
# Loads the tokenizer in this zip with tiktoken: python3 {TIKTOKEN_LOADER} "some text"
import json
import os
import sys

os.environ["TIKTOKEN_CACHE_DIR"] = ""  # tiktoken would otherwise cache the rank file by its path, not its content
import tiktoken
from tiktoken.load import load_tiktoken_bpe

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "{TIKTOKEN_ARGS}"), encoding="utf-8") as file:
    args = json.load(file)
encoding = tiktoken.Encoding(mergeable_ranks=load_tiktoken_bpe(os.path.join(here, "{TIKTOKEN_RANKS}")), **args)
# encode_ordinary: a special token's text in the input is plain text, as in bpe (encode would refuse it)
print(encoding.encode_ordinary(" ".join(sys.argv[1:]) or "hello world"))
"""


def tiktoken_zip(tokenizer: bpe.Tokenizer) -> bytes:
    """The rank file, its arguments and a loader in one zip; formats.FormatError if tiktoken cannot express it."""
    ranks, args = formats.to_tiktoken(tokenizer, "bpe")
    files = {TIKTOKEN_RANKS: ranks, TIKTOKEN_ARGS: json.dumps(args, ensure_ascii=False, indent=1) + "\n",
             TIKTOKEN_LOADER: LOADER}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), text)
    return out.getvalue()


def tiktoken_problem(training: bpe.Training) -> str:
    """Why the training cannot be a tiktoken rank file, when that is known without trying ("" otherwise)."""
    if not training.settings.alphabet_kind.byte_level:
        return ("tiktoken works on bytes, and this tokenizer's alphabet is chars: set the alphabet to bytes to "
                "export it for tiktoken, or use the Hugging Face file.")
    return ""


def export_note_html(training: bpe.Training) -> str:
    """How to load each export, or why one cannot be made."""
    hf = 'Hugging Face: <code>tokenizers.Tokenizer.from_file("tokenizer-hf.json")</code>.'
    if not training.settings.alphabet_kind.byte_level:
        hf += " A character outside the alphabet has no id, and tokenizers drops it."
    problem = tiktoken_problem(training)
    tiktoken = (f"<b>No tiktoken file</b>: {html.escape(problem)}" if problem else
                f"tiktoken: the zip holds the rank file, the other arguments of <code>tiktoken.Encoding</code> "
                f"and <code>{TIKTOKEN_LOADER}</code>, which loads them.")
    return f'<div class="bpe-note">{hf}</div><div class="bpe-note bpe-export-tiktoken">{tiktoken}</div>'


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
            pn.Row(
                ExportDownload(callback=lambda: self._export(lambda t: formats.to_hf_json(t).encode("utf-8")),
                               filename="tokenizer-hf.json", label="Hugging Face", css_classes=["export-hf"],
                               **button),
                ExportDownload(callback=lambda: self._export(tiktoken_zip), filename="bpe-tiktoken.zip",
                               label="tiktoken (zip)", css_classes=["export-tiktoken"],
                               disabled=state.param.training.rx().rx.pipe(tiktoken_problem).rx.bool(), **button),
                sizing_mode="stretch_width",
            ),
            html_pane(pn.bind(export_note_html, state.param.training), margin=(0, 10)),
            sizing_mode="stretch_width",
        )

    def _export(self, convert) -> io.BytesIO | None:
        """The converted tokenizer, or None after saying in the message line why the format cannot hold it."""
        try:
            return io.BytesIO(convert(self._state.training.tokenizer))
        except formats.FormatError as error:
            self._state.report(f"This tokenizer cannot be exported: {error}")
            return None

    def __panel__(self):
        return self._layout
