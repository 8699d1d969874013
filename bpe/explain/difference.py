"""Two trainings on the same corpus, round by round: where they take different pairs, and why, in words.

Merges are compared by their text, not their ids: a bytes and a chars alphabet, or a set of
special tokens, give the same pair different ids.

>>> import bpe
>>> from bpe.presets import PRESETS
>>> explainer = PRESETS["explainer"]
>>> a = bpe.train(explainer.documents, explainer.settings)
>>> b = bpe.train(explainer.documents, explainer.settings.replace(tie="largest-text"))
>>> differing_rounds(a, b)
[1, 2, 4, 5, 6]
>>> first_difference(a, b)
'Round 1: A takes (a, l) by the smallest-ids rule, B takes (l, k) by the largest-text rule; both counted 19.'
>>> setting_differences(a.settings, b.settings)
['tie rule: smallest (A), largest-text (B)']
"""
from __future__ import annotations

from ..encoding.vocab import render
from ..options import OPTIONS, TIE
from ..settings import Settings
from ..trainers.merge import Merge
from ..trainers.training import Training

#: The settings that change which pairs there are to count, and so the counts themselves.
CUTTING = ("alphabet", "pretokenizer")


def merge_text(training: Training, merge: Merge) -> tuple[bytes, bytes]:
    """A merge as the two tokens it joins, which two trainings can compare whatever their ids."""
    vocab = training.vocab
    return vocab[merge.left], vocab[merge.right]


def shown(pair: tuple[bytes, bytes]) -> str:
    """A pair as a sentence writes it: (e, d), spaces as ␣, broken UTF-8 as escapes.

    >>> shown((b" w", b"alk")), shown((b"\\xe6", b"\\x9d"))
    ('(␣w, alk)', '(\\\\xe6, \\\\x9d)')
    """
    left, right = (render(token).replace(" ", "␣").replace("\n", "↵") for token in pair)
    return f"({left}, {right})"


def same_round(a: Training, b: Training, round: int) -> bool:
    """Whether both trainings take the same pair at `round` (from 1), or both have stopped by then."""
    ours, theirs = _merge_at(a, round), _merge_at(b, round)
    if ours is None or theirs is None:
        return ours is theirs
    return merge_text(a, ours) == merge_text(b, theirs)


def differing_rounds(a: Training, b: Training) -> list[int]:
    """Every round (from 1) at which the two take different pairs, or one has stopped and not the other."""
    last = max(len(a.merges), len(b.merges))
    return [k for k in range(1, last + 1) if not same_round(a, b, k)]


def first_difference(a: Training, b: Training) -> str:
    """The first round where the two part ways, explained in one sentence ("" when they learn the same merges)."""
    rounds = differing_rounds(a, b)
    return explain(a, b, rounds[0]) if rounds else ""


def explain(a: Training, b: Training, round: int) -> str:
    """Why A and B take different pairs at `round`: a tie broken by different rules, different counts, or a stop."""
    ours, theirs = _merge_at(a, round), _merge_at(b, round)
    if ours is None or theirs is None:
        stopped, going, merge = ("A", "B", theirs) if ours is None else ("B", "A", ours)
        training = b if ours is None else a
        return (f"Round {round}: {stopped} has stopped ({(a if ours is None else b).stopped}); "
                f"{going} takes {shown(merge_text(training, merge))}, counted {merge.count:,}.")
    start = f"Round {round}: A takes {shown(merge_text(a, ours))}"
    if ours.count == theirs.count:
        tie_a, tie_b = TIE.choose(a.settings.tie), TIE.choose(b.settings.tie)
        if tie_a != tie_b:
            return (f"{start} by the {_rule(tie_a.label)} rule, B takes {shown(merge_text(b, theirs))} "
                    f"by the {_rule(tie_b.label)} rule; both counted {ours.count:,}.")
        return (f"{start}, B takes {shown(merge_text(b, theirs))}; both counted {ours.count:,}, a tie that the "
                f"{_rule(tie_a.label)} rule orders by id, and A's and B's ids differ.")
    cut = setting_differences(a.settings, b.settings, CUTTING)
    why = f" They cut the corpus differently ({'; '.join(cut)})." if cut else ""
    return (f"{start}, counted {ours.count:,}; B takes {shown(merge_text(b, theirs))}, counted "
            f"{theirs.count:,}.{why}")


def setting_differences(a: Settings, b: Settings, fields: tuple[str, ...] | None = None) -> list[str]:
    """Each setting that differs, as 'tie rule: smallest (A), largest-text (B)' (`fields`: only those)."""
    out = []
    for name in Settings.fields:
        if (fields is None or name in fields) and getattr(a, name) != getattr(b, name):
            label = OPTIONS[name].label if name in OPTIONS else name.replace("_", " ")
            out.append(f"{label}: {_value(getattr(a, name))} (A), {_value(getattr(b, name))} (B)")
    return out


def _value(value) -> str:
    return "no limit" if value is None else str(value)


def _rule(label: str) -> str:
    return label.replace(" ", "-")


def _merge_at(training: Training, round: int) -> Merge | None:
    return training.merges[round - 1] if round <= len(training.merges) else None
