"""The app's one state object: settings in, the last good training and the selected round out.

Every view reads from an `AppState` and writes only to its inputs; none talks to another view.

>>> state = AppState(preset="course")
>>> state.rounds, [m.count for m in state.training.merges]
(2, [2, 1])
>>> state.budget = "vocab size"  # the same budget, counted as a vocabulary size
>>> state.budget_size, state.rounds
(258, 2)
"""
from __future__ import annotations

import contextlib
import copy
import time
from collections.abc import Callable

import param

import bpe
from bpe import real
from bpe.options import ALPHABET, BUDGET, MIN_FREQUENCY, PRETOKENIZER, SPECIALS, TIE
from bpe.presets import PRESETS
from bpe.training import run, training_steps
from bpe.vocabulary import COLUMNS

from . import real_tokenizers
from . import tour as guide
from .documents import SPLITS, InputError, decode_upload, documents_of
from .inputs import (B, B_INPUTS, BUDGETS, DEFAULT_BUDGET_SIZE, SETTING_INPUTS, as_b, b_inputs, early_stop_note,
                     preset_inputs, sentence, training_settings)

#: Seconds a training runs between two looks at the page's events (see `AppState.schedule`).
SLICE = 0.1
#: The preset the page opens with: the explainer's walk/talk corpus once it ships.
DEFAULT_PRESET = "explainer" if "explainer" in PRESETS else "from-scratch"
#: The inputs whose change retrains.
TRAINING_INPUTS = ("corpus_text", "split", *SETTING_INPUTS)
#: The inputs whose change retrains B (while there is a B).
B_TRAINING_INPUTS = ("corpus_text", "split", "compare_b", *B_INPUTS)
#: The name a tokenizer file the person uploads goes by.
UPLOAD = "upload"
#: The real tokenizers the encoder can be compared with: label → name ("" for none).
COMPARISONS = {"nothing": "", **{real.LABELS[name]: name for name in real.NAMES},
               "your tokenizer file (upload it below)": UPLOAD}
assert set(COMPARISONS.values()) == {"", *real.NAMES, UPLOAD}


def _for_b(declared: param.Parameter) -> param.Parameter:
    """B's copy of one of A's setting inputs."""
    copied = copy.deepcopy(declared)
    copied.doc = f"B's {declared.doc[:1].lower()}{declared.doc[1:]}" if declared.doc else "B's."
    return copied


class AppState(param.Parameterized):
    preset = param.Selector(default=DEFAULT_PRESET, objects=list(PRESETS), doc="The preset last loaded.")
    corpus_text = param.String(default="", doc="The corpus as the person edits it.")
    split = param.Selector(default=SPLITS[0], objects=list(SPLITS), doc="How the corpus text is cut into documents.")
    alphabet = param.Selector(default=bpe.Settings.alphabet, objects=list(ALPHABET.names), doc=ALPHABET.help)
    pretokenizer = param.Selector(default=bpe.Settings.pretokenizer, objects=list(PRETOKENIZER.names),
                                  doc=PRETOKENIZER.help)
    tie = param.Selector(default=bpe.Settings.tie, objects=list(TIE.names), doc=TIE.help)
    specials = param.Selector(default=bpe.Settings.specials, objects=list(SPECIALS.names), doc=SPECIALS.help)
    min_frequency = param.Integer(default=bpe.Settings.min_frequency, doc=MIN_FREQUENCY.help)
    budget = param.Selector(default=BUDGETS[0], objects=list(BUDGETS))
    budget_size = param.Integer(default=DEFAULT_BUDGET_SIZE, doc="Merges or vocabulary size, as `budget` says.")

    compare_b = param.Boolean(default=False, doc="""
        Whether a second configuration, B, is trained on the same corpus, to be shown beside this one, A.""")
    b_alphabet, b_pretokenizer, b_tie, b_specials = map(_for_b, (alphabet, pretokenizer, tie, specials))
    b_min_frequency, b_budget, b_budget_size = map(_for_b, (min_frequency, budget, budget_size))

    round = param.Integer(default=0, bounds=(0, None), doc="The selected round: merges applied so far.")
    encode_text = param.String(default="walkable", doc="The text the encoder shows.")
    compare = param.Selector(default="", objects=COMPARISONS, doc="The real tokenizer the encoder compares with.")
    decode_ids = param.String(default="", doc="""
        The ids the decode box shows, as typed: always ids that parse (the box keeps a bad entry
        to itself, with its message, and this stays as it was).""")
    reference = param.ClassSelector(class_=real.Encoding, doc="The real tokenizer `compare` names, once loaded.")
    counted = param.ListSelector(default=[], objects=list(real.NAMES), doc="""
        Real tokenizers whose counts are shown too (the encoder's text, the cost across languages),
        each loaded when first chosen.""")
    loaded = param.Dict(default={}, doc="The real tokenizers loaded so far, by name (what `counted` shows).")
    uploaded = param.ClassSelector(class_=real.Encoding, allow_None=True, doc="""
        The tokenizer file the person uploaded last (`bpe.real.imported.ImportedEncoding`), if any.""")

    upload_name = param.String(default="", doc="The file the corpus was last loaded from, if it was.")

    inspected = param.Tuple(default=None, length=2, allow_None=True, doc="""
        The token the inspector shows, as (vocabulary, id): "" for this tokenizer's vocabulary,
        or the name of a real tokenizer; None while the inspector is closed.""")
    tour = param.Selector(default="", objects=list(guide.NAMES), doc="""
        The tour open: a seed's (see `bpe.tours`), "corpus" for the story of the corpus shown, "" for none.""")
    tour_step = param.Integer(default=1, bounds=(1, None), doc="The tour's step shown, from 1.")
    encode_step = param.Integer(default=0, bounds=(0, None), doc="The step the encoder's stepper shows (0: base units).")
    stepping = param.Boolean(default=False, doc="True while the stepper plays by itself.")
    piece_step = param.Integer(default=0, bounds=(0, None), doc="""
        The join the SentencePiece stepper shows (0: the characters), when one is compared with.""")

    vocab_query = param.String(default="", doc="The vocabulary table shows tokens whose text holds this.")
    vocab_sort = param.Selector(default="id", objects=list(COLUMNS), doc="The column the vocabulary table sorts by.")
    vocab_descending = param.Boolean(default=False, doc="Largest first.")
    vocab_page = param.Integer(default=0, bounds=(0, None), doc="The page of the vocabulary table shown, from 0.")
    vocab_source = param.Selector(default="", objects=[*COMPARISONS.values(), "b"], doc="""
        The vocabulary the table shows: "" for this tokenizer's at the selected round, "b" for B's,
        or a real tokenizer's (choosing one also compares the encoder's text with it, which loads it).""")

    training = param.ClassSelector(class_=bpe.Training, doc="The last training that succeeded.")
    training_b = param.ClassSelector(class_=bpe.Training, allow_None=True, doc="""
        B's last training that succeeded; None while there is no B.""")
    rounds = param.Integer(default=0, doc="How many merges the training learned: the last round.")
    message = param.String(default="", doc="What went wrong with the latest input, or why training stopped early.")
    message_kind = param.Selector(default="error", objects=["error", "info"])
    busy = param.Boolean(default=False, doc="True while training.")
    training_now = param.Boolean(default=False, doc="True while a training runs in slices: it can be cancelled.")
    progress = param.Tuple(default=(0, 0, 0.0), length=3, doc="""
        While a training runs in slices (see `schedule`): (merges learned, merges the budget asks
        for, 0 for no limit, seconds so far).""")
    playing = param.Boolean(default=False, doc="True while the rounds play by themselves (▶).")
    schedule = param.Callable(default=None, doc="""
        Runs a training: None trains at once. The page passes a function that runs the work it is
        given a moment later, so that `busy` reaches the browser first; a training is then given as
        a coroutine that trains in slices of SLICE seconds and, between them, lets the page's events
        in (`progress` updates, a cancel, a newer choice, which stops it).""")
    hold = param.Callable(default=contextlib.nullcontext, doc="""
        A context in which the state's changes reach the page as one (the page passes Panel's
        `pn.io.hold`): a finished training is shown by every pane at once.""")

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

        >>> state = AppState(preset="course")
        >>> state.corpus_text = ""
        >>> state.edited, state.message[:20]
        (True, 'The corpus is empty:')
        >>> state.reload_preset()
        >>> state.edited, state.message, state.rounds
        (False, '', 2)
        """
        self._load_preset()

    def compare_with_b(self, on: bool) -> None:
        """Show B beside A, or stop. B starts from A's settings as they are now, changed as the
        preset suggests (the explainer's other tie rule), so it compares what is on screen.

        >>> state = AppState(preset="explainer")
        >>> state.min_frequency = 3
        >>> state.compare_with_b(True)
        >>> state.b_min_frequency, state.b_tie, state.training_b.settings.tie
        (3, 'largest-text', 'largest-text')
        """
        if on and not self.compare_b:
            self.param.update(self.b_from_a(), compare_b=True)
        elif not on:
            self.compare_b = False

    def b_from_a(self) -> dict:
        """B's inputs as A's are now, changed as the preset suggests."""
        return as_b(self.preset, {name: getattr(self, name) for name in SETTING_INPUTS})

    @property
    def edited(self) -> bool:
        """Whether any training input differs from the preset's (a corpus typed or uploaded, a setting)."""
        preset = preset_inputs(self.preset, self.budget_size)
        return any(getattr(self, name) != value for name, value in preset.items())

    def settings(self, side: str = "") -> bpe.Settings:
        """The settings A's inputs (or B's, with side `B`) ask for; bpe.SettingsError says what is wrong with them."""
        return training_settings(**{name: getattr(self, side + name) for name in SETTING_INPUTS})

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

    @contextlib.contextmanager
    def at_once(self):
        """Inside, trainings run at once rather than through `schedule`, so that what follows sees them."""
        schedule, self.schedule = self.schedule, None
        try:
            yield
        finally:
            self.schedule = schedule

    def _retrain(self, *events) -> None:
        """Train A on the current inputs; on bad input, say why and keep the last good training."""
        self._start("")

    def _retrain_b(self, *events) -> None:
        """Train B on the corpus and B's inputs, while there is a B."""
        if self.compare_b:
            self._start(B)
        else:
            self._trained_on[B] = None
            self.training_b = None

    def _start(self, side: str) -> None:
        try:
            request = (documents_of(self.corpus_text, self.split), self.settings(side))
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

    @property
    def inputs_shown(self) -> bool:
        """The inputs are the ones the shown training was made from (or is being made from): false
        while a rejected input (merges 10^9, an empty corpus) sits in its field beside the last good view."""
        return self._trained_on[""] is not None

    @property
    def rounds_b(self) -> int:
        """How many merges B learned (0 while there is no B)."""
        return len(self.training_b.merges) if self.training_b is not None else 0

    def report(self, problem: Exception | str) -> None:
        """Say what went wrong with something a view did (an export, a link), in the page's words."""
        self.param.update(message=sentence(problem), message_kind="error")

    def _fail(self, error: Exception, side: str = "") -> None:
        self._trained_on[side] = None
        prefix = "B: " if side == B else ""
        self.param.update(message=prefix + sentence(error), message_kind="error", busy=False)

    @param.depends("compare", watch=True)
    def _load_reference(self) -> None:
        """Load the real tokenizer to compare with, a moment later: it takes a second or two in the browser."""
        if not self.compare or (self.reference is not None and self.reference.name == self.compare):
            return
        if self.compare == UPLOAD:
            if self.uploaded is None:
                self.param.update(compare="", message_kind="info", message=(
                    "Upload a tokenizer file first: the box under the comparison takes a Hugging Face "
                    "tokenizer.json, this page's tiktoken zip, or a .tiktoken rank file."))
            else:
                self.reference = self.uploaded
            return
        self.busy = True
        (self.schedule or _now)(lambda name=self.compare: self._loaded_reference(name))

    @param.depends("counted", watch=True)
    def _load_counted(self) -> None:
        """Load the tokenizers to count with that are not loaded yet, a moment later (a second or two each)."""
        missing = [name for name in self.counted if name not in self.loaded]
        if missing:
            self.busy = True
            (self.schedule or _now)(lambda: self._loaded_counted(missing))

    def _loaded_counted(self, names: list[str]) -> None:
        loaded = dict(self.loaded)
        for name in names:
            try:
                loaded[name] = real_tokenizers.load(name)
            except real_tokenizers.LoadError as error:
                self.param.update(counted=[n for n in self.counted if n != name], message=str(error),
                                  message_kind="error")
        self.param.update(loaded=loaded, busy=False)

    def _loaded_reference(self, name: str) -> None:
        if name != self.compare:
            return  # another choice came meanwhile
        try:
            reference = real_tokenizers.load(name)
        except real_tokenizers.LoadError as error:
            self.param.update(compare="", message=str(error), message_kind="error", busy=False)
            return
        self.param.update(reference=reference, busy=False)

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

    def load_upload(self, filename: str, data: bytes) -> None:
        """Put an uploaded file in the corpus editor, or say why it cannot be used."""
        try:
            text = decode_upload(filename, data)
        except InputError as error:
            self.param.update(message=str(error), message_kind="error")
            return
        self.param.update(corpus_text=text, upload_name=filename)

    def load_tokenizer_file(self, filename: str, data: bytes, pretokenizer: str = "gpt2") -> None:
        """Compare with an uploaded tokenizer file, read as `bpe import` reads it; a file it cannot
        express is refused with a message, and everything else stays as it was.

        `pretokenizer` splits a bare tiktoken rank file, which holds no pattern of its own."""
        # Imported on first use: the page starts without the formats.
        from bpe.errors import UserInputError
        from bpe.formats import upload
        from bpe.real.imported import ImportedEncoding

        try:
            imported = upload.read(data, filename, pretokenizer)
            encoding = ImportedEncoding(UPLOAD, filename, imported.saved.tokenizer, imported.notes,
                                        imported.saved.file_ids)
        except (UserInputError, MemoryError) as error:
            self.report(f"This tokenizer file could not be used: {error}" if not isinstance(error, MemoryError)
                        else "This tokenizer file could not be used: there is not enough memory for it")
            return
        if self.inspected and self.inspected[0] == UPLOAD:
            self.inspected = None  # a token of the file before
        notes = "; ".join(imported.notes)
        self.param.update(uploaded=encoding, reference=encoding, compare=UPLOAD, message_kind="info", message=(
            sentence(f"Comparing with {filename}: {len(encoding.tokens):,} tokens"
                     + (f" ({notes})" if notes else ""))))

    def play(self, playing: bool) -> None:
        """Start or stop playing; ▶ at the last round plays again from round 0.

        >>> state = AppState(preset="course")
        >>> state.round = 2
        >>> state.play(True)
        >>> state.round, state.playing
        (0, True)
        """
        self.playing = playing  # first: the jump back to round 0 is then part of the play
        if playing and self.rounds and self.round >= self.rounds:
            self.round = 0

    def inspect(self, vocabulary: str, token_id: int) -> None:
        """Open the inspector on a token; one that no vocabulary shown here has is ignored.

        >>> state = AppState(preset="course")
        >>> state.inspect("", 257)
        >>> state.inspected
        ('', 257)
        >>> state.inspect("", 10**6)  # no such id
        >>> state.inspect("o200k_base", 5)  # not loaded
        >>> state.inspected
        ('', 257)
        """
        if vocabulary == "b":
            size = len(self.training_b.vocab) if self.training_b is not None else 0
        elif vocabulary:
            size = len(self.reference.tokens) if self.reference is not None and self.reference.name == vocabulary else 0
        else:
            size = len(self.training.vocab)
        if 0 <= token_id < size:
            self.inspected = (vocabulary, token_id)

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

    def step_encoding(self, delta: int, last: int) -> None:
        """Move the stepper by `delta`, within 0 and `last`; playing stops at the end."""
        self.encode_step = min(max(self.encode_step + delta, 0), last)
        if self.encode_step >= last:
            self.stepping = False

    def sort_vocabulary(self, column: str) -> None:
        """Sort the vocabulary table by `column`; the same column again reverses the order.

        >>> state = AppState(preset="course")
        >>> state.sort_vocabulary("now")  # counts sort largest first
        >>> state.vocab_sort, state.vocab_descending
        ('now', True)
        >>> state.sort_vocabulary("now")
        >>> state.vocab_descending
        False
        """
        if column not in COLUMNS:
            return
        counts = ("now", "count at birth", "bytes", "characters")  # which a learner wants largest first
        descending = not self.vocab_descending if column == self.vocab_sort else column in counts
        self.param.update(vocab_sort=column, vocab_descending=descending)

    @param.depends("vocab_query", "vocab_sort", "vocab_descending", "vocab_source", "training", "training_b", "round",
                   watch=True)
    def _first_vocabulary_page(self) -> None:
        self.vocab_page = 0

    @param.depends("vocab_source", watch=True)
    def _compare_with_source(self) -> None:
        if self.vocab_source and self.vocab_source != "b":
            self.compare = self.vocab_source

    def step(self, delta: int) -> None:
        """Move the selected round by `delta`, staying within 0 and the last round."""
        self.round = min(max(self.round + delta, 0), self.rounds)


def _now(work: Callable[[], None]) -> None:
    work()
