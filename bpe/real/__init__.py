"""Real tokenizers: OpenAI's cl100k_base, o200k_base, r50k_base and p50k_base, Anthropic's
tokenizer for the models before Claude 3, Mistral's Tekken, Whisper's and OLMo 2's, encoded the
way tiktoken encodes them; and Mistral 7B's SentencePiece models (v0.1, v0.3), encoded the way sentencepiece does.

Standard library only, so it runs in Pyodide. The rank tables ship beside this file
(`cl100k_base.ranks.gz`, `o200k_base.ranks.gz`: gzip of each token's length byte and
bytes, in rank order; README.md says where they come from and how they were checked).

>>> enc = load("cl100k_base")
>>> enc.encode("Hello world! 日本語 2024")
[9906, 1917, 0, 76502, 22656, 45918, 252, 220, 2366, 19]
>>> enc.decode([9906, 1917])
'Hello world'

- `specs.py`: each tokenizer's split pattern, specials and official sha256;
- `data.py`: the shipped rank tables, and `load`;
- `encoding.py`: `Encoding`, tiktoken's encoding (split, then `merge.py`'s rule per chunk);
- `merge.py`: tiktoken's merge rule, shared with the tiktoken format;
- `sentencepiece.py`, `protobuf.py`: SentencePiece's BPE, and the little of protobuf its `.model` file needs.

The split patterns use Unicode classes that `re` lacks (`\\p{L}`, `\\p{N}`, and for o200k
`\\p{Lu}`, `\\p{Lt}`, `\\p{Lm}`, `\\p{Lo}`, `\\p{Ll}`, `\\p{M}`): `dialect.python_pattern` spells
each one out as code-point ranges from `unicodedata`, `\\s` as Unicode's White_Space (what the
Rust engine means by it; Python's own `\\s` also holds U+001C-U+001F) and `$` as `\\Z`.
Possessive quantifiers need Python 3.11. The classes follow the running Python's Unicode
version (14.0 in CPython 3.11, 15.0 in 3.12 and Pyodide 0.27) and tiktoken's Rust engine
its own (16.0): a character assigned in between (U+1C8A, say, or CJK Extension I) can
split differently. On 11.8 million characters of real text the ids were identical.
"""
from __future__ import annotations

from ..encoding.ranks import byte_pair_merge
from ..encoding.specials import DisallowedSpecial
from ..text.dialect import python_pattern
from .data import data_file, data_files, load, read_ranks, tiktoken_file, write_ranks
from .encoding import Encoding
from .sentencepiece import ModelError, SentencePieceBPE
from .specs import CONTEXTS, LABELS, NAMES, SPECS, TIKTOKEN_NAMES

__all__ = ["CONTEXTS", "LABELS", "NAMES", "SPECS", "TIKTOKEN_NAMES", "DisallowedSpecial", "Encoding", "ModelError", "SentencePieceBPE", "byte_pair_merge", "data_file", "data_files", "load", "python_pattern", "read_ranks",
           "tiktoken_file", "write_ranks"]
