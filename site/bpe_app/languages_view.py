"""Cost across languages: one passage in seven languages, encoded by every tokenizer chosen (this
one at the selected round, B, the real one compared with, and any counted too), as tokens per
character and as a ratio to English.

>>> from .state import AppState
>>> state = AppState(preset="english-japanese")
>>> page = languages_html(state.training, 200, None, None, [])
>>> "Japanese (kana and kanji)" in page and "×1.00" in page
True
"""
from __future__ import annotations

import functools
import html
from collections.abc import Sequence

import panel as pn

import bpe
from bpe import real
from bpe.explain import languages

from .compare_view import LABELS, others_of
from .state import COMPARISONS
from .styles import html_pane

#: The real tokenizers, as the counting menu offers them.
REAL = {label: name for label, name in COMPARISONS.items() if name in real.NAMES}


def languages_html(training: bpe.Training, rounds: int, training_b: bpe.Training | None,
                   reference: real.Encoding | None, others: Sequence[real.Encoding]) -> str:
    """The table: a row per language; per tokenizer, tokens, tokens per character and × English."""
    counted = {f"A, round {rounds}" if training_b else f"this tokenizer, round {rounds}": _ours(training, rounds)}
    if training_b is not None:
        b_rounds = min(rounds, len(training_b.merges))
        counted[f"B, round {b_rounds}"] = _ours(training_b, b_rounds)
    for encoding in ([reference] if reference is not None else []) + list(others):
        counted[getattr(encoding, "label", "") or LABELS[encoding.name]] = _real(encoding)
    encoders = list(counted)
    rows = languages.table(counted)
    heads = "".join(f'<th colspan="3">{html.escape(name)}</th>' for name in encoders)
    units = "".join('<th class="bpe-num">tokens</th><th class="bpe-num">per character</th>'
                    '<th class="bpe-num">× English</th>' for _ in encoders)
    body = []
    for row in rows:
        cells = "".join(_cells(row.costs[name]) for name in encoders)
        body.append(f'<tr><th scope="row">{html.escape(row.language)}</th>'
                    f'<td class="bpe-num">{row.characters:,}</td>{cells}</tr>')
    return ('<div class="bpe-scroll bpe-languages" tabindex="0" role="group" aria-label="cost across languages">'
            '<table class="bpe-merges"><thead>'
            f'<tr><th rowspan="2">language (script)</th><th rowspan="2" class="bpe-num">characters</th>{heads}</tr>'
            f'<tr>{units}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')


@functools.lru_cache(maxsize=64)
def _ours(training: bpe.Training, rounds: int) -> dict:
    """A training's counts at a round, kept: scrubbing back and forth asks for the same again."""
    return languages.counts(lambda text: training.tokenizer.encode_ordinary(text, rounds=rounds))


@functools.lru_cache(maxsize=16)
def _real(encoding: real.Encoding) -> dict:
    return languages.counts(encoding.encode_ordinary)


def state_languages_html(training, rounds, training_b, name, reference, counted, loaded) -> str:
    """`languages_html` from the state's inputs (what the view binds): the compared tokenizer once loaded."""
    compared = reference if name and reference is not None and reference.name == name else None
    return languages_html(training, rounds, training_b, compared, others_of(counted, loaded, name))


def _cells(cost: languages.Cost) -> str:
    if cost.tokens is None:
        return '<td class="bpe-num">–</td>' * 3
    ratio = f"×{cost.ratio:.2f}" if cost.ratio is not None else "–"
    return (f'<td class="bpe-num">{cost.tokens:,}</td><td class="bpe-num">{cost.per_character:.2f}</td>'
            f'<td class="bpe-num">{ratio}</td>')


NOTE = ("The same paragraph, “What is Debian?” from the Debian Installation Guide, in each translation "
        "Debian ships: what saying it costs each tokenizer. A vocabulary trained mostly on English text "
        "splits other scripts into more, smaller pieces, so the same words cost several times as many tokens.")


class LanguagesView(pn.viewable.Viewer):
    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        counted = pn.widgets.MultiChoice(name="Count with these real tokenizers too", options=REAL, value=state.counted,
                                         css_classes=["counted-select"], sizing_mode="stretch_width",
                                         description="Each is loaded when first chosen; the encoder's counts show them too.")
        counted.link(state, value="counted")
        state.param.watch(lambda event: setattr(counted, "value", list(event.new)), "counted")
        self._layout = pn.Column(
            html_pane(f'<div class="bpe-note">{html.escape(NOTE)}</div>', margin=(0, 10)),
            counted,
            html_pane(pn.bind(state_languages_html, p.training, p.round, p.training_b, p.compare, p.reference,
                              p.counted, p.loaded)),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
