"""Training B: a second configuration trained on the same corpus, shown beside A to compare.

>>> from .app_state import AppState
>>> state = AppState(preset="explainer")
>>> state.compare_with_b(True)
>>> state.rounds_b > 0, state.b_tie
(True, 'largest-text')
"""
from __future__ import annotations

import param

import bpe

from .inputs import B, B_INPUTS, SETTING_INPUTS, as_b
from .side_a import setting_parameters

#: The inputs whose change retrains B (while there is a B).
B_TRAINING_INPUTS = ("corpus_text", "split", "compare_b", *B_INPUTS)


def _for_b(declared: param.Parameter) -> param.Parameter:
    """One of A's setting inputs, declared anew for B (a parameter belongs to one class)."""
    declared.doc = f"B's {declared.doc[:1].lower()}{declared.doc[1:]}" if declared.doc else "B's."
    return declared


class SideB(param.Parameterized):
    compare_b = param.Boolean(default=False, doc="""
        Whether a second configuration, B, is trained on the same corpus, to be shown beside this one, A.""")
    b_alphabet, b_pretokenizer, b_tie, b_specials, b_min_frequency, b_budget, b_budget_size = map(
        _for_b, setting_parameters())
    training_b = param.ClassSelector(class_=bpe.Training, allow_None=True, doc="""
        B's last training that succeeded; None while there is no B.""")

    def compare_with_b(self, on: bool) -> None:
        """Show B beside A, or stop. B starts from A's settings as they are now, changed as the
        preset suggests (the explainer's other tie rule), so it compares what is on screen.

        >>> from .app_state import AppState
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


    def _retrain_b(self, *events) -> None:
        """Train B on the corpus and B's inputs, while there is a B."""
        if self.compare_b:
            self._start(B)
        else:
            self._trained_on[B] = None
            self.training_b = None


    @property
    def rounds_b(self) -> int:
        """How many merges B learned (0 while there is no B)."""
        return len(self.training_b.merges) if self.training_b is not None else 0

