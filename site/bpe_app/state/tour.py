"""The guided tour, on the app's state: a seed's tour (`bpe.explain.tours`) or the story of the corpus shown
(`bpe.explain.story`), one step at a time. Panel-free: the first screen uses it too.

A step sets the page's state (the round, the encoder's text, B); a seed's tour shows its preset
as published, so opening one loads that preset again if anything was changed.

>>> from .app_state import AppState
>>> state = AppState()
>>> open_tour(state, "course")
>>> state.preset, state.tour_step, state.round, len(steps(state))
('course', 1, 0, 6)
>>> move(state, 2); state.tour_step, state.round
(3, 1)
>>> close(state); state.tour, state.round
('', 1)
"""
from __future__ import annotations

import html

import param

from bpe.explain import story, tours

#: The tour that tells the story of whatever corpus is shown.
CORPUS = "corpus"
#: Every tour's name ("" for none): the seeds', then the corpus's.
NAMES = ("", *tours.NAMES, CORPUS)
#: How the page names each tour.
LABELS = {"explainer": "the explainer's seven words", "course": "the course's aaa and aba",
          "octlm": "octlm's byte-level tokenizer", "from-scratch": "BPE from scratch (cat/mat)", CORPUS: "this corpus"}
#: The CSS class of the pane each step can speak about (`story.PANES`).
PANE_CLASSES = {"corpus": "bpe-corpus-pane", "candidates": "bpe-candidates-pane", "encoder": "bpe-encoding-pane",
                "chart": "bpe-chart-pane", "difference": "bpe-difference-pane"}
assert set(PANE_CLASSES) == set(story.PANES)



class Tour(param.Parameterized):
    """The tour open and its step: the part of the state the functions below read and set."""
    tour = param.Selector(default="", objects=list(NAMES), doc="""
        The tour open: a seed's (see `bpe.explain.tours`), "corpus" for the story of the corpus shown, "" for none.""")
    tour_step = param.Integer(default=1, bounds=(1, None), doc="The tour's step shown, from 1.")


_told: dict = {}  # (training, B's) -> their story, for the corpus tour (one entry: the one shown)


def steps(state) -> list[story.Step]:
    """The open tour's steps ([] when no tour is open)."""
    return steps_of(state, state.tour) if state.tour else []


def open_tour(state, name: str, step: int = 1, show_step: bool = True) -> None:
    """Open tour `name` at `step` (clamped to its steps) and show that step (or only open it there:
    the page is as a link or the first screen left it)."""
    if name not in NAMES or not name:
        raise ValueError(f"there is no tour named {name!r}")
    with state.at_once():
        if name in tours.NAMES and (state.preset != name or state.edited):
            if state.preset != name:
                state.preset = name
            else:
                state.reload_preset()
        if show_step:
            show(state, name, step)
        else:
            state.param.update(tour=name, tour_step=_clamped(state, name, step))


def move(state, delta: int) -> None:
    """The step `delta` steps on (Next is 1, Back is -1), clamped to the tour."""
    if state.tour:
        with state.at_once():
            show(state, state.tour, state.tour_step + delta)


def close(state) -> None:
    """Leave the tour where it is: everything it set stays, and stays live."""
    state.param.update(tour="", tour_step=1)


def show(state, name: str, number: int) -> None:
    """Set the page to step `number` of tour `name`: its round, its text and, for a seed's tour, B on or
    off. The step, the round and the text change together, so that the address takes one new entry."""
    number = _clamped(state, name, number)
    step = steps_of(state, name)[number - 1]
    if name in tours.NAMES or step.b:
        state.compare_with_b(step.b)
    changes = {"tour": name, "tour_step": number, "round": min(step.round, state.rounds)}
    if step.encode:
        changes["encode_text"] = step.encode
    state.param.update(changes)


def steps_of(state, name: str) -> list[story.Step]:
    """Tour `name`'s steps, on what the state shows."""
    if name == CORPUS:
        key = (state.training, state.training_b)
        if key not in _told:
            _told.clear()
            _told[key] = story.story(*key)
        return _told[key]
    return tours.tour(name)


def _clamped(state, name: str, number: int) -> int:
    return max(1, min(number, len(steps_of(state, name))))


def tour_html(tour: str, number: int, told: list[story.Step]) -> str:
    """The tour's box: the step's title and sentences, Back, Next and Close ("" when no tour is open)."""
    if not tour or not told:
        return ""
    number = max(1, min(number, len(told)))
    step = told[number - 1]
    button = ('<button class="bpe-action bpe-tour-{name}" data-action="{action}" data-value="{value}"{off}>'
              '{label}</button>')
    back = button.format(name="back", action="tour-move", value="-1", label="◀ Back", off=" disabled" * (number == 1))
    last = number == len(told)
    following = button.format(name="next", action="tour-move", value="1", label="Next ▶", off=" disabled" * last)
    done = button.format(name="close", action="tour-close", value="", label="Close the tour", off="")
    return (f'<section class="bpe-tour" tabindex="-1" aria-label="Tour: {html.escape(LABELS[tour])}" '
            f'data-tour="{tour}" data-step="{number}" data-pane="{PANE_CLASSES[step.pane]}">'
            f'<div class="bpe-tour-text" aria-live="polite"><div class="bpe-tour-where">Tour of '
            f'{html.escape(LABELS[tour])} · step {number} of {len(told)}</div>'
            f'<h3>{html.escape(step.title)}</h3><p>{html.escape(step.text)}</p></div>'
            f'<div class="bpe-tour-buttons">{back}{following}{done}</div>'
            f'<div class="bpe-tour-keys">← → step through, Esc leaves the tour where it is.</div></section>')
