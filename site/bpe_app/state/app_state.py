"""The app's one state object, composed of one part per concern: settings in, the last good
training and the selected round out.

| part | module | what it holds |
|---|---|---|
| `SideA` | side_a.py | the preset, the corpus, A's settings and training |
| `SideB` | side_b.py | B's settings and training, while there is a B |
| `Trainer` | trainings.py | running either side's training, in slices, cancelled by a newer input |
| `Comparison` | comparison.py | the real tokenizers compared and counted with, loaded on first use |
| `Upload` | upload.py | the tokenizer file the person uploaded |
| `Reading` | reading.py | the round, the encoder's text and stepper, the inspector, the vocabulary table |
| `Tour` | tour.py | the tour open and its step |
| `Chat` | chat.py | the chat box's conversation and the tokenizer counting it |
| `Progress` | progress.py | busy, the progress of a training, scheduling, the page's message |

Every view reads from an `AppState` (each only the parts it shows) and writes only to its
inputs; none talks to another view.

>>> state = AppState(preset="course")
>>> state.rounds, [m.count for m in state.training.merges]
(2, [2, 1])
>>> state.budget = "vocab size"  # the same budget, counted as a vocabulary size
>>> state.budget_size, state.rounds
(258, 2)
"""
from __future__ import annotations

import param

from bpe.options import BUDGET

from . import tour as guide
from .chat import Chat
from .comparison import Comparison
from .inputs import B
from .progress import Progress
from .reading import Reading
from .side_a import TRAINING_INPUTS, SideA
from .side_b import B_TRAINING_INPUTS, SideB
from .tour import Tour
from .trainings import Trainer
from .upload import Upload


class AppState(SideA, SideB, Trainer, Comparison, Upload, Reading, Tour, Chat, Progress):
    """Every part's parameters on one object, so that a view binds `state.param.NAME` whatever part
    holds it, and the watchers that join the parts."""

    def __init__(self, **params):
        super().__init__(**params)
        # A's ("") and B's last attempt, as (documents, settings): the training running or shown.
        self._trained_on: dict[str, tuple | None] = {"": None, B: None}
        self._running: dict[str, tuple] = {}  # the side -> request of each training running in slices
        # The unit each side's budget_size is in.
        self._size_counts_base = {side: BUDGET.labelled(self.budget).counts_base for side in ("", B)}
        # Before the retrain watchers, so that switching the budget kind converts the number first.
        self.param.watch(lambda *events: self._convert_budget("", events), ["budget", "budget_size"], precedence=0)
        self.param.watch(lambda *events: self._convert_budget(B, events), ["b_budget", "b_budget_size"], precedence=0)
        self.param.watch(self._retrain, list(TRAINING_INPUTS), precedence=1)
        self.param.watch(self._retrain_b, list(B_TRAINING_INPUTS), precedence=1)
        self._load_preset()

    def restore(self, inputs: dict, round: int, show_step: bool = False) -> None:
        """Show a saved view (a shared link): its preset, then its other inputs, then its round, then
        its tour at its step, if it has a tour. With `show_step`, the step sets the page as it does
        when reached (its round, text and B); a link the page wrote holds those itself.

        `inputs` holds the preset and values for any of the other inputs (`TRAINING_INPUTS`,
        `encode_text`, `compare`, `tour`, `tour_step`); the round is clamped to what the training
        learned. Training happens at once, not through `schedule`: a link is restored as the page
        opens, and Panel drops the changes of a later callback made before the browser has said it is ready."""
        inputs = dict(inputs)
        tour_name, step = inputs.pop("tour", ""), inputs.pop("tour_step", 1)
        with self.at_once():
            self.preset = inputs["preset"]  # loads the preset's inputs, if it is not the current one
            self.param.update({name: value for name, value in inputs.items() if name != "preset"})
            for size in ("budget_size", B + "budget_size"):
                if size in inputs:
                    setattr(self, size, inputs[size])  # a change of budget kind may have converted it
            self.round = min(round, self.rounds)
            if tour_name:
                guide.open_tour(self, tour_name, step, show_step)
            else:
                guide.close(self)

    # The rules between parts: what one part's change does to another's.
    @param.depends("training", "training_b", watch=True)
    def _close_stale_inspector(self) -> None:
        if not self.inspected or self.inspected[0] not in ("", "b"):
            return
        training = self.training if not self.inspected[0] else self.training_b
        if training is None or self.inspected[1] >= len(training.vocab):
            self.inspected = None


    @param.depends("training", "round", "encode_text", watch=True)
    def _restart_stepper(self) -> None:
        """A new text, round or training has steps of its own: show them from the start."""
        self.param.update(encode_step=0, stepping=False)


    @param.depends("encode_text", "compare", "reference", watch=True)
    def _restart_pieces(self) -> None:
        self.piece_step = 0


    def _first_vocabulary_page(self) -> None:
        self.vocab_page = 0

