"""Other libraries' tokenizer formats: Hugging Face `tokenizer.json` and tiktoken rank files.

Export writes what `tokenizers.Tokenizer.from_file` and `tiktoken.Encoding` load, with
our ids unchanged: a token's id in the file is its id here. Import reads byte-level BPE
files back into our tokenizer file.

- HF: the model is BPE; under the `bytes` alphabet tokens are named the way byte-level
  BPE files name them (GPT-2's byte-to-character map), and the pre-tokenizer is a
  `Split` with our pattern, then `ByteLevel(use_regex=False)`. A `chars` alphabet is
  written as plain characters. Specials are in the vocabulary at their ids but are not
  `added_tokens`: tokenizers matches an added token's text inside any text, and octlm's
  `<|eos|>` written in a text is ordinary bytes, never id 258.
- tiktoken: `base64(token bytes) rank` per line, rank = our id, and beside it the other
  arguments of `tiktoken.Encoding` (name, pat_str, special_tokens) as JSON.

Patterns are translated from Python's `re` into the dialect both Rust engines read
(Oniguruma in `tokenizers`, fancy-regex in tiktoken): every class is spelled out code
point by code point, `\\s` included, because Python's `\\s` (`str.isspace`) also holds
U+001C-U+001F, which the Rust engines' `\\s` does not.

What a format cannot say raises FormatError (the CLI exits 2 with its message):
a `chars` alphabet in tiktoken, two merges that make the same bytes, and, for tiktoken,
a merge table whose result differs under tiktoken's rule (merge the adjacent pair whose
concatenation has the lowest rank) from ours (apply merges in rank order).

>>> import bpe
>>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
>>> hf = to_hf(t.tokenizer)
>>> hf["model"]["merges"][:2], hf["model"]["vocab"]["Ġlow"]
([['l', 'o'], ['lo', 'w']], 258)
>>> ranks, args = to_tiktoken(t.tokenizer)
>>> ranks.splitlines()[256:258], args["pat_str"] == f" ?[^{space()}]+|[{space()}]+"
(['bG8= 256', 'bG93 257'], True)
>>> print(space()[:24])
\\x{9}-\\x{d}\\x{1c}-\\x{20}
"""
from __future__ import annotations

import base64
import functools
import json
import re

from .alphabet import Alphabet
from .errors import UserInputError
from .files import Saved
from .merge import Merge
from .pretokenize import PATTERNS, PRETOKENIZERS
from .settings import SPECIALS, Settings
from .tokenizer import Tokenizer, render

FORMATS = ("hf", "tiktoken")


class FormatError(UserInputError):
    """A tokenizer that a format cannot express, or a file we cannot read; the message says which."""


# --------------------------------------------------------------------------- byte-level names

@functools.cache
def byte_to_char() -> dict[int, str]:
    """GPT-2's `bytes_to_unicode`: printable Latin-1 bytes stand for themselves, the
    other 68 bytes become U+0100 onwards, in byte order (space is 'Ġ', newline 'Ċ')."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, extra = {}, 0
    for byte in range(256):
        if byte in keep:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + extra)
            extra += 1
    return table


@functools.cache
def char_to_byte() -> dict[str, int]:
    return {char: byte for byte, char in byte_to_char().items()}


def byte_level_name(token: bytes) -> str:
    table = byte_to_char()
    return "".join(table[b] for b in token)


def byte_level_bytes(name: str) -> bytes:
    table = char_to_byte()
    try:
        return bytes(table[c] for c in name)
    except KeyError as error:
        raise FormatError(f"token {name!r} is not a byte-level name: {error.args[0]!r} stands for no byte") from None


# --------------------------------------------------------------------------- patterns

@functools.cache
def space() -> str:
    """Python's `\\s` (exactly `str.isspace`), as a class body in the Rust dialect."""
    points = [c for c in range(0x110000) if chr(c).isspace()]
    return _class_body(points)


def _class_body(points: list[int]) -> str:
    parts, i = [], 0
    while i < len(points):
        j = i
        while j + 1 < len(points) and points[j + 1] == points[j] + 1:
            j += 1
        parts.append(f"\\x{{{points[i]:x}}}" if i == j else f"\\x{{{points[i]:x}}}-\\x{{{points[j]:x}}}")
        i = j + 1
    return "".join(parts)


_ESCAPE = re.compile(r"\\(U[0-9a-fA-F]{8}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.DOTALL)
_KEEP = set("rnt\\-[]^.$|?*+(){}/' ")


def rust_pattern(pattern: str) -> str:
    """A Python `re` pattern in the dialect of Oniguruma and fancy-regex.

    `\\Uxxxxxxxx` becomes `\\x{...}`, `\\s` and `\\S` become Python's whitespace class
    spelled out; anything else that the two dialects might read differently is refused."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            match = _ESCAPE.match(pattern, i)
            body = match.group(1)
            if body[0] in "Uux" and len(body) > 1:
                out.append(f"\\x{{{int(body[1:], 16):x}}}")
            elif body == "s":
                out.append(space() if in_class else f"[{space()}]")
            elif body == "S" and not in_class:
                out.append(f"[^{space()}]")
            elif body in _KEEP:
                out.append("\\" + body)
            else:
                raise FormatError(f"cannot translate \\{body} in the pattern {pattern[:40]!r}...")
            i = match.end()
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            if pattern.startswith("]", i):  # a leading ] is a literal in Python
                out.append("\\]")
                i += 1
            continue
        if char == "]" and in_class:
            in_class = False
        out.append(char)
        i += 1
    return "".join(out)


#: tiktoken's pattern for `none`, which keeps a text whole: it matches everything, newlines included.
WHOLE = r"[\s\S]+"


def exported_pattern(pretokenizer: str) -> str | None:
    """The split pattern we write for a pre-tokenizer (None for `none`)."""
    return None if pretokenizer == "none" else rust_pattern(PATTERNS[pretokenizer]())


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
    if pattern is None or pattern == WHOLE:
        return "none"
    for name in PRETOKENIZERS[1:]:
        if pattern in (exported_pattern(name), PATTERNS[name]()):
            return name
    if pattern in GPT2_SPELLINGS:
        return "gpt2"
    known = KNOWN_SPLITS.get(pattern) or ("o200k_base" if pattern.startswith(r"[^\r\n\p{L}\p{N}]?[\p{Lu}") else None)
    hint = (f" (it is {known}'s split: bpe.real encodes {known} exactly)" if known else "")
    raise FormatError(
        f"the split pattern is none of bpe's pre-tokenizers ({', '.join(PRETOKENIZERS)}){hint}; "
        "pass --pretokenizer NAME to load the merges with that split instead (ids can then differ on some text)"
    )


# --------------------------------------------------------------------------- checks

def _check_distinct(tokenizer: Tokenizer, fmt: str, specials: bool = False) -> None:
    """Both formats name a token by its bytes, so two ids with the same bytes cannot both be written
    (in tokenizer.json, a special's name is in the same vocabulary)."""
    first: dict[bytes, int] = {}
    for token_id, token in enumerate(tokenizer.vocab):
        if token_id in tokenizer.specials and not specials:
            continue
        if token in first:
            raise FormatError(
                f"tokens {first[token]} and {token_id} are both {render(token)!r} (made by different merges); "
                f"a {fmt} file names each token by its bytes, so it cannot hold both ids"
            )
        first[token] = token_id


def tiktoken_split(token: bytes, ranks: dict[bytes, int], below: int) -> list[bytes]:
    """tiktoken's rule on one piece, using only ranks below `below`: merge the adjacent
    pair whose concatenation has the lowest rank (the leftmost one on a tie) until none is left."""
    parts = [token[i:i + 1] for i in range(len(token))]
    while len(parts) > 1:
        best, where = below, -1
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and rank < best:
                best, where = rank, i
        if where < 0:
            break
        parts[where:where + 2] = [parts[where] + parts[where + 1]]
    return parts


def tiktoken_mismatches(tokenizer: Tokenizer, limit: int = 3) -> list[str]:
    """Tokens for which tiktoken's rule and ours part ways, described (at most `limit`).

    A merged token is safe when (1) tiktoken's rule, on the token's own bytes with lower
    ranks only, ends in exactly our merge's two tokens, and (2) our encoder, run on the
    token's bytes as one chunk, gives the token itself (tiktoken takes a chunk that is a
    whole token as that token at once). When every token is safe the two agree on the
    texts we test; a token that fails either check makes some text encode differently."""
    ranks = {token: i for i, token in enumerate(tokenizer.vocab) if i not in tokenizer.specials}
    found = []
    for rank, (left, right) in enumerate(tokenizer.merges):
        token_id = tokenizer.first_merge_id + rank
        token = tokenizer.vocab[token_id]
        parts = tiktoken_split(token, ranks, token_id)
        if parts != [tokenizer.vocab[left], tokenizer.vocab[right]]:
            found.append(f"token {token_id} {render(token)!r}: our merge is ({left}, {right}), "
                         f"tiktoken's rule splits it as {' + '.join(repr(render(p)) for p in parts)}")
        elif tokenizer.merge(token.decode("latin-1")) != chr(token_id):  # a bytes sequence is its bytes as code points
            found.append(f"token {token_id} {render(token)!r}: our encoder does not produce it from its own bytes, "
                         "which tiktoken does")
        if len(found) >= limit:
            break
    return found


# --------------------------------------------------------------------------- export

def to_hf(tokenizer: Tokenizer) -> dict:
    """A `tokenizer.json` object that `tokenizers.Tokenizer.from_file` loads, ids unchanged."""
    _check_distinct(tokenizer, "tokenizer.json", specials=True)
    byte_level = tokenizer.alphabet.kind == "bytes"
    name = byte_level_name if byte_level else (lambda token: token.decode("utf-8", "surrogatepass"))
    # Specials keep their ids in the model's vocabulary (as GPT-2's <|endoftext|> does); a merge
    # never makes their names, since _check_distinct refuses a token with the same bytes.
    vocab = {(tokenizer.specials.get(i) or name(token)): i for i, token in enumerate(tokenizer.vocab)}
    merges = [[name(tokenizer.vocab[left]), name(tokenizer.vocab[right])] for left, right in tokenizer.merges]
    pattern = exported_pattern(tokenizer.settings.pretokenizer)
    steps = []
    if pattern is not None:
        steps.append({"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False})
    if byte_level:
        steps.append({"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False})
    pre_tokenizer = None if not steps else steps[0] if len(steps) == 1 else {"type": "Sequence", "pretokenizers": steps}
    decoder = ({"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
               if byte_level else {"type": "Fuse"})
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": decoder,
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
            "vocab": vocab, "merges": merges,
        },
    }


def to_hf_json(tokenizer: Tokenizer) -> str:
    return json.dumps(to_hf(tokenizer), ensure_ascii=False, indent=1)


def to_tiktoken(tokenizer: Tokenizer, name: str = "bpe") -> tuple[str, dict]:
    """The rank file's text and the other arguments of `tiktoken.Encoding`:

        tiktoken.Encoding(mergeable_ranks=tiktoken.load.load_tiktoken_bpe(rank_file), **args)
    """
    if tokenizer.alphabet.kind != "bytes":
        raise FormatError("tiktoken works on bytes: a tokenizer with the chars alphabet cannot be written as "
                          "a tiktoken rank file (train with --alphabet bytes, or export --format hf)")
    _check_distinct(tokenizer, "tiktoken rank")
    mismatches = tiktoken_mismatches(tokenizer)
    if mismatches:
        raise FormatError("tiktoken merges the adjacent pair whose bytes have the lowest rank, and for this "
                          "tokenizer that gives other ids than its merges do: " + "; ".join(mismatches))
    lines = [f"{base64.b64encode(token).decode('ascii')} {i}\n"
             for i, token in enumerate(tokenizer.vocab) if i not in tokenizer.specials]
    pattern = exported_pattern(tokenizer.settings.pretokenizer)
    args = {
        "name": name,
        "pat_str": pattern if pattern is not None else WHOLE,
        "special_tokens": {text: i for i, text in sorted(tokenizer.specials.items())},
    }
    return "".join(lines), args


# --------------------------------------------------------------------------- import

def _tiktoken_args(args) -> dict:
    """The Encoding arguments beside a rank file, checked: pat_str a string, special_tokens text -> id."""
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise FormatError("the JSON beside the rank file must be an object (name, pat_str, special_tokens)")
    if "pat_str" in args and not isinstance(args["pat_str"], str):
        raise FormatError('"pat_str" must be the split pattern, a string')
    specials = args.get("special_tokens")
    if specials is not None and (not isinstance(specials, dict)
                                 or not all(type(i) is int for i in specials.values())):
        raise FormatError('"special_tokens" must map each special token\'s text to a whole-number id')
    return args


def _saved(pretokenizer: str, specials: str, pairs: list[tuple[int, int]]) -> Saved:
    settings = Settings(alphabet="bytes", pretokenizer=pretokenizer, specials=specials,
                        min_frequency=1, merges=len(pairs))
    first = settings.first_merge_id(256)
    merges = [Merge(rank, left, right, first + rank, 0, 0, 0) for rank, (left, right) in enumerate(pairs)]
    return Saved(settings, Alphabet("bytes"), merges, "")


def _specials_setting(specials: dict[str, int]) -> tuple[str, list[str]]:
    """`octlm` when the file's specials are exactly octlm's at 256-260; otherwise none, and the dropped names."""
    octlm = {name: 256 + i for i, name in enumerate(SPECIALS["octlm"])}
    if specials == octlm:
        return "octlm", []
    return "none", sorted(specials)


class Imported:
    """An imported tokenizer and what the import had to say about it."""

    def __init__(self, saved: Saved, notes: list[str]):
        self.saved = saved
        self.notes = notes


def _pairs_from_bytes(merges: list[tuple[bytes, bytes]], first: int) -> list[tuple[int, int]]:
    ids = {bytes([b]): b for b in range(256)}
    pairs = []
    for rank, (left, right) in enumerate(merges):
        for side in (left, right):
            if side not in ids:
                raise FormatError(f"merge {rank} uses {render(side)!r}, which no earlier merge makes")
        token = left + right
        if token in ids and ids[token] >= first:
            raise FormatError(f"merges {ids[token] - first} and {rank} both make {render(token)!r}; bpe gives "
                              "each merge its own id, so later merges using that token would be ambiguous")
        ids[token] = first + rank
        pairs.append((ids[left], ids[right]))
    return pairs


#: BPE model options bpe has no setting for, each with the value that means "off".
_HF_OFF = {"dropout": (None, 0, 0.0), "ignore_merges": (None, False), "byte_fallback": (None, False),
           "continuing_subword_prefix": (None, ""), "end_of_word_suffix": (None, "")}


def from_hf(data: dict, pretokenizer: str | None = None) -> Imported:
    """Read a byte-level BPE `tokenizer.json` object."""
    model = _hf_model(data)
    normalizer = data.get("normalizer")
    if normalizer is not None:
        kind = normalizer.get("type") if isinstance(normalizer, dict) else normalizer
        raise FormatError(f"the file has a normalizer ({kind}), which bpe has no setting for")
    pattern, byte_level = _hf_pre_tokenizer(data.get("pre_tokenizer"))
    if not byte_level:
        raise FormatError("only byte-level BPE files can be imported (the pre-tokenizer has no ByteLevel step)")
    notes = []
    if pretokenizer is None:
        pretokenizer = pretokenizer_of(pattern)
    else:
        notes.append(f"split with --pretokenizer {pretokenizer} instead of the file's own pattern")
    added = _hf_added_tokens(data.get("added_tokens"))
    vocab = _hf_vocab(model.get("vocab"))
    specials, dropped = _specials_setting(added or _octlm_in_vocab(vocab))
    if dropped:
        notes.append(f"{len(dropped)} added token(s) left out ({', '.join(dropped[:5])}{'...' if len(dropped) > 5 else ''}): "
                     "bpe's settings name only octlm's specials")
    merges = [_hf_merge(item, rank) for rank, item in enumerate(model["merges"])]
    first = 256 + len(SPECIALS[specials])
    saved = _saved(pretokenizer, specials, _pairs_from_bytes(merges, first))
    ours, named = saved.tokenizer.vocab, set(added) | set(SPECIALS[specials])
    moved = sum(1 for name, i in vocab.items()
                if not (0 <= i < len(ours) and byte_level_name(ours[i]) == name) and name not in named)
    if moved:
        notes.append(f"{moved} of {len(vocab)} ids differ from the file's: bpe's ids 0-255 are the byte values"
                     + ("" if moved > 256 else ", and the file orders single bytes otherwise"))
    return Imported(saved, notes)


def _hf_model(data) -> dict:
    """The file's BPE model, refused when it uses an option bpe cannot honour."""
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise FormatError('not a tokenizer.json: no "model" object')
    model = data["model"]
    if model.get("type", "BPE") != "BPE":
        raise FormatError(f"the model is {model.get('type')!r}, not BPE: only BPE files can be imported")
    if not isinstance(model.get("merges"), list):
        raise FormatError('the BPE model\'s "merges" must be a list')
    for field, off in _HF_OFF.items():
        if model.get(field) not in off:
            raise FormatError(f"the BPE model sets {field} to {model[field]!r}, which bpe has no setting for")
    return model


def _hf_merge(item, rank: int) -> tuple[bytes, bytes]:
    """One merge, written "left right" or ["left", "right"]."""
    parts = item.split(" ") if isinstance(item, str) else item
    if not isinstance(parts, list) or len(parts) != 2 or not all(isinstance(p, str) and p for p in parts):
        raise FormatError(f'merge {rank} must be "left right" or ["left", "right"], not {json.dumps(item)[:60]}')
    return byte_level_bytes(parts[0]), byte_level_bytes(parts[1])


def _hf_vocab(vocab) -> dict[str, int]:
    if vocab is None:
        return {}
    if not isinstance(vocab, dict) or not all(type(i) is int for i in vocab.values()):
        raise FormatError('the BPE model\'s "vocab" must map each token to a whole-number id')
    return vocab


def _hf_added_tokens(items) -> dict[str, int]:
    if items is None:
        return {}
    if not isinstance(items, list):
        raise FormatError('"added_tokens" must be a list')
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("content"), str) or type(item.get("id")) is not int:
            raise FormatError(f'added token {n} must have a "content" string and a whole-number "id"')
    return {item["content"]: item["id"] for item in items}


def _octlm_in_vocab(vocab: dict[str, int]) -> dict[str, int]:
    """octlm's specials when the vocabulary holds them at their ids (our export writes them there,
    not as added tokens, which tokenizers would match inside ordinary text)."""
    octlm = {name: 256 + i for i, name in enumerate(SPECIALS["octlm"])}
    return octlm if all(vocab.get(name) == i for name, i in octlm.items()) else {}


def _hf_pre_tokenizer(step) -> tuple[str | None, bool]:
    """(split pattern or None, whether bytes are mapped) for the pre-tokenizers we understand."""
    if step is None:
        return None, False
    if not isinstance(step, dict):
        raise FormatError(f"the pre-tokenizer must be an object with a type, not {json.dumps(step)[:40]}")
    kind = step.get("type")
    if kind == "ByteLevel":
        if step.get("add_prefix_space"):
            raise FormatError("the ByteLevel pre-tokenizer adds a prefix space, which bpe has no setting for")
        return (GPT2_SPELLINGS[0] if step.get("use_regex", True) else None), True
    if kind == "Split":
        pattern = step.get("pattern")
        if (step.get("behavior") != "Isolated" or step.get("invert") or not isinstance(pattern, dict)
                or not isinstance(pattern.get("Regex"), str)):
            raise FormatError("only a Split by a regex with the Isolated behaviour can be imported")
        return pattern["Regex"], False
    if kind == "Sequence":
        pattern, byte_level = None, False
        inner_steps = step.get("pretokenizers")
        if not isinstance(inner_steps, list):
            raise FormatError('a Sequence pre-tokenizer must have a "pretokenizers" list')
        for inner in inner_steps:
            p, b = _hf_pre_tokenizer(inner)
            if p is not None and pattern is not None:
                raise FormatError("the file splits text twice, which no bpe pre-tokenizer does")
            pattern, byte_level = pattern if p is None else p, byte_level or b
        return pattern, byte_level
    raise FormatError(f"the pre-tokenizer {kind!r} has no bpe equivalent")


def from_tiktoken(ranks_text: str, args: dict | None = None, pretokenizer: str | None = None) -> Imported:
    """Read a tiktoken rank file (and the Encoding arguments beside it, if any).

    Each merged token's pair is recovered the way tiktoken would build it: its bytes
    split by the lower ranks, which must end in exactly two tokens."""
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(ranks_text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token, validate=True)] = int(rank)
        except ValueError:
            raise FormatError(f"line {number} of the rank file is not `base64-token rank`: {line[:60]!r}") from None
    args = _tiktoken_args(args)
    notes = []
    if pretokenizer is None:
        if "pat_str" not in args:
            raise FormatError("a tiktoken rank file has no split pattern: give the JSON beside it "
                              "(PATH.json with pat_str) or --pretokenizer NAME")
        pretokenizer = pretokenizer_of(args["pat_str"])
    else:
        notes.append(f"split with --pretokenizer {pretokenizer}"
                     + (" instead of the file's own pattern" if "pat_str" in args else ""))
    specials, dropped = _specials_setting(args.get("special_tokens") or {})
    if dropped:
        notes.append(f"{len(dropped)} special token(s) left out ({', '.join(dropped[:5])}): "
                     "bpe's settings name only octlm's specials")
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise FormatError(f"the rank file has no rank for {len(missing)} single byte(s) (first: {missing[0]:#04x}); "
                          "tiktoken could not encode every text")
    merged = sorted((rank, token) for token, rank in ranks.items() if len(token) > 1)
    merges = []
    for rank, token in merged:
        parts = tiktoken_split(token, ranks, rank)
        if len(parts) != 2:
            raise FormatError(f"token {render(token)!r} (rank {rank}) is not two lower-ranked tokens joined: "
                              f"its bytes split as {len(parts)} pieces, so it has no merge")
        merges.append((parts[0], parts[1]))
    first = 256 + len(SPECIALS[specials])
    saved = _saved(pretokenizer, specials, _pairs_from_bytes(merges, first))
    moved = sum(1 for token, rank in ranks.items() if saved.tokenizer.vocab[rank:rank + 1] != [token])
    if moved:
        notes.append(f"{moved} of {len(ranks)} ids differ from the file's ranks: bpe's ids 0-255 are the byte values")
    return Imported(saved, notes)
