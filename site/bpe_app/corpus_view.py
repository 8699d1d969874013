"""The corpus as rows of token chips, as it stands after the selected round."""
from __future__ import annotations

import functools
from collections import Counter

import panel as pn

import bpe

from .chips import chips_html
from .styles import html_pane
from .wording import plural

#: Distinct documents shown; the rest are counted. Rendering stays quick on any corpus.
ROW_LIMIT = 100
#: Chips shown over all rows: a single huge document must not freeze the page either.
CHIP_LIMIT = 1500


@functools.lru_cache(maxsize=2)
def distinct_documents(training: bpe.Training) -> list[tuple[tuple[int, ...], int]]:
    """Each distinct document (as chunk indices) with how often it occurs, in first-seen order."""
    return list(Counter(map(tuple, training.corpus.documents)).items())


def corpus_html(training: bpe.Training, rounds: int) -> str:
    """The summary line and one row of chips per distinct document (×n when repeated)."""
    documents = distinct_documents(training)
    shown = documents[:ROW_LIMIT]
    tokenizer, chunks = training.tokenizer, training.corpus.chunks
    merged = {i: tokenizer.merge(chunks[i], rounds) for i in {i for doc, _ in shown for i in doc}}
    new_id = training.merges[rounds - 1].id if rounds else None
    rows, budget = [], CHIP_LIMIT
    for doc, count in shown:
        ids = [ord(c) for i in doc for c in merged[i]]
        cut = ids[:budget]
        more = f'<span class="bpe-more">… {len(ids) - len(cut):,} more tokens</span>' if len(cut) < len(ids) else ""
        repeat = f'<span class="bpe-repeat" title="this document occurs {count} times">×{count}</span>' if count > 1 else ""
        rows.append(f'<div class="bpe-row">{chips_html(cut, training.vocab, new_id, focusable=False)}{more}{repeat}</div>')
        budget -= len(cut)
        if budget <= 0:
            break
    hidden = len(documents) - len(rows)
    if hidden:
        rows.append(f'<div class="bpe-more">… and {plural(hidden, "more distinct document")}, not shown</div>')
    summary = summary_html(training, rounds, len(documents))
    return (f'<div class="bpe-corpus">{summary}<div class="bpe-rows" tabindex="0" role="group" '
            'aria-label="corpus documents: Enter, then the arrow keys, picks a token">'
            f'{"".join(rows)}</div></div>')


def summary_html(training: bpe.Training, rounds: int, distinct: int) -> str:
    """'59 tokens after 6 merges (137 before any) · vocabulary 20 · 27 documents, 7 distinct',
    with thousands separators ('1,949,492 tokens')."""
    total = plural(len(training.corpus.documents), "document")
    documents = f"{total}, {distinct} distinct" if distinct < len(training.corpus.documents) else total
    start = f" ({training.tokens[0]:,} before any)" if rounds else ""
    return (f'<div class="bpe-corpus-summary"><b>{training.tokens[rounds]:,} tokens</b> after '
            f"{plural(rounds, 'merge')}{start} · vocabulary {training.vocab_size(rounds):,} · {documents}</div>")


class CorpusView(pn.viewable.Viewer):
    """Every document as a row of chips; chips the selected round made are outlined."""

    def __init__(self, state, **params):
        super().__init__(**params)
        # The inspected token's chips are outlined by the browser (see token_clicks), so that opening
        # the inspector does not send the corpus's thousands of chips again.
        self._pane = html_pane(pn.bind(corpus_html, state.param.training, state.param.round),
                               css_classes=["bpe-corpus-pane"])

    def __panel__(self):
        return self._pane
