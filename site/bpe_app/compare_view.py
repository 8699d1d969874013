"""The encoder's text as a real tokenizer cuts it, beside this one: how many tokens each needs.

A real vocabulary shows what a toy one cannot: Japanese costs several tokens per character
where English costs a fraction of one, and GPT-4 cuts numbers into groups of up to three digits.
"""
from __future__ import annotations

import html

import panel as pn

import bpe
from bpe import real

from .chips import grouped_chips, token_chip
from .encoder_view import counts_table, side_rows, tokens_html
from .state import COMPARISONS
from .styles import html_pane

LABELS = {name: label for label, name in COMPARISONS.items()}


def compare_html(training: bpe.Training, rounds: int, text: str, name: str, reference: real.Encoding | None,
                 training_b: bpe.Training | None = None) -> str:
    """The text's chips under the real tokenizer `name`, and the token counts of this tokenizer,
    B if there is one, and the real one, side by side ("" for none)."""
    if not name:
        return ""
    if reference is None or reference.name != name:
        return f'<div class="bpe-compare"><div class="bpe-note">Loading {html.escape(LABELS[name])}…</div></div>'
    ids = reference.encode_ordinary(text)
    chips = grouped_chips([token_chip(i, reference.tokens[i], vocab=name) for i in ids], [reference.tokens[i] for i in ids])
    rows = [*side_rows(training, rounds, text, training_b), (LABELS[name], len(ids), reference.n_vocab)]
    return (f'<div class="bpe-compare"><div class="bpe-heading">{html.escape(LABELS[name])}</div>'
            f"{tokens_html(chips, ids, text)}{counts_table(rows, len(text))}</div>")


class CompareView(pn.viewable.Viewer):
    """A choice of real tokenizer, loaded when first chosen, and the text as it cuts it."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        self._layout = pn.Column(
            pn.widgets.Select.from_param(p.compare, name="Compare with a real tokenizer", css_classes=["compare-select"],
                                         sizing_mode="stretch_width"),
            # Always visible, empty when there is nothing to compare: Panel 1.8 misses a `visible` bound
            # to `compare` when a link sets `encode_text` and `compare` in one update.
            html_pane(pn.bind(compare_html, p.training, p.round, p.encode_text, p.compare, p.reference, p.training_b)),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
