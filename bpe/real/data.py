"""The real tokenizers' rank data: the `.ranks.gz` files shipped beside this package, and tiktoken's
own rank-file format, checked against the sha256 tiktoken pins for the official file."""
from __future__ import annotations

import base64
import gzip
import hashlib
from importlib import resources

from .encoding import Encoding
from .sentencepiece import SentencePieceBPE
from .specs import NAMES, SPECS


def read_ranks(data: bytes) -> list[bytes]:
    """Tokens in rank order from a `.ranks.gz` file's bytes (gzip; each token: a length byte and
    its bytes, or for a token of 256 bytes or more or of none (Whisper's rank 50256), a 0 byte,
    a two-byte big-endian length, its bytes).

    >>> read_ranks(write_ranks([b"a", b"b" * 300]))[1] == b"b" * 300
    True
    """
    raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    tokens, i = [], 0
    while i < len(raw):
        if raw[i]:
            start, end = i + 1, i + 1 + raw[i]
        else:
            start = i + 3
            end = start + int.from_bytes(raw[i + 1:start], "big")
        tokens.append(raw[start:end])
        i = end
    if i != len(raw):
        raise ValueError("the rank data is cut short")
    return tokens


def write_ranks(tokens: list[bytes]) -> bytes:
    """The `.ranks.gz` bytes for tokens in rank order (reproducible: no timestamp)."""
    if any(len(token) >= 1 << 16 for token in tokens):
        raise ValueError("every token must be at most 65,535 bytes long")
    return gzip.compress(b"".join((bytes([len(token)]) if 0 < len(token) < 256 else b"\0" + len(token).to_bytes(2, "big"))
                                  + token for token in tokens), 9, mtime=0)


def tiktoken_file(tokens: list[bytes], specials: set[int] = frozenset()) -> bytes:
    """The same ranks in tiktoken's own format (`base64 rank` per line); `specials` are ids that
    hold a special token's name, not a rank (p50k_base's 50256, the Claude tokenizer's 0-4). The
    empty token is written `=`, as Whisper's file writes its rank 50256."""
    return b"".join((base64.b64encode(token) or b"=") + b" %d\n" % rank for rank, token in enumerate(tokens)
                    if rank not in specials)


def data_file(name: str) -> str:
    """The package-relative name of a tokenizer's data (what the site serves or bundles): its
    `.ranks.gz`, another tokenizer's where it shares that one's table, or a SentencePiece `.model.gz`.

    >>> data_file("dolma2"), data_file("mistral_v1")
    ('cl100k_base.ranks.gz', 'mistral_v1.model.gz')
    """
    spec = SPECS[name]
    if spec.get("kind") == "sentencepiece":
        return f"{name}.model.gz"
    return f"{spec.get('table', name)}.ranks.gz"


def data_files() -> list[str]:
    """Every data file the tokenizers need, each once."""
    return sorted({data_file(name) for name in NAMES})


def load(name: str = "cl100k_base", data: bytes | None = None, check: bool = False) -> Encoding:
    """A real tokenizer by name. `data` is the `.ranks.gz` file's bytes (read from this
    package when omitted, e.g. fetched by the site in Pyodide). `check` verifies them against
    the sha256 tiktoken knows for the official rank file."""
    if name not in SPECS:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(NAMES)}")
    spec = SPECS[name]
    if data is None:
        data = resources.files(__package__).joinpath(data_file(name)).read_bytes()
    if spec.get("kind") == "sentencepiece":
        return _sentencepiece(name, data, check)
    tokens = read_ranks(data)
    inside = {i for i in spec["special_tokens"].values() if i < len(tokens)}  # ids held by specials
    if len(tokens) - len(inside) != spec["n_ranks"]:
        raise ValueError(f"{name}: expected {spec['n_ranks']} ranks, the data has {len(tokens) - len(inside)}")
    if check and hashlib.sha256(tiktoken_file(tokens, inside)).hexdigest() != spec["sha256"]:
        raise ValueError(f"{name}: the rank data does not match the official rank file's sha256")
    return Encoding(name, spec["pat_str"], tokens, spec["special_tokens"], spec.get("normalize"), spec.get("rank_offset", 0))


def _sentencepiece(name: str, data: bytes, check: bool) -> SentencePieceBPE:
    model = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    if check and hashlib.sha256(model).hexdigest() != SPECS[name]["sha256"]:
        raise ValueError(f"{name}: the model file does not match its sha256")
    encoding = SentencePieceBPE.from_bytes(model, name)
    if encoding.n_vocab != SPECS[name]["n_ranks"]:
        raise ValueError(f"{name}: expected {SPECS[name]['n_ranks']} pieces, the model has {encoding.n_vocab}")
    return encoding
