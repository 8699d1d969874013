"""What the page's clicks and keys on tokens ask for (`token_clicks.TokenClicks` events), done to the state.

>>> from .state import AppState
>>> state = AppState(preset="explainer")
>>> actions = Actions(state)
>>> actions.do("inspect", "20", "")
>>> state.inspected
('', 20)
>>> actions.do("round", "8", "")
>>> state.round
8
>>> actions.do("close", "", "")
>>> state.inspected is None
True
"""
from __future__ import annotations

from bpe.panes.piece_stepper import last_join
from bpe.panes.stepper import last_step
from .state import tour as guide
from .state.real_tokenizers import selected
from .token_clicks import TokenClicks


def listening(state, scope: str = ""):
    """A `TokenClicks` whose events are done to `state` (`scope`: the class of the view it serves,
    in a notebook; "" for the page)."""
    clicks, actions = TokenClicks(width=0, height=0, margin=0, scope=scope), Actions(state)
    clicks.param.watch(lambda event: actions.do(*event.new[1:]), "event")
    return clicks


class Actions:
    def __init__(self, state):
        self.state = state
        self._step_keys = 0  # the page's running total of ← and → presses on the stepper

    def do(self, kind: str, value: str, vocabulary: str) -> None:
        """Carry out one event; anything malformed (a page can send anything) is ignored."""
        state = self.state
        try:
            if kind == "inspect":
                state.inspect(vocabulary, int(value))
            elif kind == "close":
                state.inspected = None
            elif kind == "round":
                state.step(int(value) - state.round)
            elif kind == "tour-move":
                guide.move(state, int(value))
            elif kind == "tour-close":
                guide.close(state)
            elif kind == "vocab-sort":
                state.sort_vocabulary(value)
            elif kind == "encode-play":
                state.stepping = value == "1" and self._last() > 0
                if state.stepping and state.encode_step >= self._last():
                    state.encode_step = 0  # ▶ at the end plays again from the start
            elif kind in ("encode-step", "step"):
                self._step(kind, value)
            elif kind == "piece-step":
                last = last_join(selected(state.compare, state.reference), state.encode_text)
                delta = {"first": -last - 1, "last": last + 1}.get(value) or int(value)
                state.piece_step = min(max(state.piece_step + delta, 0), last)
        except ValueError:
            pass

    def _step(self, kind: str, value: str) -> None:
        state, last = self.state, self._last()
        if kind == "step":  # a running total of key presses: coalesced events lose none
            total = int(value)
            delta, self._step_keys = total - self._step_keys, total
        else:
            delta = {"first": -last - 1, "last": last + 1}.get(value) or int(value)
        state.stepping = False
        state.step_encoding(delta, last)

    def _last(self) -> int:
        state = self.state
        return last_step(state.training, state.encode_text, state.round)
