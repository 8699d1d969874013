"""Small helpers that keep the page's sentences grammatical.

>>> plural(1, "merge"), plural(6, "merge"), plural(2, "pair", "pairs")
('1 merge', '6 merges', '2 pairs')
"""
from __future__ import annotations


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else words or word + 's'}"
