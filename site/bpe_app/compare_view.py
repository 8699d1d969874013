"""The encoder's text as a real tokenizer cuts it, beside this one: how many tokens each needs.

A real vocabulary shows what a toy one cannot: Japanese costs several tokens per character
where English costs a fraction of one, and GPT-4 cuts numbers into groups of up to three digits.
"""
from __future__ import annotations

import html
from collections.abc import Sequence

import panel as pn

import bpe
from bpe import real
from bpe.explain.sentencepiece import differences
from bpe.formats.upload import MAX_BYTES
from bpe.io.textio import size_words
from bpe.options import PRETOKENIZER
from bpe.real.sentencepiece import SentencePieceBPE

from bpe.panes.chips import grouped_chips, special_chip, token_chip
from bpe.panes.encoding import TYPED, counts_table, side_rows, specials_note, tokens_html
from bpe.panes.piece_stepper import piece_stepper_html
from .state import COMPARISONS
from .state.real_tokenizers import selected
from .styles import file_input, html_pane

#: The largest tokenizer file the page takes.
UPLOAD_LIMIT = size_words(MAX_BYTES)

LABELS = {name: label for label, name in COMPARISONS.items()}


def real_ids(encoding: real.Encoding, text: str, specials: bool) -> list[int]:
    """The text's ids: special tokens' text as the specials with `specials`, else as plain text."""
    return encoding.encode(text, allowed_special="all") if specials else encoding.encode_ordinary(text)


def compare_html(training: bpe.Training, rounds: int, text: str, name: str, reference: real.Encoding | None,
                 training_b: bpe.Training | None = None, others: Sequence[real.Encoding] = (),
                 specials: bool = False) -> str:
    """The text's chips under the real tokenizer `name`, and the token counts of this tokenizer,
    B if there is one, the real one and `others` (more real ones), side by side ("" for none).
    With `specials`, a special token's text is that special, shown as a chip of its own kind."""
    if not name and not others:
        return ""
    if name and (reference is None or reference.name != name):
        return f'<div class="bpe-compare"><div class="bpe-note">Loading {html.escape(LABELS[name])}…</div></div>'
    shown, rows = "", side_rows(training, rounds, text, training_b, specials)
    if name:
        label = getattr(reference, "label", "") or LABELS[name]  # an uploaded file goes by its name
        ids = real_ids(reference, text, specials)
        named = {i: token for token, i in reference.special_tokens.items()} if specials else {}
        tokens = [reference.token_bytes(i) for i in ids]
        chips = grouped_chips([special_chip(i, named[i], TYPED) if i in named
                               else token_chip(i, token, vocab=name) for i, token in zip(ids, tokens)], tokens)
        rows.append(real_row(reference, len(ids), label))
        notes = specials_note(reference.special_tokens, text, specials) + "".join(
            f'<div class="bpe-note">{html.escape(note)}.</div>' for note in getattr(reference, "notes", ()))
        if isinstance(reference, SentencePieceBPE):
            notes += differences_html(reference, text)
        shown = f'<div class="bpe-heading">{html.escape(label)}</div>{notes}{tokens_html(chips, ids, text)}'
    else:
        shown = '<div class="bpe-heading">Token counts</div>'
    rows += [real_row(other, len(real_ids(other, text, specials))) for other in others]
    return f'<div class="bpe-compare">{shown}{counts_table(rows, len(text))}</div>'


def differences_html(model: SentencePieceBPE, text: str) -> str:
    """Where this SentencePiece model cuts the text unlike byte-level BPE, in sentences."""
    items = "".join(f"<li>{html.escape(sentence)}</li>" for sentence in differences(model, text))
    return f'<ul class="bpe-differences" aria-label="how SentencePiece differs here">{items}</ul>' if items else ""


def real_row(encoding: real.Encoding, tokens: int, label: str = "") -> tuple:
    """A counts_table row for a real tokenizer: its label, tokens, vocabulary and its model's context window."""
    context = real.CONTEXTS.get(encoding.name)  # none for an uploaded file: its model is not known
    return (label or LABELS[encoding.name], tokens, encoding.n_vocab, *([context] if context else []))


def comparison_html(training, rounds, text, name, reference, training_b, counted, loaded, specials=False) -> str:
    """`compare_html` from the state's inputs (what the view binds)."""
    return compare_html(training, rounds, text, name, reference, training_b, others_of(counted, loaded, name),
                        specials)


def others_of(counted: list[str], loaded: dict, compare: str) -> list[real.Encoding]:
    """The loaded real tokenizers `counted` names, in its order, less the one compared with already."""
    return [loaded[name] for name in counted if name in loaded and name != compare]


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
        upload = file_input(accept=".json,.tiktoken,.zip,application/json", multiple=False,
                            name="Upload a tokenizer file", css_classes=["tokenizer-upload"], sizing_mode="stretch_width")
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
            ComparisonPanes(state),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout


class ComparisonPanes(pn.viewable.Viewer):
    """The text as the real tokenizer compared with cuts it, the counts, and SentencePiece's joins."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        self._layout = pn.Column(
            # Always visible, empty when there is nothing to compare: Panel 1.8 misses a `visible` bound
            # to `compare` when a link sets `encode_text` and `compare` in one update.
            html_pane(pn.bind(comparison_html, p.training, p.round, p.encode_text, p.compare, p.reference, p.training_b,
                              p.counted, p.loaded, p.specials_in_text)),
            html_pane(pn.bind(lambda compare, reference, text, step: piece_stepper_html(selected(compare, reference), text, step),
                              p.compare, p.reference, p.encode_text, p.piece_step), css_classes=["bpe-piece-stepper-pane"]),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
