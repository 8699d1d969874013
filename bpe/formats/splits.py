"""Split patterns in files: the pattern we write for each pre-tokenizer, and which of ours a
file's pattern is (or which real tokenizer's, to say so).

>>> pretokenizer_of(exported_pattern("words")), pretokenizer_of(None)
('words', 'none')
"""
from __future__ import annotations

from ..options import PRETOKENIZER
from ..text.dialect import rust_pattern
from .common import FormatError

#: tiktoken's pattern for `none`, which keeps a text whole: it matches everything, newlines included.
WHOLE = r"[\s\S]+"


def exported_pattern(pretokenizer: str) -> str | None:
    """The split pattern we write for a pre-tokenizer (None for one that keeps documents whole)."""
    pattern = PRETOKENIZER.choose(pretokenizer).pattern
    return None if pattern is None else rust_pattern(pattern(True))


#: Other spellings of GPT-2's split that mean the same as ours (up to the Unicode version).
GPT2_SPELLINGS = (
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
    r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s",
)
#: Splits of real tokenizers that none of our pre-tokenizers is.
KNOWN_SPLITS = {
    r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s": "cl100k_base",
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+": "cl100k_base",
}


def pretokenizer_of(pattern: str | None) -> str:
    """Our pre-tokenizer for a split pattern read from a file, or FormatError."""
    for rule in PRETOKENIZER:
        if rule.pattern is None and pattern in (None, WHOLE):
            return rule.name
        if rule.pattern is not None and pattern in (exported_pattern(rule.name), rule.pattern(True)):
            return rule.name
    if pattern in GPT2_SPELLINGS:
        return "gpt2"
    known = KNOWN_SPLITS.get(pattern) or ("o200k_base" if pattern.startswith(r"[^\r\n\p{L}\p{N}]?[\p{Lu}") else None)
    hint = (f" (it is {known}'s split: bpe.real encodes {known} exactly)" if known else "")
    raise FormatError(
        f"the split pattern is none of bpe's pre-tokenizers ({', '.join(PRETOKENIZER.names)}){hint}; "
        "pass --pretokenizer NAME to load the merges with that split instead (ids can then differ on some text)"
    )
