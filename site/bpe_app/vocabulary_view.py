"""The vocabulary, browsable: every token at the selected round (or a real tokenizer's), searched, sorted, paged.

The table is HTML drawn here rather than Panel's Tabulator: Tabulator takes a pandas DataFrame,
and pandas adds megabytes and seconds to the page's start in Pyodide (see chart_view's note on
Bokeh's ColumnDataSource). Only one page of rows is drawn; searching and sorting run on the
whole vocabulary in Python (`bpe.explain.vocabulary`), which stays well under 200 ms for cl100k_base's
100,256 tokens (benchmarks/vocabulary.py).
"""
from __future__ import annotations

import functools
import html

import panel as pn

import bpe
from bpe import real
from bpe.explain.vocabulary import COLUMNS, NONE, Entry, find, real_vocabulary, training_vocabulary

from .difference_view import B_VOCAB
from bpe.panes.chips import token_chip
from bpe.panes.wording import plural
from .state import COMPARISONS
from .styles import html_pane, light_button

#: Rows on one page.
PAGE_ROWS = 50
#: Bytes shown in hex in a row; the inspector shows them all.
HEX_SHOWN = 8
SOURCES = {label if name else "this tokenizer, at the selected round": name for label, name in COMPARISONS.items()}
SOURCES["B, at the selected round"] = B_VOCAB


@functools.lru_cache(maxsize=2)
def _ours(training: bpe.Training, rounds: int) -> list[Entry]:
    return training_vocabulary(training, rounds)


def entries_of(training: bpe.Training, rounds: int, source: str, reference: real.Encoding | None,
               training_b: bpe.Training | None = None) -> list[Entry] | None:
    """The rows of the vocabulary `source` names ("" for ours, "b" for B's); None while a real one loads."""
    if not source:
        return _ours(training, rounds)
    if source == B_VOCAB:
        return _ours(training_b, min(rounds, len(training_b.merges))) if training_b is not None else []
    if reference is None or reference.name != source:
        return None
    return real_vocabulary(reference)


#: The last search, kept with the list it searched (so that list's id cannot be reused): scrubbing
#: redraws the table, and a real vocabulary's 100,000 rows need not be searched again.
_last_search: list = [None, None, None]


def search(entries: list[Entry], query: str, column: str = "id", descending: bool = False) -> list[Entry]:
    """`find`, remembered for the last list, search and sort asked for."""
    key = (id(entries), query, column, descending)
    if _last_search[0] != key:
        _last_search[:] = [key, entries, find(entries, query, column, descending)]
    return _last_search[2]


def page_count(state) -> int:
    """How many pages the table of the state's vocabulary, search and sort has (1 while loading)."""
    entries = entries_of(state.training, state.round, state.vocab_source, state.reference, state.training_b)
    if entries is None:
        return 1
    return max(1, -(-len(search(entries, state.vocab_query, state.vocab_sort, state.vocab_descending)) // PAGE_ROWS))


def vocabulary_html(training: bpe.Training, rounds: int, reference: real.Encoding | None, source: str,
                    query: str, column: str, descending: bool, page: int, training_b: bpe.Training | None = None) -> str:
    """One page of the table, its headings sort buttons, and a line saying what is shown."""
    entries = entries_of(training, rounds, source, reference, training_b)
    if entries is None:
        return '<div class="bpe-note">Loading the vocabulary…</div>'
    if source == B_VOCAB and training_b is None:
        return '<div class="bpe-note">There is no B: tick “Train B too” under Compare with B.</div>'
    found = search(entries, query, column, descending)
    pages = max(1, -(-len(found) // PAGE_ROWS))
    page = min(page, pages - 1)
    shown = found[page * PAGE_ROWS:(page + 1) * PAGE_ROWS]
    chip = (lambda e: token_chip(e.id, e.token, vocab=source, focusable=False))
    rows = "".join(_row(entry, chip, source, n == 0) for n, entry in enumerate(shown))
    what = f"{plural(len(found), 'token')} holding “{html.escape(query)}”" if query else plural(len(found), "token")
    if source == B_VOCAB:
        where = f"of B at round {min(rounds, len(training_b.merges))}"
    else:
        named = getattr(reference, "label", "") or source  # an uploaded file goes by its name
        where = f"of {html.escape(named)}" if source else f"at round {rounds}"
    line = f"{what} {where} · page {page + 1} of {pages}"
    return (f'<div class="bpe-note bpe-vocab-summary" aria-live="polite">{line}</div>'
            '<div class="bpe-scroll" tabindex="-1"><table class="bpe-vocab">'
            f"<thead><tr>{_headings(column, descending, source not in ('', B_VOCAB))}</tr></thead><tbody>{rows}</tbody></table></div>"
            + ("" if rows else '<div class="bpe-note">No token holds that text.</div>'))


def _headings(column: str, descending: bool, real_source: bool) -> str:
    names = {"born": "rank" if real_source else "born in round"}
    cells = []
    for key in COLUMNS:
        label = names.get(key, key)
        sort = ("descending" if descending else "ascending") if key == column else "none"
        arrow = (" ▼" if descending else " ▲") if key == column else ""
        cells.append(f'<th aria-sort="{sort}" class="{"bpe-num" if key != "text" else ""}">'
                     f'<button class="bpe-sort" data-action="vocab-sort" data-value="{key}" '
                     f'title="sort by {label}">{label}{arrow}</button></th>')
    cells.insert(2, '<th>hex</th>')
    return "".join(cells)


def _row(entry: Entry, chip, source: str, first: bool) -> str:
    hex_bytes = " ".join(f"{b:02x}" for b in entry.token[:HEX_SHOWN]) + (" …" if entry.n_bytes > HEX_SHOWN else "")
    number = lambda n: "–" if n == NONE else f"{n:,}"  # noqa: E731
    vocab = f' data-vocab="{html.escape(source)}"' if source else ""
    stop = ' tabindex="0"' if first else ""  # one tab stop: the arrow keys move between rows
    return (f'<tr class="bpe-vrow" data-id="{entry.id}"{vocab}{stop} '
            f'title="open {entry.id} in the inspector">'
            f'<td class="bpe-num">{entry.id}</td><td>{chip(entry)}</td><td class="bpe-hexcol">{hex_bytes}</td>'
            f'<td class="bpe-num">{entry.n_bytes}</td><td class="bpe-num">{entry.n_chars}</td>'
            f'<td class="bpe-num">{"base" if entry.born == 0 and source in ("", B_VOCAB) else f"{entry.born:,}"}</td>'
            f'<td class="bpe-num">{number(entry.count)}</td><td class="bpe-num">{number(entry.now)}</td></tr>')


class VocabularyView(pn.viewable.Viewer):
    """Search box, vocabulary choice, page buttons and the table (headings sort it)."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        search = pn.widgets.TextInput(name="Search the vocabulary", placeholder="text a token holds, e.g. ing",
                                      css_classes=["vocab-search"], sizing_mode="stretch_width")
        search.param.watch(lambda event: setattr(state, "vocab_query", event.new or ""), "value_input")
        source = pn.widgets.Select(name="Vocabulary of", options=SOURCES, value=state.vocab_source,
                                   css_classes=["vocab-source"], sizing_mode="stretch_width")
        source.link(state, value="vocab_source")
        previous = light_button(name="◀ previous page", css_classes=["vocab-previous"])
        following = light_button(name="next page ▶", css_classes=["vocab-next"])
        previous.on_click(lambda event: state.param.update(vocab_page=max(state.vocab_page - 1, 0)))
        following.on_click(lambda event: state.param.update(vocab_page=min(state.vocab_page + 1, page_count(state) - 1)))
        table = html_pane(pn.bind(vocabulary_html, p.training, p.round, p.reference, p.vocab_source, p.vocab_query,
                                  p.vocab_sort, p.vocab_descending, p.vocab_page, p.training_b))
        self._layout = pn.Column(pn.FlexBox(search, source, sizing_mode="stretch_width"), table,
                                 pn.Row(previous, following), sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout
