"""The first screen: the page answered from the `bpe` core alone, while Panel starts.

Python and `bpe` are up seconds before Panel and Bokeh have been imported and the app built. In
that time the worker answers the prerendered page from here: typing in the encoder and its "special
tokens in text" toggle, the round (the slider, previous and next, ← and →), the preset menu, the
chat box (its tokenizer, each message's role and text, moving a message) and a share link's state. The panes are drawn by the same functions the app's views use (`bpe.panes`),
so the page looks the same before and after. Then the app takes over this screen's state (`app_state`, `hand_over`), so that nothing the
visitor did is lost: the text, the round, the preset, and a token they asked to inspect.

Panel is never imported here (the worker imports it later, in steps).

>>> screen = FirstScreen()
>>> view = screen.answer({"text": "walkable", "round": 6})
>>> view["round"], view["rounds"], 'data-id="16"' in view["panes"]["bpe-encoding-pane"]  # walk
(6, 10, True)
>>> screen.answer({"step": 1})["round"], screen.answer({"round": 99})["round"]  # clamped to the last round
(7, 10)
>>> screen.answer({"preset": "course"})["rounds"]
2
>>> screen.answer({"preset": "<script>"})["message"]
'There is no preset named <script>.'
"""
from __future__ import annotations

import bpe
from bpe import chat

from bpe.panes.candidates import candidates_html
from bpe.panes.caption import round_caption
from bpe.panes.chart import chart_svg, merges_html
from bpe.panes.corpus import corpus_html
from bpe.panes.encoding import EXAMPLES, b_encoding_html, encoding_html
from bpe.panes.stepper import stepper_html
from .notes import preset_description, scope_note_html
from .state import AppState
from .state.chat import chat_pane

#: The widgets whose values follow the state, by the CSS class the page finds them by: the preset
#: menu and A's training options (a preset changes them all).
WIDGETS = {
    "preset-select": "preset", "alphabet-select": "alphabet", "pretokenizer-select": "pretokenizer",
    "tie-select": "tie", "specials-select": "specials", "min-frequency": "min_frequency",
    "budget-select": "budget", "budget-size": "budget_size", "corpus-input": "corpus_text",
    "encode-input": "encode_text", "specials-in-text": "specials_in_text", "chat-tokenizer": "chat_with",
}
#: The longest text the encoder takes from the page, as a share link holds (`link_fields.TEXT_LIMIT`).
TEXT_LIMIT = 10_000

#: What the first screen says of a link that opens a tour: the page shows the step, the box comes with the full page.
TOUR_WAITS = "The tour opens with the full page, in a moment: the page already shows its step."

_screen: FirstScreen | None = None


class FirstScreen:
    """One page's state, changed by the page's events and rendered as the app's panes render it."""

    def __init__(self, address: str = ""):
        self.state = AppState()
        self.message = ""
        self.address = address.removeprefix("?")
        self.used = bool(self.address)  # whether the state is this visit's own: a link's, or changed
        self.app: AppState | None = None  # the state the app is built on (see `app_state`)
        self._drawn: dict = {}  # render function -> (its inputs, its HTML), see `_pane`
        if self.address:
            self.open_address(self.address)

    def open_address(self, query: str) -> None:
        """Show a share link's view, or the default view and why not (as the app's share view does)."""
        # Imported here: most visits open no link, and their first answer should not wait for the
        # links' code (a tenth of this module's import in Pyodide; the app imports it later anyway).
        from .share import query_to_changes, tour_shows

        changes, error = query_to_changes(query.removeprefix("?"))
        if error:
            self.message = error
            self.state.report(error)  # the app's message line says it too, once it is there
            return
        self.state.restore(changes, changes.pop("round"), tour_shows(query))
        if self.state.tour:
            self.message = TOUR_WAITS

    def answer(self, event: dict) -> dict:
        """Apply one event from the page and return what the page shows now (see `view`).

        Events: {"preset": name}, {"text": str}, {"example": label}, {"specials": bool}, the chat box's
        (see `_chat`), {"round": int}, {"step": ±n}, {"inspect": [vocabulary, id]}; several keys are applied in that order. Anything malformed is
        ignored or said in `message`, and changes nothing."""
        state, self.message, self.used = self.state, "", True
        if isinstance(event.get("preset"), str):
            if event["preset"] in state.param.preset.objects:
                state.preset = event["preset"]
            else:
                self.message = f"There is no preset named {event['preset']}."
        if isinstance(event.get("text"), str):
            state.encode_text = event["text"][:TEXT_LIMIT]
        if isinstance(event.get("example"), str) and event["example"] in dict(EXAMPLES):  # an encoder button, by label
            state.encode_text = dict(EXAMPLES)[event["example"]]
        if isinstance(event.get("specials"), bool):
            state.specials_in_text = event["specials"]
        self._chat(event)
        if _whole(event.get("round")):
            state.round = min(max(event["round"], 0), state.rounds)
        if _whole(event.get("step")):
            state.step(event["step"])
        inspect = event.get("inspect")
        if isinstance(inspect, list) and len(inspect) == 2 and isinstance(inspect[0], str) and _whole(inspect[1]):
            state.inspect(*inspect)
        return self.view()

    def _chat(self, event: dict) -> None:
        """The chat box's events: {"chat_with": name}, {"message": [index, "role" | "content", text]},
        {"move": [index, ±1]}. Adding or removing a message waits for the full page, which has
        the rows' widgets to add."""
        state = self.state
        if event.get("chat_with") in state.param.chat_with.objects:
            state.chat_with = event["chat_with"]
        message = event.get("message")
        if isinstance(message, list) and len(message) == 3 and _whole(message[0]) and isinstance(message[2], str):
            if message[1] == "role" and message[2] in chat.ROLES:
                state.set_message(message[0], role=message[2])
            elif message[1] == "content":
                state.set_message(message[0], content=message[2][:TEXT_LIMIT])
        move = event.get("move")
        if isinstance(move, list) and len(move) == 2 and _whole(move[0]) and move[1] in (-1, 1):
            state.move_message(*move)

    def view(self) -> dict:
        """The round, the last round, the widgets' values and each pane's HTML (by the pane's CSS class)."""
        state = self.state
        training, training_b, rounds, text = state.training, state.training_b, state.round, state.encode_text
        specials = state.specials_in_text
        return {
            "round": rounds, "rounds": state.rounds, "message": self.message,
            "widgets": {**{css: getattr(state, name) for css, name in WIDGETS.items()}, **self._rows()},
            "panes": {
                "bpe-caption-pane": self._pane(round_caption, training, rounds),
                "bpe-corpus-pane": self._pane(corpus_html, training, rounds, training_b),
                "bpe-candidates-pane": self._pane(candidates_html, training, rounds),
                "bpe-encoding-pane": self._pane(encoding_html, training, text, rounds, "", specials),
                "bpe-encoding-b-pane": self._pane(b_encoding_html, training, training_b, text, rounds, specials),
                "bpe-stepper-pane": self._pane(stepper_html, training, text, rounds, state.encode_step, state.stepping),
                "bpe-chart-pane": self._pane(chart_svg, training, rounds, training_b),
                "bpe-merges-pane": self._pane(merges_html, training, rounds),
                "bpe-chat-pane": self._pane(chat_pane, state.chat_messages, state.chat_with, state.loaded, training,
                                            state.uploaded),
                "bpe-preset-note-pane": self._pane(preset_description, state.preset, state.edited, state.upload_name,
                                                   state.corpus_text),
                # (the downloads' own "only up to the selected round" box waits for the full page)
                "bpe-scope-note-pane": self._pane(scope_note_html, training, rounds, False),
            },
        }

    def _rows(self) -> dict:
        """The chat box's rows' widgets, by the classes that name their row (`chat_view.MessageRow`)."""
        rows = {}
        for index, message in enumerate(self.state.chat_messages):
            rows |= {f"chat-role-{index}": message["role"], f"chat-content-{index}": message["content"]}
        return rows

    def _pane(self, render, *inputs) -> str:
        """`render(*inputs)`, drawn again only when its inputs changed: a key typed redraws the
        encoder, not the corpus and the table. Trainings are compared by identity (and kept here,
        so that no other training can take their place in memory)."""
        drawn = self._drawn.get(render)
        if drawn is None or not all(_same(a, b) for a, b in zip(drawn[0], inputs)):
            drawn = self._drawn[render] = (inputs, render(*inputs))
        return drawn[1]

def _same(a, b) -> bool:
    return a is b or not isinstance(a, bpe.Training) and not isinstance(b, bpe.Training) and a == b


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The first screen as a page without a link opens, made and drawn ahead (`prepare`).
_prepared: FirstScreen | None = None


def prepare() -> None:
    """Make and draw the first screen as a page without a link opens, for `start` or `restored`
    to take.

    The build does this before it takes each of its snapshots of Python (worker/first_screen.js,
    worker/start_app.js): a visit from one then answers without making it, which was Python's
    first run of the state's and the panes' code, 0.05-0.1 s in the browser on 2 cores.

    >>> prepare()  # then taken once, by a page without a link: the one with its panes drawn
    >>> bool(start("preset=course")._drawn), bool(start()._drawn), bool(start()._drawn)
    (False, True, False)
    """
    global _prepared
    _prepared = FirstScreen()
    _prepared.view()


def _made(address: str) -> FirstScreen:
    """The prepared first screen for a page without a link (once), else one made now."""
    global _prepared
    if _prepared is not None and not address.removeprefix("?"):
        screen, _prepared = _prepared, None
        return screen
    return FirstScreen(address)


def start(address: str = "") -> FirstScreen:
    """The page's first screen (one per worker), opened at the page's address."""
    global _screen
    _screen = _made(address)
    return _screen


def opened_address(state: AppState) -> str | None:
    """The query of the link the first screen opened `state` at, once (None after that, for no link,
    or for a state the first screen did not make): the app's share view then does not open it again."""
    if _screen is None or _screen.state is not state or not _screen.address:
        return None
    address, _screen.address = _screen.address, ""
    return address


# The hand-over. The worker keeps a memory snapshot of Python with the app built, for the next
# visit, and that must hold the page as everyone opens it. So while the first screen's state is
# still as everyone opens it, the app is built on it; once the visitor has used it (a link, an
# event), the app is built on a state of its own, the snapshot is made, and then the app's state
# takes over what the visitor did (`hand_over`).

def app_state() -> AppState | None:
    """The state to build the app on (None when there is no first screen: `panel serve`)."""
    if _screen is None:
        return None
    _screen.app = _screen.state if not _screen.used else AppState()
    return _screen.app


def hand_over() -> bool:
    """Give the app's state what the visitor did on the first screen, and answer on it from now on;
    whether anything changed (then the page gets the changes: page_patch).

    >>> screen = start("preset=course&round=2")
    >>> _ = screen.answer({"text": "abab", "inspect": ["", 256]})
    >>> app = app_state()
    >>> app.preset, hand_over(), (app.preset, app.round, app.encode_text, app.inspected), screen.state is app
    ('explainer', True, ('course', 2, 'abab', ('', 256)), True)
    """
    screen = _screen
    if screen is None or screen.state is screen.app:
        return False
    if not screen.used:  # (restored) as everyone opens the page, as the app's is
        screen.state = screen.app
        return False
    from .link_fields import FIELDS  # (imported by the app by now, see `open_address`)

    shown = screen.state
    screen.app.restore({name: getattr(shown, name) for name in FIELDS}, shown.round)
    screen.app.param.update(inspected=shown.inspected, message=shown.message, message_kind=shown.message_kind)
    screen.state = screen.app
    return True


def restored(address: str = "") -> FirstScreen:
    """After a visit started from the snapshot the browser kept, with the app built as everyone
    opens the page: the page's first screen, opened at its address on a state of its own until the
    app's takes it over (`hand_over`), since the app's state moves Panel's models, and those read
    the page's files, which are written after Python starts. A page without a link takes the one
    the build's snapshot of the app holds made ahead (`prepare`).

    >>> app = start().state
    >>> app is app_state()
    True
    >>> screen = restored("round=2")
    >>> (screen.state is app, screen.state.round, app.round), hand_over(), (screen.state is app, app.round)
    ((False, 2, 0), True, (True, 2))
    """
    global _screen
    app = _screen.app if _screen is not None else None
    _screen = _made(address)
    _screen.app = app
    return _screen
