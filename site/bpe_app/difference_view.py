"""A and B side by side: the settings that differ, the first round where they take different pairs
(in words), and both merge lists aligned round by round, the rounds that differ marked.

B's chips carry `data-vocab="b"`, so that a click inspects B's token, not A's with the same id.
"""
from __future__ import annotations

import functools
import html

import panel as pn

import bpe
from bpe.explain import difference

from bpe.panes.chart import MERGE_ROWS, ROWS_ABOVE
from bpe.panes.chips import token_chip
from bpe.panes.wording import plural
from .styles import html_pane

#: The vocabulary name B's chips carry (real tokenizers are named by theirs, A's by none).
B_VOCAB = "b"


def merge_cell(training: bpe.Training, round: int, vocab: str) -> str:
    """One side's merge at `round`: left + right → new token, and its count (two cells)."""
    if round > len(training.merges):
        return f'<td class="bpe-stopped" colspan="2">stopped: {html.escape(training.stopped)}</td>'
    merge, tokens = training.merges[round - 1], training.vocab
    chip = lambda i: token_chip(i, tokens[i], vocab=vocab)  # noqa: E731
    return (f"<td>{chip(merge.left)}{chip(merge.right)} → {chip(merge.id)}</td>"
            f'<td class="bpe-num">{merge.count:,}</td>')


def difference_html(a: bpe.Training, b: bpe.Training | None, rounds: int) -> str:
    """What differs between A and B, and the two merge lists aligned near the selected round ("" with no B)."""
    if b is None:
        return ""
    differing = _differing(a, b)
    settings = difference.setting_differences(a.settings, b.settings)
    changed = ("; ".join(settings) if settings else "none: B is a copy of A") + "."
    parts = ['<h2 style="margin:0; font-size:1.17em">A and B</h2>',
             f'<div class="bpe-note">Settings that differ: {html.escape(changed)}</div>']
    if differing:
        first = differing[0]
        parts.append(f'<div class="bpe-first-difference" data-round="{first}">{html.escape(difference.explain(a, b, first))} '
                     f'<button class="bpe-action" data-action="round" data-value="{first}">Go to round {first}</button></div>')
        parts.append(f'<div class="bpe-note">A and B take different pairs at {len(differing):,} of '
                     f'{plural(max(len(a.merges), len(b.merges)), "round")}.</div>')
    else:
        parts.append(f'<div class="bpe-first-difference">A and B take the same pairs at all '
                     f"{plural(len(a.merges), 'round')}.</div>")
    if len(b.merges) > len(a.merges):
        extra = len(b.merges) - len(a.merges)
        parts.append(f'<div class="bpe-note">B learns {plural(extra, "more round")} than A ({len(b.merges):,} in all): '
                     f"the slider follows A, so they show here, in the aligned lists, and A's views stay at its "
                     f"last round, {len(a.merges):,}.</div>")
    parts.append(aligned_html(a, b, rounds, set(differing)))
    return f'<div class="bpe-difference">{"".join(parts)}</div>'


@functools.lru_cache(maxsize=4)
def _differing(a: bpe.Training, b: bpe.Training) -> list[int]:
    """The rounds that differ, kept per pair: every scrub step redraws this pane, and the pair is
    compared over all its rounds."""
    return difference.differing_rounds(a, b)


def aligned_html(a: bpe.Training, b: bpe.Training, rounds: int, differing: set[int]) -> str:
    """Both merge lists, one row per round, from a few rounds above the selected one."""
    last = max(len(a.merges), len(b.merges))
    start = max(rounds - ROWS_ABOVE, 0)
    first = min(differing, default=None)
    rows = [f'<tr><td colspan="5" class="bpe-more">… {plural(start, "earlier round")}</td></tr>'] if start else []
    for round_ in range(start + 1, min(start + MERGE_ROWS, last) + 1):
        classes = ["bpe-current" if round_ == rounds else "bpe-later" if round_ > rounds else "",
                   "bpe-differs" if round_ in differing else "", "bpe-first" if round_ == first else ""]
        mark = ' <span class="bpe-differs-mark" title="A and B differ here">≠</span>' if round_ in differing else ""
        rows.append(f'<tr class="{" ".join(c for c in classes if c)}"><td class="bpe-num">{round_}{mark}</td>'
                    f"{merge_cell(a, round_, '')}{merge_cell(b, round_, B_VOCAB)}</tr>")
    later = last - start - MERGE_ROWS
    if later > 0:
        rows.append(f'<tr><td colspan="5" class="bpe-more">… {plural(later, "later round")}</td></tr>')
    return ('<div class="bpe-scroll" tabindex="0" role="group" aria-label="A and B merge lists, aligned">'
            '<table class="bpe-merges bpe-aligned"><thead><tr><th class="bpe-num">round</th>'
            '<th>A: pair → new token</th><th class="bpe-num">count</th><th>B: pair → new token</th>'
            f'<th class="bpe-num">count</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


class DifferenceView(pn.viewable.Viewer):
    """A against B, shown while there is a B."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        # Always there, empty without a B (see compare_view on Panel and `visible`).
        self._pane = html_pane(pn.bind(difference_html, p.training, p.training_b, p.round),
                               css_classes=["bpe-difference-pane"])

    def __panel__(self):
        return self._pane
