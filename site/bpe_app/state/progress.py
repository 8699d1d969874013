"""The page's progress: whether it is busy, how far a training running in slices has come, how
work is scheduled (at once, or a moment later so that `busy` reaches the browser first), and the
one message the page shows (what went wrong with the latest input, or why training stopped early).

>>> progress = Progress()
>>> progress.busy, progress.schedule is None
(False, True)
>>> with progress.at_once():
...     progress.schedule is None
True
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable

import param

from .inputs import sentence


class Progress(param.Parameterized):
    message = param.String(default="", doc="What went wrong with the latest input, or why training stopped early.")
    message_kind = param.Selector(default="error", objects=["error", "info"])
    busy = param.Boolean(default=False, doc="True while training.")
    training_now = param.Boolean(default=False, doc="True while a training runs in slices: it can be cancelled.")
    progress = param.Tuple(default=(0, 0, 0.0), length=3, doc="""
        While a training runs in slices (see `schedule`): (merges learned, merges the budget asks
        for, 0 for no limit, seconds so far).""")
    schedule = param.Callable(default=None, doc="""
        Runs a training: None trains at once. The page passes a function that runs the work it is
        given a moment later, so that `busy` reaches the browser first; a training is then given as
        a coroutine that trains in slices of `trainings.SLICE` seconds and, between them, lets the
        page's events in (`progress` updates, a cancel, a newer choice, which stops it).""")
    hold = param.Callable(default=contextlib.nullcontext, doc="""
        A context in which the state's changes reach the page as one (the page passes Panel's
        `pn.io.hold`): a finished training is shown by every pane at once.""")

    @contextlib.contextmanager
    def at_once(self):
        """Inside, trainings run at once rather than through `schedule`, so that what follows sees them."""
        schedule, self.schedule = self.schedule, None
        try:
            yield
        finally:
            self.schedule = schedule

    def report(self, problem: Exception | str) -> None:
        """Say what went wrong with something a view did (an export, a link), in the page's words."""
        self.param.update(message=sentence(problem), message_kind="error")

    def later(self, work: Callable[[], None]) -> None:
        """Run `work` through `schedule`, or at once when there is none."""
        (self.schedule or _now)(work)


def _now(work: Callable[[], None]) -> None:
    work()
