"""Running a side's training (A's, or B's while there is one): at once, or in slices of SLICE seconds
that let the page's events in, and cancelled by a newer input or the cancel button. The last good
training stays shown while a bad input is said in `message`.

The sides' own inputs and results are `side_a.SideA`'s and `side_b.SideB`'s; `AppState` holds
which request each side last started (`_trained_on`) and which run in slices (`_running`).
"""
from __future__ import annotations

import time

import param

import bpe
from bpe.trainers.training import run, training_steps

from .documents import InputError, documents_of
from .inputs import B, early_stop_note, sentence

#: Seconds a training runs between two looks at the page's events (see `Progress.schedule`).
SLICE = 0.1


class Trainer(param.Parameterized):
    """Starts, slices, shows and cancels the sides' trainings (no parameters of its own)."""

    def _start(self, side: str) -> None:
        try:
            request = (documents_of(self.corpus_text, self.split, self.corpus_limit), self.settings(side))
        except (InputError, ValueError) as error:  # bpe.SettingsError is a ValueError
            self._fail(error, side)
            return
        if request == self._trained_on[side]:
            return
        self._trained_on[side] = request
        self.param.update(busy=True, progress=(0, 0, 0.0))
        if self.schedule is None:
            self._train(request, side)
        else:
            self.schedule(lambda: self._train_in_slices(request, side))


    def _train(self, request: tuple, side: str) -> None:
        try:
            training = run(training_steps(*request))
        except ValueError as error:  # a lone surrogate, which UTF-8 cannot encode
            self._fail(error, side)
            return
        self._show(training, side)


    async def _train_in_slices(self, request: tuple, side: str) -> None:
        """Train, pausing every SLICE seconds to report progress and let the page's events in; stop
        as soon as the request is no longer the newest (a newer input, or `cancel`)."""
        import asyncio  # here, not at the top: the first screen starts without it (0.1 s in the browser)

        started = time.monotonic()
        pause = started + SLICE
        steps = training_steps(*request)
        if request is self._trained_on[side]:
            self._running[side] = request
            self.param.update(training_now=True, busy=True)
        try:
            while request is self._trained_on[side]:
                try:
                    done, asked = next(steps)
                except StopIteration as finished:
                    with self.hold():
                        self._show(finished.value, side)
                    return
                if time.monotonic() >= pause:
                    self.progress = (done, asked, time.monotonic() - started)
                    await asyncio.sleep(0)
                    pause = time.monotonic() + SLICE
        except ValueError as error:  # a lone surrogate, which UTF-8 cannot encode
            self._fail(error, side)
        finally:
            if self._running.get(side) is request:  # else a newer training of this side has taken over
                del self._running[side]
            self.training_now = bool(self._running)


    def cancel(self) -> None:
        """Stop the running training; the page keeps showing the last finished one, and says so."""
        if self.training_now and any(self._trained_on.values()):
            self._trained_on = {"": None, B: None}
            self._running.clear()
            self.param.update(busy=False, training_now=False, message_kind="info", message=(
                "Training cancelled: the page shows the last finished training, not the inputs in the "
                "settings. Change an input to train again."))


    def _show(self, training: bpe.Training, side: str = "") -> None:
        if side == B:
            self.training_b = training
        else:
            self.param.update(training=training, rounds=len(training.merges), round=min(self.round, len(training.merges)),
                              message=early_stop_note(training), message_kind="info")
        self.busy = any(other != side for other in self._running)  # the other side may still be training


    def _fail(self, error: Exception, side: str = "") -> None:
        self._trained_on[side] = None
        prefix = "B: " if side == B else ""
        self.param.update(message=prefix + sentence(error), message_kind="error", busy=False)


    @property
    def inputs_shown(self) -> bool:
        """The inputs are the ones the shown training was made from (or is being made from): false
        while a rejected input (merges 10^9, an empty corpus) sits in its field beside the last good view."""
        return self._trained_on[""] is not None

