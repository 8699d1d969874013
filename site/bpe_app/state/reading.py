"""What the person is looking at: the selected round, the encoder's text and its stepper, the
decode box, the inspected token and the vocabulary table's query, order and page.

>>> from .app_state import AppState
>>> state = AppState(preset="course")
>>> state.step(5); state.round
2
"""
from __future__ import annotations

import param

from bpe.explain.vocabulary import COLUMNS

from .comparison import COMPARISONS


class Reading(param.Parameterized):
    round = param.Integer(default=0, bounds=(0, None), doc="The selected round: merges applied so far.")
    playing = param.Boolean(default=False, doc="True while the rounds play by themselves (▶).")
    encode_text = param.String(default="walkable", doc="The text the encoder shows.")
    decode_ids = param.String(default="", doc="""
        The ids the decode box shows, as typed: always ids that parse (the box keeps a bad entry
        to itself, with its message, and this stays as it was).""")
    inspected = param.Tuple(default=None, length=2, allow_None=True, doc="""
        The token the inspector shows, as (vocabulary, id): "" for this tokenizer's vocabulary,
        or the name of a real tokenizer; None while the inspector is closed.""")
    encode_step = param.Integer(default=0, bounds=(0, None), doc="The step the encoder's stepper shows (0: base units).")
    stepping = param.Boolean(default=False, doc="True while the stepper plays by itself.")
    specials_in_text = param.Boolean(default=False, doc="""
        Whether a real tokenizer's special token written in the encoder's text is encoded as that
        special (tiktoken's allowed_special="all"), or as plain text with a note saying so.""")
    piece_step = param.Integer(default=0, bounds=(0, None), doc="""
        The join the SentencePiece stepper shows (0: the characters), when one is compared with.""")

    vocab_query = param.String(default="", doc="The vocabulary table shows tokens whose text holds this.")
    vocab_sort = param.Selector(default="id", objects=list(COLUMNS), doc="The column the vocabulary table sorts by.")
    vocab_descending = param.Boolean(default=False, doc="Largest first.")
    vocab_page = param.Integer(default=0, bounds=(0, None), doc="The page of the vocabulary table shown, from 0.")
    vocab_source = param.Selector(default="", objects=[*COMPARISONS.values(), "b"], doc="""
        The vocabulary the table shows: "" for this tokenizer's at the selected round, "b" for B's,
        or a real tokenizer's (choosing one also compares the encoder's text with it, which loads it).""")

    def step(self, delta: int) -> None:
        """Move the selected round by `delta`, staying within 0 and the last round."""
        self.round = min(max(self.round + delta, 0), self.rounds)


    def play(self, playing: bool) -> None:
        """Start or stop playing; ▶ at the last round plays again from round 0.

        >>> from .app_state import AppState
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

        >>> from .app_state import AppState
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


    def step_encoding(self, delta: int, last: int) -> None:
        """Move the stepper by `delta`, within 0 and `last`; playing stops at the end."""
        self.encode_step = min(max(self.encode_step + delta, 0), last)
        if self.encode_step >= last:
            self.stepping = False


    def sort_vocabulary(self, column: str) -> None:
        """Sort the vocabulary table by `column`; the same column again reverses the order.

        >>> from .app_state import AppState
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


    @param.depends("vocab_source", watch=True)
    def _compare_with_source(self) -> None:
        if self.vocab_source and self.vocab_source != "b":
            self.compare = self.vocab_source

