"""The corpus pane's HTML: a summary line and one row of token chips per distinct document."""
from __future__ import annotations

import functools
from collections import Counter

from ..trainers.training import Training
from ..encoding.vocab import render
from ..trainers.corpus import NoDocuments

from .chips import chips_html, pair_positions
from .wording import plural

#: Distinct documents shown; the rest are counted. Rendering stays quick on any corpus.
ROW_LIMIT = 100
#: Chips shown over all rows: a single huge document must not freeze the page either.
CHIP_LIMIT = 1500


@functools.lru_cache(maxsize=2)
def distinct_documents(training: Training) -> list[tuple[tuple[int, ...], int]]:
    """Each distinct document (as chunk indices) with how often it occurs, in first-seen order."""
    return list(Counter(map(tuple, training.corpus.documents)).items())


def corpus_html(training: Training, rounds: int, training_b: Training | None = None) -> str:
    """The summary line and one row of chips per distinct document (×n when repeated).

    With a B, each document is two rows, A's tokens above B's (B as it stands after the same
    round, or its last if it learned fewer). A training that kept no documents (streamed from
    files, or trained on counts) has no rows to draw, and says so."""
    try:
        documents = distinct_documents(training)
    except NoDocuments as error:
        return (f'<div class="bpe-corpus"><div class="bpe-corpus-summary"><b>{training.tokens[rounds]:,} tokens</b> after '
                f"{plural(rounds, 'merge')} · vocabulary {training.vocab_size(rounds):,}</div>"
                f'<div class="bpe-note">No rows to draw: {error}.</div></div>')
    sides = [("", training, rounds)]
    if training_b is not None:
        sides.append(("b", training_b, min(rounds, len(training_b.merges))))
    shown = documents[:ROW_LIMIT]
    rows_of = [_rows(side, t, k, len(shown), CHIP_LIMIT // len(sides)) for side, t, k in sides]
    rows = []
    for k, (doc, count) in enumerate(shown):
        if k >= len(rows_of[0]):
            break
        repeat = f'<span class="bpe-repeat" title="this document occurs {count} times">×{count}</span>' if count > 1 else ""
        if len(sides) == 1:
            rows.append(f'<div class="bpe-row">{rows_of[0][k]}{repeat}</div>')
        else:
            pair = "".join(f'<div class="bpe-row bpe-side-{side or "a"}"><span class="bpe-side">{side.upper() or "A"}</span>'
                           f"{side_rows[k] if k < len(side_rows) else ''}{repeat}</div>"
                           for (side, _, _), side_rows in zip(sides, rows_of))
            rows.append(f'<div class="bpe-pair">{pair}</div>')
    hidden = len(documents) - len(rows)
    if hidden:
        rows.append(f'<div class="bpe-more">… and {plural(hidden, "more distinct document")}, not shown</div>')
    names = ["A", "B"] if len(sides) > 1 else [""]
    summary = "".join(summary_html(t, k, len(documents), name) for name, (_, t, k) in zip(names, sides))
    return (f'<div class="bpe-corpus">{summary}<div class="bpe-rows" tabindex="0" role="group" '
            f'data-round="{rounds}" style="--seam:{_seam(training, rounds)}%" '
            'aria-label="corpus documents: Enter, then the arrow keys, picks a token">'
            f'{"".join(rows)}</div></div>')


def _seam(training: Training, rounds: int) -> int:
    """Where, in % of its width, the round's new token was two: the joining animation's seam."""
    if not rounds:
        return 50
    merge, vocab = training.merges[rounds - 1], training.vocab
    left, whole = len(render(vocab[merge.left])), len(render(vocab[merge.id]))
    return round(100 * left / max(whole, 1))


def _rows(vocab: str, training: Training, rounds: int, limit: int, budget: int) -> list[str]:
    """The chips of the first `limit` distinct documents, until `budget` chips are drawn.

    The chunks are the training's own after `rounds` merges (kept as the scrubber moves, see
    `Training.chunks`): a document's row joins them, and only the chips shown are drawn."""
    chunks = training.chunks(rounds)
    new_id = training.merges[rounds - 1].id if rounds else None
    following = training.merges[rounds] if rounds < len(training.merges) else None  # it joins the parts
    rows = []
    for doc, _ in distinct_documents(training)[:limit]:
        sequence = "".join([chunks[i] for i in doc])
        cut = list(map(ord, sequence[:budget]))
        more = f'<span class="bpe-more">… {len(sequence) - len(cut):,} more tokens</span>' if len(cut) < len(sequence) else ""
        parts = pair_positions(cut, following.left, following.right) if following else None
        rows.append(chips_html(cut, training.vocab, new_id, focusable=False, vocab_name=vocab, parts=parts) + more)
        budget -= len(cut)
        if budget <= 0:
            break
    return rows


def summary_html(training: Training, rounds: int, distinct: int, side: str = "") -> str:
    """'59 tokens after 6 merges (137 before any) · vocabulary 20 · 27 documents, 7 distinct',
    with thousands separators ('1,949,492 tokens'); `side` (A or B) goes in front when there are two."""
    total = plural(len(training.corpus.documents), "document")
    documents = f"{total}, {distinct} distinct" if distinct < len(training.corpus.documents) else total
    start = f" ({training.tokens[0]:,} before any)" if rounds else ""
    who = f"{side}: " if side else ""
    return (f'<div class="bpe-corpus-summary">{who}<b>{training.tokens[rounds]:,} tokens</b> after '
            f"{plural(rounds, 'merge')}{start} · vocabulary {training.vocab_size(rounds):,} · {documents}</div>")
