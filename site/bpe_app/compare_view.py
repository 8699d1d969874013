"""The encoder's text as a real tokenizer cuts it, beside this one: how many tokens each needs.

A real vocabulary shows what a toy one cannot: Japanese costs several tokens per character
where English costs a fraction of one, and GPT-4 cuts numbers into groups of up to three digits.
"""
from __future__ import annotations

import html

import panel as pn

import bpe
from bpe import real
from bpe.formats.upload import MAX_BYTES
from bpe.options import PRETOKENIZER
from bpe.textio import size_words

from .chips import grouped_chips, token_chip
from .encoder_view import counts_table, side_rows, tokens_html
from .state import COMPARISONS
from .styles import html_pane

#: The largest tokenizer file the page takes.
UPLOAD_LIMIT = size_words(MAX_BYTES)

LABELS = {name: label for label, name in COMPARISONS.items()}


def compare_html(training: bpe.Training, rounds: int, text: str, name: str, reference: real.Encoding | None,
                 training_b: bpe.Training | None = None) -> str:
    """The text's chips under the real tokenizer `name`, and the token counts of this tokenizer,
    B if there is one, and the real one, side by side ("" for none)."""
    if not name:
        return ""
    if reference is None or reference.name != name:
        return f'<div class="bpe-compare"><div class="bpe-note">Loading {html.escape(LABELS[name])}…</div></div>'
    label = getattr(reference, "label", "") or LABELS[name]  # an uploaded file goes by its name
    try:
        ids = reference.encode_ordinary(text)
    except ValueError:  # a lone surrogate, which bpe's own tokenizer cannot encode as UTF-8
        return (f'<div class="bpe-compare"><div class="bpe-heading">{html.escape(label)}</div>'
                '<div class="bpe-note">The text holds a lone surrogate, which UTF-8 cannot encode.</div></div>')
    chips = grouped_chips([token_chip(i, reference.tokens[i], vocab=name) for i in ids], [reference.tokens[i] for i in ids])
    context = real.CONTEXTS.get(name)  # none for an uploaded file: its model is not known
    rows = [*side_rows(training, rounds, text, training_b),
            (label, len(ids), reference.n_vocab, *([context] if context else []))]
    notes = "".join(f'<div class="bpe-note">{html.escape(note)}.</div>' for note in getattr(reference, "notes", ()))
    return (f'<div class="bpe-compare"><div class="bpe-heading">{html.escape(label)}</div>{notes}'
            f"{tokens_html(chips, ids, text)}{counts_table(rows, len(text))}</div>")


#: What the upload box takes, in the page's words.
UPLOAD_NOTE = (f"Or upload your own tokenizer file: a Hugging Face tokenizer.json (byte-level BPE), this page's "
               f"tiktoken zip, or a .tiktoken rank file, split by the pre-tokenizer chosen beside it; at most "
               f"{UPLOAD_LIMIT}. It stays in your browser.")


class CompareView(pn.viewable.Viewer):
    """A choice of real tokenizer, loaded when first chosen, and the text as it cuts it; or a
    tokenizer file of the person's own."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        upload = pn.widgets.FileInput(accept=".json,.tiktoken,.zip,application/json", multiple=False,
                                      name="Upload a tokenizer file", css_classes=["tokenizer-upload"],
                                      sizing_mode="stretch_width")
        split = pn.widgets.Select(name="A rank file's split", options=list(PRETOKENIZER.names), value="gpt2",
                                  css_classes=["rank-split"], width=140,
                                  description="A .tiktoken rank file holds no split pattern: this one cuts the text.")
        handled = {}  # the contents last handled, and their name (the browser sends the two apart)

        def uploaded(event) -> None:
            if upload.value is None or (handled.get("value") is upload.value and handled["name"] == upload.filename):
                return
            handled.update(value=upload.value, name=upload.filename)
            state.load_tokenizer_file(upload.filename or "the file", upload.value, split.value)

        upload.param.watch(uploaded, ["value", "filename"])
        self._layout = pn.Column(
            pn.widgets.Select.from_param(p.compare, name="Compare with a real tokenizer", css_classes=["compare-select"],
                                         sizing_mode="stretch_width"),
            html_pane(f'<div class="bpe-note">{html.escape(UPLOAD_NOTE)}</div>', margin=(0, 10)),
            pn.Row(upload, split, sizing_mode="stretch_width"),
            # Always visible, empty when there is nothing to compare: Panel 1.8 misses a `visible` bound
            # to `compare` when a link sets `encode_text` and `compare` in one update.
            html_pane(pn.bind(compare_html, p.training, p.round, p.encode_text, p.compare, p.reference, p.training_b)),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
