"""The chart of tokens and vocabulary over the rounds (SVG) and the list of merges, as HTML."""
from __future__ import annotations

import dataclasses
import math

from ..trainers.training import Training

from .chips import token_chip
from .wording import plural

#: Rows of the merge list: it starts a few rows above the selected round, so that round stays in view.
MERGE_ROWS = 60
ROWS_ABOVE = 5
#: Points per line at most: a 10,000-merge training is drawn from every nth round.
MAX_POINTS = 400
WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 64, 64, 28, 40  # margins around the plotting area
TOKENS_COLOUR, VOCAB_COLOUR, ROUND_COLOUR = "#0969da", "#bf3989", "#cf222e"




def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high]: steps of 1, 2 or 5 times a power of ten.

    >>> nice_ticks(0, 137)
    [0, 50, 100]
    >>> nice_ticks(14, 34)
    [15, 20, 25, 30]
    >>> nice_ticks(0, 1)
    [0, 1]
    """
    span = max(high - low, 1)
    step = 10 ** max(math.floor(math.log10(span / count)), 0)  # whole numbers only: rounds and counts
    step *= next(m for m in (1, 2, 5, 10) if span / (step * m) <= count)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) // step) + 1)]


@dataclasses.dataclass(frozen=True)
class _Scales:
    """Where a round, a corpus length and a vocabulary size go on the chart."""

    last: int  # the last round (at least 1)
    token_top: int
    vocab_low: int
    vocab_high: int
    width: float = WIDTH - LEFT - RIGHT
    height: float = HEIGHT - TOP - BOTTOM

    def x(self, k: float) -> float:
        return LEFT + self.width * k / self.last

    def y_tokens(self, n: float) -> float:
        return TOP + self.height * (1 - n / self.token_top)

    def y_vocab(self, n: float) -> float:
        return TOP + self.height * (1 - (n - self.vocab_low) / (self.vocab_high - self.vocab_low))


def chart_svg(training: Training, rounds: int, training_b: Training | None = None) -> str:
    """Corpus length (left axis) and vocabulary size (right axis) against the round, the selected round marked.

    B's lines, if there is a B, are drawn dashed on the same axes."""
    tokens = training.tokens
    vocab = _vocab_sizes(training)
    scales = _scales([training] + ([training_b] if training_b is not None else []))
    b_parts, legend = _b_parts(scales, training_b, rounds) if training_b is not None else ([], "")
    # In a box of its own that scrolls sideways when the window is narrower than the chart can be
    # drawn legibly (.bpe-chart's min-width), so the page itself never does.
    return "".join(['<div class="bpe-chart-box" tabindex="0" role="group" aria-label="chart">',
                    f'<svg class="bpe-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
                    f'data-x0="{scales.x(0):.1f}" data-x1="{scales.x(scales.last):.1f}" data-last="{scales.last}" '
                    f'data-vocab0="{vocab[0]}" data-tokens="{_hover_points(tokens)}" '
                    f'aria-label="corpus length and vocabulary size by round; click a round to go to it">',
                    *_axes(scales), *_lines(scales, tokens, vocab), *b_parts, _marker(scales, tokens, vocab, rounds),
                    "</svg></div>", legend])


def _vocab_sizes(training: Training) -> list[int]:
    return [training.vocab_size(k) for k in range(len(training.tokens))]


def _scales(trainings: list[Training]) -> _Scales:
    """Axes that hold every training's lines (A's, and B's when there is one)."""
    vocabs = [_vocab_sizes(t) for t in trainings]
    low = min(v[0] for v in vocabs)
    return _Scales(max(max(len(t.merges) for t in trainings), 1), max(max(t.tokens[0] for t in trainings), 1),
                   low, max(max(v[-1] for v in vocabs), low + 1))


def _b_parts(scales: _Scales, training_b: Training, rounds: int) -> tuple[list[str], str]:
    """B's dashed lines and a ring at its round, and the legend that says which is which."""
    tokens, vocab, k = training_b.tokens, _vocab_sizes(training_b), min(rounds, len(training_b.merges))
    ring = (f'<g class="bpe-b-marker"><circle cx="{scales.x(k):.1f}" cy="{scales.y_tokens(tokens[k]):.1f}" '
            f'r="4" fill="none" stroke="{TOKENS_COLOUR}" stroke-width="2"/></g>')
    legend = (f'<div class="bpe-note bpe-legend">A solid, B dashed (its round marked by a ring): B has '
              f"{tokens[k]:,} tokens and a vocabulary of {vocab[k]:,} at round {k}.</div>")
    return [*_lines(scales, tokens, vocab, dashed=True), ring], legend


def _hover_points(tokens: list[int]) -> str:
    """"round:tokens" at the rounds the lines are drawn through, for the figures shown on hover.

    >>> _hover_points([137, 118, 99])
    '0:137 1:118 2:99'
    """
    return " ".join(f"{k}:{tokens[k]}" for k in _points(len(tokens)))


def _points(count: int) -> list[int]:
    """The rounds a line is drawn through: every nth, at most MAX_POINTS, and the last."""
    every = max(1, math.ceil(count / MAX_POINTS))
    return sorted(set(range(0, count, every)) | {count - 1})


def _axes(s: _Scales) -> list[str]:
    top, bottom, left, right = TOP, TOP + s.height, LEFT, LEFT + s.width
    parts = [f'<line x1="{s.x(t):.1f}" x2="{s.x(t):.1f}" y1="{top}" y2="{bottom}" class="bpe-grid"/>'
             f'<text x="{s.x(t):.1f}" y="{bottom + 16}" text-anchor="middle">{t}</text>' for t in nice_ticks(0, s.last)]
    parts += [f'<line x1="{left}" x2="{right}" y1="{s.y_tokens(t):.1f}" y2="{s.y_tokens(t):.1f}" '
              f'class="bpe-grid"/><text x="{left - 6}" y="{s.y_tokens(t) + 4:.1f}" text-anchor="end" '
              f'fill="{TOKENS_COLOUR}">{t}</text>' for t in nice_ticks(0, s.token_top)]
    parts += [f'<text x="{right + 6}" y="{s.y_vocab(t) + 4:.1f}" fill="{VOCAB_COLOUR}">{t}</text>'
              for t in nice_ticks(s.vocab_low, s.vocab_high)]
    middle = TOP + s.height / 2
    return parts + [
        f'<text x="{LEFT + s.width / 2}" y="{HEIGHT - 4}" text-anchor="middle">round</text>',
        f'<text x="14" y="{middle}" transform="rotate(-90 14 {middle})" text-anchor="middle" '
        f'fill="{TOKENS_COLOUR}">corpus length (tokens)</text>',
        f'<text x="{WIDTH - 10}" y="{middle}" transform="rotate(90 {WIDTH - 10} {middle})" '
        f'text-anchor="middle" fill="{VOCAB_COLOUR}">vocabulary size</text>',
    ]


def _lines(s: _Scales, tokens: list[int], vocab: list[int], dashed: bool = False) -> list[str]:
    points = _points(len(tokens))
    token_line = " ".join(f"{s.x(k):.1f},{s.y_tokens(tokens[k]):.1f}" for k in points)
    vocab_line = " ".join(f"{s.x(k):.1f},{s.y_vocab(vocab[k]):.1f}" for k in points)
    style = ' stroke-dasharray="6 4" class="bpe-line-b"' if dashed else ""
    return [f'<polyline points="{token_line}" fill="none" stroke="{TOKENS_COLOUR}" stroke-width="2"{style}/>',
            f'<polyline points="{vocab_line}" fill="none" stroke="{VOCAB_COLOUR}" stroke-width="2"{style}/>']


def _marker(s: _Scales, tokens: list[int], vocab: list[int], rounds: int) -> str:
    x, early = s.x(rounds), rounds < s.last / 2
    return (f'<g class="bpe-round-marker"><line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{TOP + s.height}" '
            f'stroke="{ROUND_COLOUR}" stroke-width="1.5" stroke-dasharray="5 3"/>'
            f'<circle cx="{x:.1f}" cy="{s.y_tokens(tokens[rounds]):.1f}" r="4" fill="{TOKENS_COLOUR}"/>'
            f'<circle cx="{x:.1f}" cy="{s.y_vocab(vocab[rounds]):.1f}" r="4" fill="{VOCAB_COLOUR}"/>'
            f'<text x="{x + (6 if early else -6):.1f}" y="{TOP - 10}" '
            f'text-anchor="{"start" if early else "end"}" fill="{ROUND_COLOUR}">round {rounds}: '
            f"{tokens[rounds]} tokens, vocabulary {vocab[rounds]}</text></g>")


def merges_html(training: Training, rounds: int) -> str:
    """The merge list near the selected round: round, left + right → new token, count."""
    merges, vocab = training.merges, training.vocab
    if not merges:
        return f'<div class="bpe-note">No merges learned: {training.stopped}.</div>'
    start = max(rounds - ROWS_ABOVE, 0)
    rows = [f'<tr><td colspan="3" class="bpe-more">… {plural(start, "earlier merge")}</td></tr>'] if start else []
    for merge in merges[start:start + MERGE_ROWS]:
        round_ = merge.rank + 1
        state = "bpe-current" if round_ == rounds else "bpe-later" if round_ > rounds else ""
        rows.append(
            f'<tr class="{state}"><td class="bpe-num">{round_}</td>'
            f"<td>{token_chip(merge.left, vocab[merge.left])}{token_chip(merge.right, vocab[merge.right])}"
            f' → {token_chip(merge.id, vocab[merge.id])}</td><td class="bpe-num">{merge.count}</td></tr>'
        )
    later = len(merges) - start - MERGE_ROWS
    if later > 0:
        rows.append(f'<tr><td colspan="3" class="bpe-more">… {plural(later, "later merge")}</td></tr>')
    return (f'<div class="bpe-heading">Merge list</div><div class="bpe-scroll" tabindex="0" role="group" aria-label="merge list"><table class="bpe-merges">'
            f'<thead><tr><th class="bpe-num">round</th><th>pair → new token</th><th class="bpe-num">count</th></tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table></div>')
