"""Real tokenizers: OpenAI's cl100k_base and o200k_base, encoded the way tiktoken encodes them.

Standard library only, so it runs in Pyodide. The rank tables ship beside this file
(`cl100k_base.ranks.gz`, `o200k_base.ranks.gz`: gzip of each token's length byte and
bytes, in rank order; README.md says where they come from and how they were checked).

>>> enc = load("cl100k_base")
>>> enc.encode("Hello world! 日本語 2024")
[9906, 1917, 0, 76502, 22656, 45918, 252, 220, 2366, 19]
>>> enc.decode([9906, 1917])
'Hello world'

Encoding is tiktoken's: cut the text with the split pattern; a chunk whose bytes are a
token is that token; otherwise merge the adjacent pair whose bytes have the lowest rank,
leftmost first, until no pair is a token. Chunks are cached.

The split patterns use Unicode classes that `re` lacks (`\\p{L}`, `\\p{N}`, and for o200k
`\\p{Lu}`, `\\p{Lt}`, `\\p{Lm}`, `\\p{Lo}`, `\\p{Ll}`, `\\p{M}`): `python_pattern` spells each
one out as code-point ranges from `unicodedata`, `\\s` as Unicode's White_Space (what the
Rust engine means by it; Python's own `\\s` also holds U+001C-U+001F) and `$` as `\\Z`.
Possessive quantifiers need Python 3.11. The classes follow the running Python's Unicode
version (14.0 in CPython 3.11, 15.0 in 3.12 and Pyodide 0.27) and tiktoken's Rust engine
its own (16.0): a character assigned in between (U+1C8A, say, or CJK Extension I) can
split differently. On 11.8 million characters of real text the ids were identical.
"""
from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import heapq
import itertools
import re
import unicodedata
from importlib import resources

from .. import unicode_classes

#: Each real tokenizer: tiktoken's split pattern and special tokens, the number of ranks,
#: and the sha256 of the rank file in tiktoken's own format (the hash tiktoken checks).
SPECS: dict[str, dict] = {
    "cl100k_base": {
        "pat_str": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        "special_tokens": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                           "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276},
        "n_ranks": 100256,
        "sha256": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    },
    "o200k_base": {
        "pat_str": "|".join([
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]),
        "special_tokens": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
        "n_ranks": 199998,
        "sha256": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    },
}
NAMES = tuple(SPECS)

WHITE_SPACE = unicode_classes.WHITE_SPACE  # Rust's `\s`
#: Distinct chunks remembered before the cache starts over.
CACHE_LIMIT = 200_000


# --------------------------------------------------------------------------- patterns

@functools.cache
def _letter_categories() -> dict[str, str]:
    """Class bodies for Lu, Ll, Lt, Lm and Lo, from `unicodedata`.

    Only the code points of `\\p{L}` (already built by unicode_classes) are looked at, not
    all 1.1 million: an eighth of the work, which matters in Pyodide."""
    bodies: dict[str, list[str]] = {}
    for first, last in re.findall(r"\\U([0-9a-f]{8})(?:-\\U([0-9a-f]{8}))?", unicode_classes.letters()):
        start, stop = int(first, 16), int(last or first, 16) + 1
        for category, run in itertools.groupby(map(unicodedata.category, map(chr, range(start, stop)))):
            end = start + sum(1 for _ in run)
            low = f"\\U{start:08x}"
            bodies.setdefault(category, []).append(low if end - start == 1 else f"{low}-\\U{end - 1:08x}")
            start = end
    return {category: "".join(parts) for category, parts in bodies.items()}


def _property(name: str) -> str:
    """The class body for `\\p{name}`."""
    if name == "L":
        return unicode_classes.letters()
    if name == "N":
        return unicode_classes.numbers()
    if name == "M":
        return unicode_classes.marks()
    if name in ("Lu", "Ll", "Lt", "Lm", "Lo"):
        return _letter_categories().get(name, "")
    raise ValueError(f"no Unicode class for \\p{{{name}}}")


_TOKEN = re.compile(r"\\p\{(\w+)\}|\\[sS]|\\.|\[\^?|\]|\$|.", re.DOTALL)


@functools.cache
def python_pattern(pat_str: str) -> str:
    """A tiktoken split pattern (fancy-regex) in Python's `re` dialect: same matches."""
    out, in_class = [], False
    for token in _TOKEN.finditer(pat_str):
        text, name = token.group(), token.group(1)
        if name:
            out.append(_property(name) if in_class else f"[{_property(name)}]")
        elif text == r"\s":
            out.append(WHITE_SPACE if in_class else f"[{WHITE_SPACE}]")
        elif text == r"\S":
            if in_class:
                raise ValueError(r"\S inside a class is not supported")
            out.append(f"[^{WHITE_SPACE}]")
        elif text.startswith("[") and not in_class:
            in_class = True
            out.append(text)
        elif text == "]" and in_class:
            in_class = False
            out.append(text)
        elif text == "$" and not in_class:
            out.append(r"\Z")  # Rust's $ is the end of the text; Python's also matches before a final \n
        else:
            out.append(text)
    return "".join(out)


# --------------------------------------------------------------------------- encoding

#: Pieces up to this long are merged by rescanning a list (quicker for short ones); longer ones
#: through a heap, so that one long chunk (a pasted run of letters) costs n log n, not n².
SHORT_PIECE = 64


def byte_pair_merge(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """tiktoken's merge of one chunk: join the adjacent pair whose bytes have the lowest
    rank (leftmost on a tie) until no adjacent pair is a token; return the parts' ranks.

    >>> byte_pair_merge(b"abcd", {b"a": 0, b"b": 1, b"c": 2, b"d": 3, b"cd": 4, b"bcd": 5, b"ab": 6})
    [0, 5]
    """
    if len(piece) <= SHORT_PIECE:
        return _merge_by_rescan(piece, ranks)
    return _merge_by_heap(piece, ranks)


def _merge_by_rescan(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    starts = list(range(len(piece) + 1))  # part i is piece[starts[i]:starts[i + 1]]
    none = 1 << 62  # no such token
    get = ranks.get
    pair_rank = [get(piece[i:i + 2], none) for i in range(len(piece) - 1)]  # of parts i and i+1
    while pair_rank:
        best = min(pair_rank)
        if best == none:
            break
        i = pair_rank.index(best)
        del starts[i + 1], pair_rank[i]
        if i < len(pair_rank):
            pair_rank[i] = get(piece[starts[i]:starts[i + 2]], none)
        if i:
            pair_rank[i - 1] = get(piece[starts[i - 1]:starts[i + 1]], none)
    return [ranks[piece[a:b]] for a, b in zip(starts, starts[1:])]


def _merge_by_heap(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """The same rule in n log n. Parts form a linked list by start offset (`after[i]` is the
    start of the part after the one at i, -1 once that part has been absorbed). The heap holds
    `rank << 32 | start` for every adjacent pair (lowest rank, then leftmost, pops first);
    an entry whose pair has since changed is dropped when popped (its bytes, so its rank, differ)."""
    n, get, push, pop = len(piece), ranks.get, heapq.heappush, heapq.heappop
    after, before = list(range(1, n + 1)), list(range(-1, n - 1))
    heap = [rank << 32 | i for i, rank in enumerate(map(get, (piece[i:i + 2] for i in range(n - 1))))
            if rank is not None]
    heapq.heapify(heap)
    while heap:
        key = pop(heap)
        i = key & 0xFFFFFFFF
        j = after[i]
        if j < 0 or j >= n or get(piece[i:after[j]]) != key >> 32:
            continue
        k = after[j]
        after[i], after[j] = k, -1
        if k < n:
            before[k] = i
            rank = get(piece[i:after[k]])
            if rank is not None:
                push(heap, rank << 32 | i)
        h = before[i]
        if h >= 0:
            rank = get(piece[h:k])
            if rank is not None:
                push(heap, rank << 32 | h)
    parts, i = [], 0
    while i < n:
        parts.append(ranks[piece[i:after[i]]])
        i = after[i]
    return parts


class Encoding:
    """A tiktoken-style tokenizer: ranks (token bytes -> id), a split pattern, specials."""

    def __init__(self, name: str, pat_str: str, tokens: list[bytes], special_tokens: dict[str, int]):
        self.name = name
        self.pat_str = pat_str
        self.tokens = tokens  # id -> bytes; ranks are 0..len-1
        self.ranks = {token: rank for rank, token in enumerate(tokens)}
        if len(self.ranks) != len(tokens):
            raise ValueError("two ranks have the same bytes")
        self.special_tokens = dict(special_tokens)
        self._special_bytes = {i: text.encode() for text, i in special_tokens.items()}
        self.pattern = re.compile(python_pattern(pat_str))
        self._split = self.pattern.findall if self.pattern.groups == 0 else (
            lambda text: [m.group() for m in self.pattern.finditer(text)])
        self._cache: dict[str, tuple[int, ...]] = {}

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}: {len(self.tokens)} ranks, {len(self.special_tokens)} specials>"

    @property
    def n_vocab(self) -> int:
        return max([len(self.tokens) - 1, *self.special_tokens.values()]) + 1

    def split(self, text: str) -> list[str]:
        """The chunks the split pattern cuts `text` into (merges never cross them)."""
        return self._split(_clean(text))

    def _chunk(self, chunk: str) -> tuple[int, ...]:
        ids = self._cache.get(chunk)
        if ids is None:
            if len(self._cache) > CACHE_LIMIT:
                self._cache.clear()
            piece = chunk.encode("utf-8")
            rank = self.ranks.get(piece)
            ids = self._cache[chunk] = (rank,) if rank is not None else tuple(byte_pair_merge(piece, self.ranks))
        return ids

    def encode_chunks(self, text: str) -> list[tuple[int, ...]]:
        """Each chunk's token ids."""
        return [self._chunk(chunk) for chunk in self.split(text)]

    def encode_ordinary(self, text: str) -> list[int]:
        """Token ids, special tokens' text encoded as plain text (tiktoken's encode_ordinary)."""
        chunk, out = self._chunk, []
        for piece in self.split(text):
            out.extend(chunk(piece))
        return out

    def encode(self, text: str, allowed_special: set[str] | str = frozenset()) -> list[int]:
        """Token ids. Special tokens named in `allowed_special` ("all" for every one) are
        matched in the text; any other special token's text is plain text. (tiktoken's
        `encode` raises on a special token it was not allowed; this encodes it as text.)"""
        allowed = set(self.special_tokens) if allowed_special == "all" else set(allowed_special)
        if not allowed:
            return self.encode_ordinary(text)
        out = []
        alternatives = "|".join(map(re.escape, sorted(allowed, key=len, reverse=True)))
        for i, part in enumerate(re.split(f"({alternatives})", text)):
            out.extend([self.special_tokens[part]] if i % 2 else self.encode_ordinary(part))
        return out

    def token_bytes(self, token_id: int) -> bytes:
        if 0 <= token_id < len(self.tokens):
            return self.tokens[token_id]
        if token_id in self._special_bytes:
            return self._special_bytes[token_id]
        raise ValueError(f"{token_id!r} is not a token id of {self.name}")

    def decode_bytes(self, ids) -> bytes:
        return b"".join(map(self.token_bytes, ids))

    def decode(self, ids, errors: str = "replace") -> str:
        return self.decode_bytes(ids).decode("utf-8", errors)

    def pieces(self, text: str) -> list[tuple[int, str]]:
        """(id, text) for each token; bytes that are not UTF-8 on their own are written \\xNN."""
        return [(i, self.tokens[i].decode("utf-8", "backslashreplace")) for i in self.encode_ordinary(text)]


def _clean(text: str) -> str:
    """tiktoken's handling of lone surrogates, which UTF-8 cannot hold: each becomes U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


# --------------------------------------------------------------------------- data

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
