"""A tokenizer file given as bytes (the page's upload), told apart by its contents and read as
`bpe import` reads it:

- a Hugging Face `tokenizer.json` (a JSON object with a "model"), split by its own pattern;
- the zip that the page's tiktoken download makes: the rank file and its arguments (pat_str);
- a bare tiktoken rank file (lines of `base64 rank`), which holds no pattern: it is split by
  the pre-tokenizer given.

Anything else, or a tokenizer bpe cannot express (another pattern, a normalizer, WordPiece),
is refused with FormatError, whose message says why.

>>> import bpe
>>> from bpe.formats import to_hf_json
>>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
>>> read(to_hf_json(t.tokenizer).encode(), "tokenizer.json").saved.tokenizer.merges == t.tokenizer.merges
True
>>> read(b"not a tokenizer", "notes.txt", "gpt2")
Traceback (most recent call last):
...
bpe.formats.common.FormatError: notes.txt: line 1 of the rank file is not `base64-token rank`: 'not a tokenizer'
"""
from __future__ import annotations

import io
import zipfile
import zlib

from ..io import textio
from .common import FormatError, Imported
from .hf import from_hf
from .tiktoken import ARGS_FILE, RANKS_FILE, from_tiktoken

#: The largest tokenizer file read: o200k_base's tokenizer.json is about 7 MB.
MAX_BYTES = 20 << 20
#: A zip member read at most (the rank file of a 200,000-token vocabulary is about 3 MB).
MAX_MEMBER_BYTES = 64 << 20


def read(data: bytes, name: str, pretokenizer: str | None = None) -> Imported:
    """The tokenizer in `data` (the file called `name`); `pretokenizer` splits a bare rank file."""
    if len(data) > MAX_BYTES:
        raise FormatError(f"{name} is {textio.size_words(len(data))}; a tokenizer file may be at most "
                          f"{textio.size_words(MAX_BYTES)}")
    if not data.strip():
        raise FormatError(f"{name} is empty")
    try:
        if data.startswith(b"PK\x03\x04"):
            return _from_zip(data, name)
        text = textio.decode(data, name)
        if text.lstrip().startswith("{"):
            return from_hf(textio.parse_json(text, name))
        if pretokenizer is None:
            raise FormatError(f"{name} looks like a tiktoken rank file, which holds no split pattern: "
                              "choose the pre-tokenizer that splits it")
        return from_tiktoken(text, None, pretokenizer)
    except FormatError as error:
        raise FormatError(str(error) if str(error).startswith(name) else f"{name}: {error}") from None


def _from_zip(data: bytes, name: str) -> Imported:
    """The rank file and its arguments from the zip the page's tiktoken download makes."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = {info.filename.rsplit("/", 1)[-1]: info for info in archive.infolist()}
        if RANKS_FILE not in members or ARGS_FILE not in members:
            raise FormatError(f"the zip holds no {RANKS_FILE} with its {ARGS_FILE}, as this page's tiktoken download does")
        texts = {}
        for member in (RANKS_FILE, ARGS_FILE):
            if members[member].file_size > MAX_MEMBER_BYTES:
                raise FormatError(f"{member} in the zip is over {textio.size_words(MAX_MEMBER_BYTES)}")
            texts[member] = textio.decode(archive.read(members[member]), member)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, RuntimeError, zlib.error) as error:
        raise FormatError(f"the zip cannot be read ({error})") from None  # damaged, encrypted, an unknown compression
    return from_tiktoken(texts[RANKS_FILE], textio.parse_json(texts[ARGS_FILE], ARGS_FILE))
