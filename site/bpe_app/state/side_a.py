"""Training A: the preset, the corpus as the person edits it, A's settings, and A's last good training.

>>> from .app_state import AppState
>>> state = AppState(preset="course")
>>> state.rounds, state.edited
(2, False)
"""
from __future__ import annotations

import param

import bpe
from bpe.options import ALPHABET, BUDGET, MIN_FREQUENCY, PRETOKENIZER, SPECIALS, TIE
from bpe.presets import PRESETS

from . import tour as guide
from .documents import MAX_CORPUS_BYTES, SPLITS, InputError, decode_upload, documents_of
from .inputs import (B, BUDGETS, DEFAULT_BUDGET_SIZE, SETTING_INPUTS, as_b, b_inputs, preset_inputs, training_inputs,
                     training_settings)

#: The preset the page opens with: the explainer's walk/talk corpus once it ships.
DEFAULT_PRESET = "explainer" if "explainer" in PRESETS else "from-scratch"
#: The inputs whose change retrains.
TRAINING_INPUTS = ("corpus_text", "split", *SETTING_INPUTS)


def setting_parameters() -> tuple[param.Parameter, ...]:
    """A new declaration of each of `SETTING_INPUTS`, in that order: A's, and B's copies of them."""
    return (
        param.Selector(default=bpe.Settings.alphabet, objects=list(ALPHABET.names), doc=ALPHABET.help),
        param.Selector(default=bpe.Settings.pretokenizer, objects=list(PRETOKENIZER.names), doc=PRETOKENIZER.help),
        param.Selector(default=bpe.Settings.tie, objects=list(TIE.names), doc=TIE.help),
        param.Selector(default=bpe.Settings.specials, objects=list(SPECIALS.names), doc=SPECIALS.help),
        param.Integer(default=bpe.Settings.min_frequency, doc=MIN_FREQUENCY.help),
        param.Selector(default=BUDGETS[0], objects=list(BUDGETS)),
        param.Integer(default=DEFAULT_BUDGET_SIZE, doc="Merges or vocabulary size, as `budget` says."),
    )


class SideA(param.Parameterized):
    preset = param.Selector(default=DEFAULT_PRESET, objects=list(PRESETS), doc="The preset last loaded.")
    corpus_text = param.String(default="", doc="The corpus as the person edits it.")
    split = param.Selector(default=SPLITS[0], objects=list(SPLITS), doc="How the corpus text is cut into documents.")
    upload_name = param.String(default="", doc="The file the corpus was last loaded from, if it was.")
    alphabet, pretokenizer, tie, specials, min_frequency, budget, budget_size = setting_parameters()

    corpus_limit = param.Integer(default=MAX_CORPUS_BYTES, bounds=(1, None), doc="""
        The largest corpus trained on, in bytes: what a browser trains in seconds. A notebook or a
        server (`bpe.show`, `bpe serve`) runs in CPython, and takes more.""")
    training = param.ClassSelector(class_=bpe.Training, doc="The last training that succeeded.")
    rounds = param.Integer(default=0, doc="How many merges the training learned: the last round.")

    @param.depends("preset", watch=True)
    def _load_preset(self) -> None:
        self._trained_on = {"": None, B: None}  # reloading a preset always retrains, even to the same inputs
        if self.tour not in ("", guide.CORPUS, self.preset):
            guide.close(self)  # another preset: a seed's tour would no longer speak of what is shown
        self.param.update(preset_inputs(self.preset, self.budget_size), **b_inputs(self.preset, self.b_budget_size),
                          upload_name="")
        self._retrain()  # in case no input changed, so no watcher ran
        self._retrain_b()
        self.round = 0


    def reload_preset(self) -> None:
        """Load the current preset again, undoing every edit (a menu cannot re-pick its own choice).

        >>> from .app_state import AppState
        >>> state = AppState(preset="course")
        >>> state.corpus_text = ""
        >>> state.edited, state.message[:20]
        (True, 'The corpus is empty:')
        >>> state.reload_preset()
        >>> state.edited, state.message, state.rounds
        (False, '', 2)
        """
        self._load_preset()


    @property
    def edited(self) -> bool:
        """Whether any training input differs from the preset's (a corpus typed or uploaded, a setting)."""
        preset = preset_inputs(self.preset, self.budget_size)
        return any(getattr(self, name) != value for name, value in preset.items())


    def settings(self, side: str = "") -> bpe.Settings:
        """The settings A's inputs (or B's, with side `B`) ask for; bpe.SettingsError says what is wrong with them."""
        return training_settings(**{name: getattr(self, side + name) for name in SETTING_INPUTS})


    def _retrain(self, *events) -> None:
        """Train A on the current inputs; on bad input, say why and keep the last good training."""
        self._start("")


    def _convert_budget(self, side: str, events: tuple) -> None:
        """Keep the same training when a side's budget changes between merges and vocabulary size.

        Not when the size is set in the same breath: then it is already in the new unit.
        The number remembers its unit through "no limit", which does not use it: merges → no limit
        → vocab size converts as merges → vocab size would."""
        budget = BUDGET.labelled(getattr(self, side + "budget"))
        training = self.training_b if side == B else self.training
        if training is None or side + "budget_size" in {event.name for event in events}:
            if budget.field:
                self._size_counts_base[side] = budget.counts_base
            return
        if not budget.field:
            return
        shift = training.vocab_size(0) * (budget.counts_base - self._size_counts_base[side])
        self._size_counts_base[side] = budget.counts_base
        setattr(self, side + "budget_size", max(getattr(self, side + "budget_size") + shift, 0))


    def take(self, training: bpe.Training) -> None:
        """Show a training made elsewhere (a notebook's, a script's) as if it were trained here, at its
        last round: its documents and settings become the inputs, and it is not trained again. A
        training that kept no text (streamed from files) leaves the corpus box empty.

        >>> from .app_state import AppState
        >>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
        >>> state = AppState()
        >>> state.take(t)
        >>> state.training is t, state.round, state.pretokenizer, state.edited
        (True, 4, 'words', True)
        """
        texts = training.corpus.texts
        inputs = training_inputs(texts if texts is not None else [], training.settings, self.budget_size)
        with self.hold():
            if texts is not None:  # the request the inputs make, so that setting them trains nothing
                self._trained_on[""] = (documents_of(inputs["corpus_text"], inputs["split"], self.corpus_limit),
                                        training.settings)
            self.param.update(**inputs, **as_b(self.preset, inputs), upload_name="")
            self._show(training)
            self.round = len(training.merges)

    def load_upload(self, filename: str, data: bytes) -> None:
        """Put an uploaded file in the corpus editor, or say why it cannot be used."""
        try:
            text = decode_upload(filename, data)
        except InputError as error:
            self.param.update(message=str(error), message_kind="error")
            return
        self.param.update(corpus_text=text, upload_name=filename)

