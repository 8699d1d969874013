"""Long trainings in the page: trained in slices with progress, stopped by a newer choice or a cancel,
and never shown half-way (no browser: the page's scheduler is played by an asyncio loop here)."""
from __future__ import annotations

import inspect

import pytest

from bpe_app.state import trainings as state_module
from bpe_app.state import AppState


class Loop:
    """The page's event loop, played by hand: `asyncio.sleep(0)`, where a training pauses, yields
    None to whoever drives its coroutine, so each turn runs every waiting task to its next pause.
    (No asyncio loop: the browser tests' Playwright already runs one in this thread.)"""

    def __init__(self):
        self.tasks = []

    def schedule(self, work) -> None:
        async def call():
            result = work()
            if inspect.isawaitable(result):
                await result
        self.tasks.append(call())

    def turn(self) -> None:
        for task in list(self.tasks):
            try:
                task.send(None)
            except StopIteration:
                self.tasks.remove(task)


@pytest.fixture
def loop(monkeypatch):
    monkeypatch.setattr(state_module, "SLICE", 0.0)  # pause after every merge: each turn is one merge
    return Loop()


def paged(loop) -> AppState:
    """A state whose trainings run as the page runs them: later, and in slices."""
    state = AppState(preset="explainer")
    state.schedule = loop.schedule
    return state


def turns(loop, n: int) -> None:
    for _ in range(n):
        loop.turn()


def finish(loop) -> None:
    while loop.tasks:
        loop.turn()


def test_a_training_in_slices_reports_progress_and_ends_as_train_does(loop):
    state = paged(loop)
    seen = []
    state.param.watch(lambda event: seen.append(event.new), "progress")
    state.budget_size = 8
    turns(loop, 1)
    assert state.busy and state.training_now and state.rounds == 10  # still the old training
    finish(loop)
    assert [done for done, asked, _ in seen[1:]] == list(range(1, 9)) and all(a == 8 for _, a, _ in seen[1:])
    assert state.rounds == 8 and not state.busy and not state.training_now


def test_a_newer_choice_stops_the_running_training_and_only_the_newest_is_shown(loop):
    state = paged(loop)
    shown = []
    state.param.watch(lambda event: shown.append(event.new.settings), "training")
    state.budget_size = 9
    turns(loop, 1)
    assert state.training_now and state.rounds == 10
    state.preset = "course"
    finish(loop)
    assert shown == [state.training.settings] and state.rounds == 2
    assert not state.busy and not state.training_now


def test_cancel_keeps_the_last_finished_training_and_says_so(loop):
    state = paged(loop)
    before = state.training
    state.budget_size = 9
    turns(loop, 1)
    assert state.training_now
    state.cancel()
    finish(loop)
    assert state.training is before and not state.busy and not state.training_now
    assert state.message.startswith("Training cancelled") and not state.inputs_shown
    state.budget_size = 7  # a new input trains again
    finish(loop)
    assert state.rounds == 7 and state.message == ""


def test_cancel_with_nothing_running_changes_nothing():
    state = AppState(preset="course")
    state.cancel()
    assert state.message == "" and state.inputs_shown
