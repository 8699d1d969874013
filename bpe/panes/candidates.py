"""The candidate table's HTML: the pairs a round chose from, their counts, the winner starred, ties explained."""
from __future__ import annotations

import html

from ..trainers.training import Training
from ..trainers.merge import Merge

from .chips import token_chip
from .wording import plural

#: Rows shown; the rest are counted.
ROW_LIMIT = 50


def pair_html(training: Training, left: int, right: int) -> str:
    """A pair written as the chips show it (two chips: whitespace marked, broken UTF-8 as hex bytes),
    so that a sentence about ( and ) or about the bytes e3 81 reads as the table does."""
    vocab = training.vocab
    return token_chip(left, vocab[left]) + token_chip(right, vocab[right])


def tie_html(training: Training, round_: int) -> str:
    """How round `round_` picked its winner among the pairs with the top count (HTML)."""
    table, _, tied = training.leaders(round_, 1)
    if not table:
        return "No pairs left: every chunk is already a single token."
    top = table[0].count
    best = pair_html(training, table[0].left, table[0].right)
    if round_ > len(training.merges):
        return f"No merge: training stopped, {html.escape(training.stopped)}. {best} has the top count, {top:,}."
    if tied == 1:
        return f"{best} has the top count, {top:,}."
    return f"{tied:,} pairs tied at {top:,}; {best} wins: {html.escape(training.settings.tie_rule.help)}."


def overlap_note(merge: Merge, pair: str) -> str:
    """Why a winner's replacements fall short of its count, or "" when they agree (HTML: `pair` is)."""
    if merge.replacements == merge.count:
        return ""
    return (f"{pair} occurs {plural(merge.count, 'time')} counting overlapping windows, but replacing left to right "
            f"makes only {plural(merge.replacements, 'new token')}: in a run such as a a a the middle token "
            "can join only one pair.")


def candidates_html(training: Training, rounds: int) -> str:
    """The heading, the tie sentence, the table (top rows) and the overlap note, if any.

    At round 0 nothing has been chosen yet: round 1's table is shown as what comes next, with
    no winner starred and no new token, its leading pair marked "next"."""
    round_ = max(rounds, 1)
    table, total, tied_at_top = training.leaders(round_, ROW_LIMIT)
    decided = round_ <= len(training.merges)
    merge = training.merges[round_ - 1] if decided and rounds else None
    top = table[0].count if table else 0
    tied = tied_at_top > 1
    vocab = training.vocab
    rows = []
    for n, candidate in enumerate(table):
        winner = merge is not None and n == 0
        upcoming = not rounds and decided and n == 0
        classes = [name for name, on in (("bpe-winner", winner), ("bpe-next", upcoming),
                                         ("bpe-tied", tied and candidate.count == top)) if on]
        pair = token_chip(candidate.left, vocab[candidate.left]) + token_chip(candidate.right, vocab[candidate.right])
        made = f" → {token_chip(merge.id, vocab[merge.id], new=True)}" if winner else ""
        # Only the winner is replaced; the others would be only if they won, so they show a dash.
        replaced = f"{merge.replacements:,}" if winner else '<span class="bpe-muted" title="not merged">–</span>'
        rows.append(
            f'<tr class="{" ".join(classes)}"><td class="bpe-star">{"★" if winner else "next" if upcoming else ""}</td>'
            f'<td>{pair}{made}</td><td class="bpe-num">{candidate.count:,}</td><td class="bpe-num">{replaced}</td></tr>'
        )
    if total > ROW_LIMIT:
        rows.append(f'<tr><td></td><td class="bpe-more" colspan="3">… {plural(total - ROW_LIMIT, "more pair")}</td></tr>')
    heading = (f"Round {round_} chose from {plural(total, 'pair')}" if rounds
               else f"Before any merge: round 1 will choose from {plural(total, 'pair')}")
    note = overlap_note(merge, pair_html(training, merge.left, merge.right)) if merge else ""
    return (
        f'<div class="bpe-heading">{heading}</div>'
        f'<div class="bpe-note bpe-tie">{tie_html(training, round_)}</div>'
        '<div class="bpe-scroll" tabindex="0" role="group" aria-label="candidate pairs">'
        '<table class="bpe-candidates"><thead><tr><th><span class="bpe-hidden">winner</span></th><th>pair</th>'
        f'<th class="bpe-num" title="adjacent windows, overlaps included">count</th>'
        f'<th class="bpe-num" title="how many new tokens the merge made: the winner only">replaced</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table></div>'
        + (f'<div class="bpe-note bpe-overlap">{note}</div>' if note else "")
    )
