"""The round's caption: what the selected round merged, and why training stopped."""
from __future__ import annotations

from ..trainers.training import Training
from ..trainers.merge import Merge

from .chips import token_chip
from .wording import plural


def merge_counts(merge: Merge) -> str:
    """How often a merge's pair was counted and replaced, in words; both when overlaps make them differ.

    >>> merge_counts(Merge(0, 97, 97, 256, 2, 1, 1)), merge_counts(Merge(0, 97, 108, 256, 1, 1, 1))
    ('2 candidates, 1 replaced', '1 time')
    """
    if merge.count == merge.replacements:
        return plural(merge.count, "time")
    return f"{plural(merge.count, 'candidate')}, {merge.replacements} replaced"


def round_caption(training: Training, rounds: int) -> str:
    """What the selected round did, in one line, and why training ended."""
    total = len(training.merges)
    if rounds:
        merge, vocab = training.merges[rounds - 1], training.vocab
        did = (f"{token_chip(merge.left, vocab[merge.left])} + {token_chip(merge.right, vocab[merge.right])} → "
               f"{token_chip(merge.id, vocab[merge.id], new=True)} <span class='bpe-muted'>({merge_counts(merge)})</span>")
    else:
        unit = "bytes" if training.settings.alphabet_kind.byte_level else "characters"
        did = f"no merges yet, every token is one of the {unit}"
    return (f'<div class="bpe-caption"><b>Round {rounds} of {total}</b>: {did}'
            f'<div class="bpe-muted">Training stopped after {plural(total, "merge")}: {training.stopped}. '
            "Keys ← and → step through the rounds.</div></div>")
