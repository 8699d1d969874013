"""Training settings: every choice the published BPE systems disagree on, named.

>>> Settings(alphabet="bytes", pretokenizer="kinds", specials="octlm").first_merge_id(256)
261
>>> Settings(vocab_size=300).max_merges(base_size=256)
44
"""
from __future__ import annotations

import dataclasses

from .errors import UserInputError
from .pretokenize import PRETOKENIZERS

ALPHABETS = ("bytes", "chars")
#: smallest: smallest (left id, right id) wins a tie (octlm, the course, the explainer).
#: largest-text: largest (left text, right text) wins, as `max(pairs, key=lambda p: (pairs[p], p))`
#: in the from-scratch text.
TIES = ("smallest", "largest-text")
SPECIALS = {
    "none": (),
    # octlm reserves five ids after the bytes; <|eos|> is 258 and two are kept for tool use,
    # so that their ids never move. The seed names only <|eos|>; the other names are ours.
    "octlm": ("<|pad|>", "<|bos|>", "<|eos|>", "<|tool_call|>", "<|tool_result|>"),
}
#: Token ids are stored as code points internally (see `sequence.py`), so this is the ceiling.
MAX_VOCAB = 0x10FFFF


class SettingsError(UserInputError):
    """A setting, or a combination of settings, that cannot work. The message names the option."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """How to train. `merges` and `vocab_size` are two ways to give the budget (an upper bound)."""

    alphabet: str = "bytes"
    pretokenizer: str = "kinds"
    tie: str = "smallest"
    min_frequency: int = 2
    merges: int | None = None
    vocab_size: int | None = None
    specials: str = "none"

    def __post_init__(self) -> None:
        _choose("alphabet", self.alphabet, ALPHABETS)
        _choose("pretokenizer", self.pretokenizer, PRETOKENIZERS)
        _choose("tie", self.tie, TIES)
        _choose("specials", self.specials, tuple(SPECIALS))
        if type(self.min_frequency) is not int or self.min_frequency < 1:
            raise SettingsError(f"--min-frequency must be a whole number of at least 1, not {self.min_frequency!r}")
        if self.merges is not None and self.vocab_size is not None:
            raise SettingsError("give either --merges or --vocab-size, not both")
        for name, value in (("merges", self.merges), ("vocab-size", self.vocab_size)):
            if value is not None and (type(value) is not int or not 0 <= value <= MAX_VOCAB):
                raise SettingsError(f"--{name} must be a whole number from 0 to {MAX_VOCAB}, not {value!r}")
        if self.specials == "octlm" and self.alphabet != "bytes":
            raise SettingsError("--specials octlm reserves ids 256-260 after the 256 bytes, so it needs --alphabet bytes")

    @property
    def special_tokens(self) -> tuple[str, ...]:
        return SPECIALS[self.specials]

    def first_merge_id(self, alphabet_size: int) -> int:
        """The id of the first merge: after the base alphabet and the specials."""
        return alphabet_size + len(self.special_tokens)

    def max_merges(self, base_size: int) -> int:
        """How many merges the budget allows, given the base vocabulary (alphabet + specials)."""
        if self.vocab_size is not None:
            if self.vocab_size < base_size:
                raise SettingsError(
                    f"--vocab-size {self.vocab_size} is below the base vocabulary of {base_size} entries"
                )
            return self.vocab_size - base_size
        if self.merges is not None:
            return min(self.merges, MAX_VOCAB - base_size)
        return MAX_VOCAB - base_size

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def replace(self, **changes) -> "Settings":
        return dataclasses.replace(self, **changes)


def _choose(option: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise SettingsError(f"--{option} must be one of {', '.join(choices)}, not {value!r}")
