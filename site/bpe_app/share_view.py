"""The page's address holds the view: opening a link restores it, and back and forward walk the rounds.

The address the page opened with comes from `pn.state.location` (from the request under `panel
serve`; in the Pyodide worker, from the message the page sends once the document is linked). But
Panel's Location pushes a history entry on every change and does not hear the back button, so a
small component of our own writes the history (a new round is a new entry, so that back returns
to the previous round; any other change rewrites the current one) and reports back and forward.
"""
from __future__ import annotations

import html

import panel as pn
import param

from . import first_screen
from .share import CORPUS_LIMIT, KEYS, TEXT_LIMIT, left_out, query_to_changes, state_to_query, tour_shows
from .styles import html_pane

#: Milliseconds the browser waits before rewriting the address after a change that is not a new
#: round: typing then rewrites it once per pause, not once per key (browsers throttle rewrites).
REPLACE_DELAY = 250


class AddressBar(pn.reactive.ReactiveHTML):
    """The address's query, both ways; both values start with a counter, so that a repeat is still a change.

    `reported` ([n, query]) comes from the browser after back or forward;
    `command` ([n, "push" or "replace", query]) goes to it. The query is without its '?'. They are
    lists because Panel passes strings for a ReactiveHTML through its HTML sanitizer (& becomes &amp;)."""

    reported = param.List(default=[0, ""])
    command = param.List(default=[0, "replace", ""])

    _template = '<div id="address"></div>'
    _scripts = {
        "render": f"""
          state.reports = 0
          state.report = () => {{
            clearTimeout(state.timer)
            state.pending = null
            state.reports += 1
            data.reported = [state.reports, window.location.search.slice(1)]
          }}
          state.apply = ([, mode, query]) => {{
            const url = window.location.pathname + (query ? '?' + query : '') + window.location.hash
            clearTimeout(state.timer)
            if (mode === 'push') {{
              if (state.pending) history.replaceState(null, '', state.pending)
              state.pending = null
              history.pushState(null, '', url)
            }} else {{
              state.pending = url
              state.timer = setTimeout(() => {{ history.replaceState(null, '', state.pending); state.pending = null }},
                                       {REPLACE_DELAY})
            }}
          }}
          window.addEventListener('popstate', state.report)
          if (data.command[0] > 0) state.apply(data.command)  // written before the page was drawn
        """,
        "command": "state.apply(data.command)",
        "remove": "window.removeEventListener('popstate', state.report); clearTimeout(state.timer)",
    }


def share_note_html(missing: list[str]) -> str:
    """What the address holds, and what it had to leave out."""
    note = "The page's address holds this view: copy it to share the preset or corpus, settings, round and text."
    if missing:
        note += f" <b>It leaves out {html.escape(' and '.join(missing))}.</b>"
    limits = f"A link holds a corpus of up to {CORPUS_LIMIT:,} characters and a text of up to {TEXT_LIMIT:,}."
    return f'<div class="bpe-note">{note} {limits}</div>'


class ShareView(pn.viewable.Viewer):
    """Keeps the address and the state in step; shows what a link holds."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._state = state
        self._bar = AddressBar(width=0, height=0, margin=0)
        self._shown = ""  # the query the browser shows
        self._shown_round = 0
        self._shown_tour = ("", 1)  # the tour and step the address shows
        self._applying = False  # while a link is restored, its steps are not written back
        self._played = False  # whether this play has made its one history entry yet
        self._commands = 0
        self._wrote: set[str] = set()  # every query this view has written to the address
        self._bar.param.watch(lambda event: self.show_address(event.new[1]), "reported")
        location = pn.state.location  # None outside a served document
        if location is not None:
            location.param.watch(lambda event: self._opened_at(event.new), "search")
            if location.search:  # under `panel serve`, known from the request already
                self.show_address(location.search)
        # After the state's own watchers (precedence 0 and 1): by then a rejected input is known as one.
        state.param.watch(self._changed, [*KEYS, "busy"], precedence=2)
        note = html_pane(pn.bind(lambda *_: share_note_html(left_out(state)), state.param.corpus_text,
                                 state.param.encode_text, state.param.preset, state.param.compare), margin=(0, 10))
        self._layout = pn.Column(note, self._bar, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def show_address(self, query: str) -> None:
        """Show the view of the address's query the page opened with or went back to, or say why it cannot."""
        query = query.removeprefix("?")
        changes, error = query_to_changes(query)
        if error:
            changes = query_to_changes("")[0]
        self._shown = query
        self._applying = True
        try:
            self._state.restore(changes, changes.pop("round"), tour_shows(query))
        finally:
            self._applying = False
        self._shown_round, self._shown_tour = self._state.round, self._tour_at()
        if error:
            self._state.report(error)
        self._write(push=False)  # the address as this page writes it: canonical, the round clamped

    def _opened_at(self, query: str) -> None:
        """The address the page reports once it is linked: a link to open, unless the first screen
        opened it already, or this view wrote it itself meanwhile (the app's first writes can reach
        the address before the page reports it, and the view may have moved on since: B turned on)."""
        query = query.removeprefix("?")
        if query == first_screen.opened_address(self._state):
            # The link the first screen opened: the visitor may have moved on from it since, so only
            # the address is written, as this page writes it.
            self._shown, self._shown_round, self._shown_tour = query, self._state.round, self._tour_at()
            self._write(push=False)
        elif query not in self._wrote:
            self.show_address(query)

    def _changed(self, *events: param.parameterized.Event) -> None:
        """Write the state's view to the address once it is trained: a new round as a new entry.
        Only a view that is shown goes into the address, never an input that was rejected."""
        if self._applying or self._state.busy or not self._state.inputs_shown:
            return
        # A new round, or a new step of the tour, is a new history entry: back returns to the last one.
        push = self._state.round != self._shown_round or self._tour_at() != self._shown_tour
        if self._state.playing:  # a whole play is one entry, so that back does not replay it round by round
            push = push and not self._played
            self._played = self._played or push
        else:
            self._played = False
        self._write(push=push)

    def _tour_at(self) -> tuple[str, int]:
        return self._state.tour, self._state.tour_step

    def _write(self, push: bool) -> None:
        query = state_to_query(self._state)
        if query != self._shown:
            self._commands += 1
            self._wrote.add(query)
            self._bar.command = [self._commands, "push" if push else "replace", query]
            self._shown, self._shown_round, self._shown_tour = query, self._state.round, self._tour_at()
