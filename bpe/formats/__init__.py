"""Other libraries' tokenizer formats: Hugging Face `tokenizer.json` and tiktoken rank files.

Export writes what `tokenizers.Tokenizer.from_file` and `tiktoken.Encoding` load, with
our ids unchanged: a token's id in the file is its id here. Import reads byte-level BPE
files back into our tokenizer file. Which formats there are is `options.FORMAT`; each
is one module here with `export(tokenizer, path, name)` and `load(path, pretokenizer)`:

- `hf.py`, `tiktoken.py`: the two formats;
- `byte_level.py`: GPT-2's byte-to-character names;
- `splits.py`: the split pattern written for each pre-tokenizer, and read back;
- `common.py`: the error, the imported tokenizer, and the checks both formats share.

Patterns are translated into the Rust engines' dialect by `bpe.text.dialect`.

>>> import bpe
>>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
>>> hf = to_hf(t.tokenizer)
>>> hf["model"]["merges"][:2], hf["model"]["vocab"]["Ġlow"]
([['l', 'o'], ['lo', 'w']], 258)
>>> ranks, args = to_tiktoken(t.tokenizer)
>>> ranks.splitlines()[256:258], args["pat_str"] == f" ?[^{space()}]+|[{space()}]+"
(['bG8= 256', 'bG93 257'], True)
"""
from __future__ import annotations

from ..options import FORMAT
from ..text.dialect import rust_pattern, space
from .byte_level import byte_level_bytes, byte_level_name, byte_to_char, char_to_byte
from .common import FormatError, Imported
from .hf import from_hf, to_hf, to_hf_json
from .splits import WHOLE, exported_pattern, pretokenizer_of
from .tiktoken import from_tiktoken, tiktoken_mismatches, tiktoken_split, to_tiktoken

FORMATS = FORMAT.names

__all__ = ["FORMATS", "WHOLE", "FormatError", "Imported", "byte_level_bytes", "byte_level_name", "byte_to_char",
           "char_to_byte", "exported_pattern", "from_hf", "from_tiktoken", "pretokenizer_of", "rust_pattern", "space",
           "tiktoken_mismatches", "tiktoken_split", "to_hf", "to_hf_json", "to_tiktoken"]
