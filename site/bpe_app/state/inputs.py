"""The page's inputs and `bpe.Settings`, both ways, and the page's words for what went wrong.

The options, their values and their labels are `bpe.options`'; this module only says how
the page's inputs carry them (the split and the budget by their labels).

>>> training_settings(alphabet="bytes", pretokenizer="words", tie="smallest", specials="none",
...                   min_frequency=2, budget="vocab size", budget_size=300).vocab_size
300
>>> sentence(bpe.SettingsError("min_frequency", "{option} must be at least 1, not 0"))
'Minimum count must be at least 1, not 0.'
"""
from __future__ import annotations

import bpe
from bpe.options import BUDGET, DOCUMENTS, FORMAT, OPTIONS
from bpe.presets import PRESETS

from .documents import join_documents

#: How the training budget is given, as the page shows it.
BUDGETS = tuple(value.label for value in BUDGET)
#: The budget's number until a preset or the person sets one.
DEFAULT_BUDGET_SIZE = 20
#: The training settings among the page's inputs (what `training_settings` takes).
SETTING_INPUTS = ("alphabet", "pretokenizer", "tie", "specials", "min_frequency", "budget", "budget_size")
#: The second configuration's inputs, B's: each setting's name with this in front.
B = "b_"
B_INPUTS = tuple(B + name for name in SETTING_INPUTS)


def preset_inputs(name: str, budget_size: int = DEFAULT_BUDGET_SIZE) -> dict:
    """The training inputs a preset sets; a preset without a budget keeps `budget_size` (unused by "no limit")."""
    preset = PRESETS[name]
    return training_inputs(preset.documents, preset.settings, budget_size)


def training_inputs(documents: list[str], settings: bpe.Settings, budget_size: int = DEFAULT_BUDGET_SIZE) -> dict:
    """The page's training inputs for documents and settings (`training_settings` read backwards); a
    budget of "no limit" keeps `budget_size`, which it does not use.

    >>> inputs = training_inputs(["a b"], bpe.Settings(vocab_size=300))
    >>> inputs["budget"], inputs["budget_size"], training_settings(**{k: inputs[k] for k in SETTING_INPUTS}).vocab_size
    ('vocab size', 300, 300)
    """
    text, split = join_documents(documents)
    budget = next(value for value in BUDGET if not value.field or getattr(settings, value.field) is not None)
    size = getattr(settings, budget.field) if budget.field else budget_size
    return dict(
        corpus_text=text, split=split, alphabet=settings.alphabet, pretokenizer=settings.pretokenizer,
        tie=settings.tie, specials=settings.specials, min_frequency=settings.min_frequency,
        budget=budget.label, budget_size=size,
    )


def b_inputs(name: str, budget_size: int = DEFAULT_BUDGET_SIZE) -> dict:
    """B's inputs as a preset starts them: its own settings, changed as its suggested comparison says.

    >>> b_inputs("explainer")["b_tie"], b_inputs("explainer")["b_alphabet"]
    ('largest-text', 'chars')
    """
    return as_b(name, preset_inputs(name, budget_size))


def as_b(name: str, inputs: dict) -> dict:
    """A's setting inputs (any dict holding them) as B's, changed as preset `name` suggests comparing."""
    changed = {**inputs, **PRESETS[name].contrast}  # alphabet, pretokenizer, tie, specials or min_frequency
    return {B + setting: changed[setting] for setting in SETTING_INPUTS}


def training_settings(alphabet: str, pretokenizer: str, tie: str, specials: str, min_frequency: int, budget: str,
                      budget_size: int) -> bpe.Settings:
    """bpe.Settings from the page's inputs; bpe.SettingsError says what is wrong with them."""
    field = BUDGET.labelled(budget).field
    return bpe.Settings(alphabet=alphabet, pretokenizer=pretokenizer, tie=tie, specials=specials,
                        min_frequency=min_frequency, **({field: budget_size} if field else {}))


def early_stop_note(training: bpe.Training) -> str:
    """Why training learned fewer merges than its budget allowed, or "" if it did not."""
    settings = training.settings
    if training.stopped == "budget reached" or (settings.merges is None and settings.vocab_size is None):
        return ""
    asked = settings.merges if settings.merges is not None else settings.vocab_size - training.vocab_size(0)
    return sentence(f"Training stopped after {len(training.merges)} of the {asked} merges asked for: {training.stopped}")


def option_label(field: str) -> str:
    """The page's name for an option: `minimum count`, not `--min-frequency`."""
    option = OPTIONS.get(field) or (DOCUMENTS if field == "documents" else None)
    return option.label if option else field.replace("_", " ")


def sentence(error: Exception | str) -> str:
    """A message as a sentence, options named as the page names them.

    A SettingsError names its option itself; another message (a format's) may still name a
    command-line flag in its text, which becomes the page's name for it."""
    if isinstance(error, bpe.SettingsError):
        text = error.render(option_label)
    else:
        text = str(error)
        for option in (*OPTIONS.values(), DOCUMENTS, FORMAT):
            text = text.replace(option.flag + " ", option.label + " ")
        text = text.replace("--", "")
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
