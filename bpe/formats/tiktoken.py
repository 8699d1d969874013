"""tiktoken rank files: `base64(token bytes) rank` per line, rank = our id, and beside it the
other arguments of `tiktoken.Encoding` (name, pat_str, special_tokens) as PATH.json.

What it cannot say raises FormatError: a `chars` alphabet, two merges that make the same
bytes, and a merge table whose result differs under tiktoken's rule (merge the adjacent
pair whose concatenation has the lowest rank) from ours (apply merges in rank order).

>>> import bpe
>>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
>>> ranks, args = to_tiktoken(t.tokenizer)
>>> ranks.splitlines()[256:258]
['bG8= 256', 'bG93 257']
"""
from __future__ import annotations

import base64
import io
import json
import os
import zipfile

from ..encoding.ranks import parts
from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab import render
from ..io import textio
from .common import FormatError, Imported, check_distinct, first_merge_id, pairs_from_bytes, imported_tokenizer, specials_setting
from .splits import WHOLE, exported_pattern, pretokenizer_of


def export(tokenizer: Tokenizer, path: str, name: str | None = None,
           file_ids=None) -> tuple[dict[str, str], str, list[str]]:
    """({path: text} to write, what was written, notes): the rank file and PATH.json. A rank file
    numbers tokens by rank, so an imported file's own ids (`file_ids`) cannot be kept."""
    name = name or os.path.basename(path).split(".")[0] or "bpe"
    ranks, encoding_args = to_tiktoken(tokenizer, name)
    done = (f"wrote {path} ({len(tokenizer.vocab) - len(tokenizer.specials)} ranks) and {path}.json "
            "(name, pat_str, special_tokens): tiktoken.Encoding(mergeable_ranks=tiktoken.load.load_tiktoken_bpe(PATH), "
            "**args); with TIKTOKEN_CACHE_DIR= set empty, tiktoken does not cache the file by its path")
    notes = [] if file_ids is None else [
        "a tiktoken rank file numbers tokens by rank: the imported file's own ids are not kept in it"]
    return {path: ranks, path + ".json": json.dumps(encoding_args, ensure_ascii=False, indent=1) + "\n"}, done, notes


#: The download's files: the rank file, the other arguments of `tiktoken.Encoding`, and how to load both.
RANKS_FILE, ARGS_FILE, LOADER_FILE = "bpe.tiktoken", "bpe.tiktoken.json", "load_bpe.py"
DOWNLOAD = "bpe-tiktoken.zip"
LOADER = f"""\
# Loads the tokenizer in this zip with tiktoken: python3 {LOADER_FILE} "some text"
import json
import os
import sys

os.environ["TIKTOKEN_CACHE_DIR"] = ""  # tiktoken would otherwise cache the rank file by its path, not its content
import tiktoken
from tiktoken.load import load_tiktoken_bpe

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "{ARGS_FILE}"), encoding="utf-8") as file:
    args = json.load(file)
encoding = tiktoken.Encoding(mergeable_ranks=load_tiktoken_bpe(os.path.join(here, "{RANKS_FILE}")), **args)
# encode_ordinary: a special token's text in the input is plain text, as in bpe (encode would refuse it)
print(encoding.encode_ordinary(" ".join(sys.argv[1:]) or "hello world"))
"""


def how_to_load(tokenizer: Tokenizer) -> str:
    """For the page (HTML): how to load the download."""
    return (f"tiktoken: the zip holds the rank file, the other arguments of <code>tiktoken.Encoding</code> "
            f"and <code>{LOADER_FILE}</code>, which loads them.")


def problem(tokenizer: Tokenizer) -> str:
    """Why this format cannot hold the tokenizer, when that is known without trying ("" otherwise)."""
    if not tokenizer.settings.alphabet_kind.byte_level:
        return ("tiktoken works on bytes, and this tokenizer's alphabet is chars: set the alphabet to bytes to "
                "export it for tiktoken, or use the Hugging Face file.")
    return ""


def download(tokenizer: Tokenizer) -> bytes:
    """The rank file, its arguments and a loader in one zip; FormatError if tiktoken cannot express it."""
    ranks, args = to_tiktoken(tokenizer, "bpe")
    files = {RANKS_FILE: ranks, ARGS_FILE: json.dumps(args, ensure_ascii=False, indent=1) + "\n", LOADER_FILE: LOADER}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), text)
    return out.getvalue()


def load(path: str, pretokenizer: str | None = None) -> tuple[Imported, list[str]]:
    """The rank file at `path` (and PATH.json beside it, if any) imported, and the files read."""
    args = textio.read_json(path + ".json") if os.path.isfile(path + ".json") else None
    return from_tiktoken(textio.read_text(path), args, pretokenizer), [path, path + ".json"]


def tiktoken_split(token: bytes, ranks: dict[bytes, int], below: int) -> list[bytes]:
    """tiktoken's rule on one piece, using only ranks below `below` (see `bpe.real.merge`)."""
    return parts(token, ranks, below)


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


def to_tiktoken(tokenizer: Tokenizer, name: str = "bpe") -> tuple[str, dict]:
    """The rank file's text and the other arguments of `tiktoken.Encoding`:

        tiktoken.Encoding(mergeable_ranks=tiktoken.load.load_tiktoken_bpe(rank_file), **args)
    """
    if not tokenizer.settings.alphabet_kind.byte_level:
        raise FormatError("tiktoken works on bytes: a tokenizer with the chars alphabet cannot be written as "
                          "a tiktoken rank file (train with --alphabet bytes, or export --format hf)")
    check_distinct(tokenizer, "tiktoken rank")
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


def from_tiktoken(ranks_text: str, args: dict | None = None, pretokenizer: str | None = None) -> Imported:
    """Read a tiktoken rank file (and the Encoding arguments beside it, if any).

    Each merged token's pair is recovered the way tiktoken would build it: its bytes
    split by the lower ranks, which must end in exactly two tokens."""
    ranks = _read_ranks(ranks_text)
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
    specials, dropped = specials_setting(args.get("special_tokens") or {})
    if dropped:
        notes.append(f"{len(dropped)} special token(s) left out ({', '.join(dropped[:5])}): "
                     "bpe's specials settings are octlm's and ChatML's, each at the ids after the bytes")
    saved = imported_tokenizer(pretokenizer, specials, pairs_from_bytes(_merges_of(ranks), first_merge_id(specials)))
    moved = sum(1 for token, rank in ranks.items() if saved.tokenizer.vocab[rank:rank + 1] != [token])
    if moved:
        notes.append(f"{moved} of {len(ranks)} ids differ from the file's ranks: bpe's ids 0-255 are the byte values")
    return Imported(saved, notes)


def _read_ranks(text: str) -> dict[bytes, int]:
    """`base64-token rank` per line, as token bytes -> rank."""
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token, validate=True)] = int(rank)
        except ValueError:
            raise FormatError(f"line {number} of the rank file is not `base64-token rank`: {line[:60]!r}") from None
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise FormatError(f"the rank file has no rank for {len(missing)} single byte(s) (first: {missing[0]:#04x}); "
                          "tiktoken could not encode every text")
    return ranks


def _merges_of(ranks: dict[bytes, int]) -> list[tuple[bytes, bytes]]:
    """Each merged token's two parts, in rank order, as tiktoken's rule builds it from lower ranks."""
    merges = []
    for rank, token in sorted((rank, token) for token, rank in ranks.items() if len(token) > 1):
        parts = tiktoken_split(token, ranks, rank)
        if len(parts) != 2:
            raise FormatError(f"token {render(token)!r} (rank {rank}) is not two lower-ranked tokens joined: "
                              f"its bytes split as {len(parts)} pieces, so it has no merge")
        merges.append((parts[0], parts[1]))
    return merges
