"""Training settings: every choice the published BPE systems disagree on, named.

The options and their values are `options.py`'s; a Settings holds each value's name
(what files and links write) and gives back the value itself.

>>> Settings(alphabet="bytes", pretokenizer="kinds", specials="octlm").first_merge_id(256)
261
>>> Settings(vocab_size=300).max_merges(base_size=256)
44
>>> Settings(tie="largest-text").tie_rule.used_by
'the from-scratch text'
"""
from __future__ import annotations

from .errors import SettingsError
from .options import ALPHABET, PRETOKENIZER, SPECIALS as SPECIAL_SETS, TIE, AlphabetKind, SpecialSet, TieRule
from .record import Record

__all__ = ["ALPHABETS", "MAX_VOCAB", "SPECIALS", "TIES", "Settings", "SettingsError"]

ALPHABETS = ALPHABET.names
TIES = TIE.names
#: Each specials setting's reserved tokens, by name.
SPECIALS = {value.name: value.tokens for value in SPECIAL_SETS}
#: Token ids are stored as code points internally (see `sequence.py`), so this is the ceiling.
MAX_VOCAB = 0x10FFFF


class Settings(Record):
    """How to train. `merges` and `vocab_size` are two ways to give the budget (an upper bound)."""

    alphabet: str = "bytes"
    pretokenizer: str = "kinds"
    tie: str = "smallest"
    min_frequency: int = 2
    merges: int | None = None
    vocab_size: int | None = None
    specials: str = "none"

    def __post_init__(self) -> None:
        ALPHABET.choose(self.alphabet)
        PRETOKENIZER.choose(self.pretokenizer)
        TIE.choose(self.tie)
        needs = SPECIAL_SETS.choose(self.specials).needs
        if type(self.min_frequency) is not int or self.min_frequency < 1:
            raise SettingsError("min_frequency", f"{{option}} must be a whole number of at least 1, "
                                                 f"not {SettingsError.shown(self.min_frequency)}")
        if self.merges is not None and self.vocab_size is not None:
            raise SettingsError("merges", "give either {option} or {0}, not both", "vocab_size")
        for field in ("merges", "vocab_size"):
            value = getattr(self, field)
            if value is not None and (type(value) is not int or not 0 <= value <= MAX_VOCAB):
                raise SettingsError(field, f"{{option}} must be a whole number from 0 to {MAX_VOCAB}, not {SettingsError.shown(value)}")
        if needs and self.alphabet != needs:
            last = 255 + len(SPECIAL_SETS.choose(self.specials).tokens)
            raise SettingsError("specials", f"{{option}} {self.specials} reserves ids 256-{last} after the 256 bytes, "
                                            f"so it needs {{0}} {needs}", "alphabet")

    @property
    def alphabet_kind(self) -> AlphabetKind:
        return ALPHABET.choose(self.alphabet)

    @property
    def tie_rule(self) -> TieRule:
        return TIE.choose(self.tie)

    @property
    def special_set(self) -> SpecialSet:
        return SPECIAL_SETS.choose(self.specials)

    @property
    def special_tokens(self) -> tuple[str, ...]:
        return self.special_set.tokens

    def first_merge_id(self, alphabet_size: int) -> int:
        """The id of the first merge: after the base alphabet and the specials."""
        return alphabet_size + len(self.special_tokens)

    def max_merges(self, base_size: int) -> int:
        """How many merges the budget allows, given the base vocabulary (alphabet + specials)."""
        if self.vocab_size is not None:
            if self.vocab_size < base_size:
                raise SettingsError("vocab_size", f"{{option}} {self.vocab_size} is below the base vocabulary "
                                                  f"of {base_size} entries")
            return self.vocab_size - base_size
        if self.merges is not None:
            return min(self.merges, MAX_VOCAB - base_size)
        return MAX_VOCAB - base_size

    def to_dict(self) -> dict:
        return self.as_dict()
