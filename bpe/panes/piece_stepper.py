"""A SentencePiece model's encoding, one join at a time: the text as characters (a space as ▁,
one ▁ put before it), then, again and again, the adjacent pair whose joined piece scores highest.

It is the SentencePiece counterpart of the encoder's stepper (`panes.stepper`), which walks a
merge list by rank: here there is no list, only scores, and each step says which pair won and why.

>>> from bpe.real.sentencepiece import SentencePieceBPE
>>> model = SentencePieceBPE.from_pieces(["<unk>"], ["▁", "w", "a", "l", "k", "▁w", "al", "▁wal", "▁walk"],
...                                      scores=[0, -1, -2, -3, -4, -5, -6, -7, -8])
>>> [len(parts) for parts in piece_states(model, "walk")[0]]
[5, 4, 3, 2, 1]
"""
from __future__ import annotations

import functools
import html

from ..real.sentencepiece import Merge, SentencePieceBPE

from .chips import grouped_chips, token_chip
from .wording import plural

#: Characters stepped through at most.
TEXT_LIMIT = 400


@functools.lru_cache(maxsize=4)
def piece_states(model: SentencePieceBPE, text: str) -> tuple[list[list[tuple[int, str]]], list[Merge], str]:
    """The pieces after each join (from none), each as (its first symbol's index, piece); the
    joins; and the normalized text stepped through."""
    normalized = model.normalized(text[:TEXT_LIMIT])
    _, joins = model.merges(normalized)
    pieces = {i: piece for i, (piece, _) in enumerate(model._symbols(normalized))}
    order = sorted(pieces)
    states = [[(i, pieces[i]) for i in order]]
    for join in joins:
        order.remove(right := order[order.index(join.position) + 1])
        pieces[join.position] += pieces.pop(right)
        states.append([(i, pieces[i]) for i in order])
    return states, joins, normalized


def _chips(model: SentencePieceBPE, parts: list[tuple[int, str]], made_at: int | None) -> str:
    """The pieces as chips, the one the step made (at symbol `made_at`) outlined."""
    chips, tokens = [], []
    for start, piece in parts:
        token_id = model.joinable.get(piece, model.reserved.get(piece))
        if token_id is None:  # no piece: the encoder falls back to its bytes at the end
            title = html.escape(f'"{piece}": no piece, so it falls back to its UTF-8 bytes')
            chips.append(f'<span class="bpe-chip bpe-unknown" data-id="unknown" title="{title}">{html.escape(piece)}</span>')
        else:
            chips.append(token_chip(token_id, model.tokens[token_id], new=start == made_at, vocab=model.name))
        tokens.append(piece.encode())
    return grouped_chips(chips, tokens)


def last_join(model, text: str) -> int:
    """The stepper's last step: how many joins encoding `text` makes (0 for no SentencePiece model)."""
    return len(piece_states(model, text)[1]) if isinstance(model, SentencePieceBPE) and text else 0


def piece_stepper_html(model: SentencePieceBPE | None, text: str, step: int) -> str:
    """The controls, the sentence for step `step`, and the pieces as they stand after it ("" for no model or text)."""
    if not isinstance(model, SentencePieceBPE) or not text:
        return ""
    states, joins, normalized = piece_states(model, text)
    if not normalized:
        return ""
    step, last = min(max(step, 0), len(joins)), len(joins)
    chips = _chips(model, states[step], joins[step - 1].position if step else None)
    cut = (f'<div class="bpe-note">Stepping through the first {plural(TEXT_LIMIT, "character")} '
           f"of {len(text):,}.</div>" if len(text) > TEXT_LIMIT else "")
    return ('<div class="bpe-stepper bpe-piece-stepper" role="group" aria-label="SentencePiece, join by join">'
            '<div class="bpe-heading">SentencePiece, join by join</div>'
            f'<div class="bpe-step-controls">{_controls(step, last)}<span class="bpe-muted">join {step} of {last}</span></div>'
            f'<div class="bpe-note bpe-step-words" aria-live="polite">{_words(model, states, joins, step)}</div>'
            f'<div class="bpe-step-chips">{chips}</div>{cut}</div>')


def _controls(step: int, last: int) -> str:
    buttons = [("first", "start", "back to the start", step == 0), ("-1", "◀ previous", "previous join", step == 0),
               ("+1", "next ▶", "next join", step == last), ("last", "end", "to the last join", step == last)]
    return "".join(f'<button class="bpe-action" data-action="piece-step" data-value="{value}" title="{label}"'
                   f'{" disabled" if off else ""}>{text}</button>' for value, text, label, off in buttons)


def _words(model: SentencePieceBPE, states: list[list[str]], joins: list[Merge], step: int) -> str:
    last = len(joins)
    if step == 0:
        words = (f"The text starts as {plural(len(states[0]), 'character')}, each space written ▁"
                 + (" and one ▁ put before it" if model.add_dummy_prefix else "") + ". SentencePiece has no merge "
                 "list: it joins the adjacent pair whose joined piece has the highest score, then looks again.")
    else:
        join = joins[step - 1]
        ids = [model.joinable[piece] if piece in model.joinable else model.reserved[piece] for piece in (join.left, join.right)]
        made = model.joinable[join.left + join.right]
        chip = lambda i: token_chip(i, model.tokens[i], vocab=model.name)  # noqa: E731
        words = (f"<b>join {step}</b>: {chip(ids[0])} + {chip(ids[1])} → {chip(made)}, score "
                 f"{model.scores[made]:,g}: the highest-scoring pair left (the leftmost of equals).")
    if step == last:
        unknown = [piece for _, piece in states[-1] if piece not in model.joinable and piece not in model.reserved]
        words += " No adjacent pair joins into a piece: these are the output."
        if unknown:
            one = len(unknown) == 1
            fallback = ("its UTF-8 bytes" if one else "their UTF-8 bytes") if model.byte_fallback else "the unknown piece"
            named = html.escape(unknown[0]) if one else plural(len(unknown), "character")
            words += f" {named} {'has' if one else 'have'} no piece, so {'it falls' if one else 'they fall'} back to {fallback}."
    return words
