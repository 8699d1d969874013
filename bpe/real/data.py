"""The real tokenizers' rank data: the `.ranks.gz` files shipped beside this package, and tiktoken's
own rank-file format, checked against the sha256 tiktoken pins for the official file."""
from __future__ import annotations

import base64
import gzip
import hashlib
from importlib import resources

from .encoding import Encoding
from .specs import NAMES, SPECS


def read_ranks(data: bytes) -> list[bytes]:
    """Tokens in rank order from a `.ranks.gz` file's bytes (gzip; each token: length byte, bytes)."""
    raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    tokens, i = [], 0
    while i < len(raw):
        end = i + 1 + raw[i]
        tokens.append(raw[i + 1:end])
        i = end
    if i != len(raw):
        raise ValueError("the rank data is cut short")
    return tokens


def write_ranks(tokens: list[bytes]) -> bytes:
    """The `.ranks.gz` bytes for tokens in rank order (reproducible: no timestamp)."""
    if any(not 0 < len(token) < 256 for token in tokens):
        raise ValueError("every token must be 1 to 255 bytes long")
    return gzip.compress(b"".join(bytes([len(token)]) + token for token in tokens), 9, mtime=0)


def tiktoken_file(tokens: list[bytes]) -> bytes:
    """The same ranks in tiktoken's own format (`base64 rank` per line)."""
    return b"".join(base64.b64encode(token) + b" %d\n" % rank for rank, token in enumerate(tokens))


def data_file(name: str) -> str:
    """The package-relative name of a tokenizer's rank data (what the site serves or bundles)."""
    return f"{name}.ranks.gz"


def load(name: str = "cl100k_base", data: bytes | None = None, check: bool = False) -> Encoding:
    """A real tokenizer by name. `data` is the `.ranks.gz` file's bytes (read from this
    package when omitted, e.g. fetched by the site in Pyodide). `check` verifies them against
    the sha256 tiktoken knows for the official rank file."""
    if name not in SPECS:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(NAMES)}")
    spec = SPECS[name]
    if data is None:
        data = resources.files(__package__).joinpath(data_file(name)).read_bytes()
    tokens = read_ranks(data)
    if len(tokens) != spec["n_ranks"]:
        raise ValueError(f"{name}: expected {spec['n_ranks']} ranks, the data has {len(tokens)}")
    if check and hashlib.sha256(tiktoken_file(tokens)).hexdigest() != spec["sha256"]:
        raise ValueError(f"{name}: the rank data does not match the official rank file's sha256")
    return Encoding(name, spec["pat_str"], tokens, spec["special_tokens"])
