"""One passage in seven languages and six scripts, and what each tokenizer charges for it: the
same text costs more tokens in a script its vocabulary saw little of (the explainer's point about
Devanagari and Thai, octlm's about Japanese), here measured.

The passage is the first paragraph of "What is Debian?" in the Debian Installation Guide, in
each translation Debian ships (bpe/corpora/what-is-debian.<code>.txt; benchmarks/language_passages.py
makes them).

>>> rows = cost({"bytes": lambda text: list(text.encode("utf-8"))})
>>> rows[0].language, rows[0].costs["bytes"].ratio
('English (Latin)', 1.0)
>>> japanese = next(row for row in rows if row.code == "ja")
>>> japanese.costs["bytes"].per_character > 2  # three bytes to a kana or kanji, one to the Latin "Debian"
True
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence

from ..presets import corpus

#: Code (as the guide names its translations) -> the language and its script.
LANGUAGES = {"en": "English (Latin)", "ja": "Japanese (kana and kanji)", "zh_CN": "Chinese (Han)",
             "ko": "Korean (Hangul)", "ru": "Russian (Cyrillic)", "el": "Greek (Greek)",
             "vi": "Vietnamese (Latin with diacritics)"}


@functools.cache
def passages() -> dict[str, str]:
    """Code -> the passage in that language."""
    return {code: corpus(f"what-is-debian.{code}.txt").strip() for code in LANGUAGES}


@dataclasses.dataclass(frozen=True)
class Cost:
    tokens: int | None  # None: the tokenizer cannot encode it (a chars alphabet without its characters)
    characters: int
    english_tokens: int | None

    @property
    def per_character(self) -> float | None:
        return self.tokens / self.characters if self.tokens is not None else None

    @property
    def ratio(self) -> float | None:
        """Tokens for this passage ÷ tokens for the English one: what saying the same costs."""
        if self.tokens is None or not self.english_tokens:
            return None
        return self.tokens / self.english_tokens


@dataclasses.dataclass(frozen=True)
class Row:
    code: str
    language: str
    characters: int
    costs: dict[str, Cost]


def cost(encoders: dict[str, Callable[[str], Sequence]], codes: Sequence[str] = tuple(LANGUAGES)) -> list[Row]:
    """One row per language: each encoder's tokens, tokens per character and ratio to English.
    An encoder's id None (an unknown character) counts as a token; one that raises ValueError gives None."""
    return table({name: counts(encode, codes) for name, encode in encoders.items()}, codes)


def counts(encode: Callable[[str], Sequence], codes: Sequence[str] = tuple(LANGUAGES)) -> dict[str, int | None]:
    """Code -> how many tokens `encode` makes of that passage (None: it cannot encode it)."""
    return {code: _count(encode, passages()[code]) for code in codes}


def table(counted: dict[str, dict[str, int | None]], codes: Sequence[str] = tuple(LANGUAGES)) -> list[Row]:
    """`cost`'s rows from counts already made (name -> `counts`)."""
    texts = passages()
    return [Row(code, LANGUAGES[code], len(texts[code]),
                {name: Cost(by_code[code], len(texts[code]), by_code.get("en")) for name, by_code in counted.items()})
            for code in codes]


def _count(encode: Callable[[str], Sequence], text: str) -> int | None:
    try:
        return len(encode(text))
    except ValueError:
        return None
