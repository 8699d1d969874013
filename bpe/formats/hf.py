"""Hugging Face `tokenizer.json`: what `tokenizers.Tokenizer.from_file` loads, ids unchanged.

Under the `bytes` alphabet tokens are named as byte-level BPE files name them (GPT-2's
byte-to-character map), and the pre-tokenizer is a `Split` with our pattern, then
`ByteLevel(use_regex=False)`. A `chars` alphabet is written as plain characters. Specials
are in the vocabulary at their ids. octlm's are not `added_tokens`: tokenizers matches an added
token's text inside any text, and octlm's `<|eos|>` written in a text is ordinary bytes. ChatML's
are, since a chat template writes them as text.
Import reads byte-level BPE files back, and refuses what bpe cannot honour.

>>> import bpe
>>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
>>> data = to_hf(t.tokenizer)
>>> data["model"]["merges"][:2], data["model"]["vocab"]["Ġlow"]
([['l', 'o'], ['lo', 'w']], 258)
"""
from __future__ import annotations

import json

from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab import render
from ..io import textio
from ..io.file_ids import FileIds
from ..options import SPECIALS
from .byte_level import byte_level_bytes, byte_level_name
from .common import FormatError, Imported, check_distinct, first_merge_id, pairs_from_bytes, imported_tokenizer, specials_setting
from .splits import GPT2_SPELLINGS, exported_pattern, pretokenizer_of


def export(tokenizer: Tokenizer, path: str, name: str | None = None,
           file_ids: FileIds | None = None) -> tuple[dict[str, str], str, list[str]]:
    """({path: text} to write, what was written, notes on what differs); an imported file's own
    ids (`file_ids`) are written as its ids, with its added tokens."""
    done = (f"wrote {path}: tokenizers.Tokenizer.from_file reads it "
            f"({len(tokenizer.vocab)} ids, {len(tokenizer.merges)} merges)")
    notes = [] if tokenizer.settings.alphabet_kind.byte_level else [
        "a character outside the chars alphabet has no id here and is dropped by tokenizers, "
        "so texts with one encode differently"]
    if file_ids is not None:
        done = done.replace(" ids,", " ids, the imported file's own,")
    return {path: to_hf_json(tokenizer, file_ids)}, done, notes


DOWNLOAD = "tokenizer-hf.json"


def how_to_load(tokenizer: Tokenizer) -> str:
    """For the page (HTML): how to load the download."""
    note = 'Hugging Face: <code>tokenizers.Tokenizer.from_file("tokenizer-hf.json")</code>.'
    if not tokenizer.settings.alphabet_kind.byte_level:
        note += " A character outside the alphabet has no id, and tokenizers drops it."
    return note


def problem(tokenizer: Tokenizer) -> str:
    """Why this format cannot hold the tokenizer, when that is known without trying: never."""
    return ""


def download(tokenizer: Tokenizer) -> bytes:
    return to_hf_json(tokenizer).encode("utf-8")


def load(path: str, pretokenizer: str | None = None) -> tuple[Imported, list[str]]:
    """The file at `path` imported, and the files read."""
    return from_hf(textio.read_json(path), pretokenizer), [path]


def to_hf(tokenizer: Tokenizer, file_ids: FileIds | None = None) -> dict:
    """A `tokenizer.json` object that `tokenizers.Tokenizer.from_file` loads, ids unchanged (or,
    for an imported file, its own ids and added tokens, as it had them)."""
    check_distinct(tokenizer, "tokenizer.json", specials=True)
    byte_level = tokenizer.settings.alphabet_kind.byte_level
    name = byte_level_name if byte_level else (lambda token: token.decode("utf-8", "surrogatepass"))
    # Specials keep their ids in the model's vocabulary (as GPT-2's <|endoftext|> does); a merge
    # never makes their names, since _check_distinct refuses a token with the same bytes.
    vocab = {(tokenizer.specials.get(i) or name(token)): i for i, token in enumerate(tokenizer.vocab)}
    # Specials whose text a chat template writes (ChatML's) are added tokens, which tokenizers matches
    # in any text; octlm's are not (its seed: <|eos|> in a text is plain text).
    added = [_added(i, name, True) for i, name in tokenizer.specials.items() if tokenizer.settings.special_set.matched]
    if file_ids is not None:
        vocab = {key: file_ids.file_id(i) for key, i in vocab.items() if file_ids.file_id(i) is not None}
        added = [_added(i, text, special) for i, text, special in file_ids.added]
        vocab.update({item["content"]: item["id"] for item in added})  # as tokenizers' trainer lists them too
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
        "added_tokens": added,
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


def to_hf_json(tokenizer: Tokenizer, file_ids: FileIds | None = None) -> str:
    return json.dumps(to_hf(tokenizer, file_ids), ensure_ascii=False, indent=1)


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
    items = _hf_added_items(data.get("added_tokens"))
    added = {item["content"]: item["id"] for item in items}
    vocab = _hf_vocab(model.get("vocab"))
    specials, _ = specials_setting(added or _specials_in_vocab(vocab))
    merges = [_hf_merge(item, rank) for rank, item in enumerate(model["merges"])]
    first = first_merge_id(specials)
    saved = imported_tokenizer(pretokenizer, specials, pairs_from_bytes(merges, first))
    file_ids = _file_ids(saved.tokenizer, vocab, items, notes)
    return Imported(saved.replace(file_ids=file_ids), notes)


def _file_ids(tokenizer: Tokenizer, vocab: dict[str, int], items: list[dict], notes: list[str]) -> FileIds | None:
    """The file's own id for each of bpe's tokens, and its added tokens that are no byte and no
    merge (None when the file numbers everything as bpe does); what differs goes in `notes`."""
    added = {item["content"]: item["id"] for item in items}
    ids = []
    for i, token in enumerate(tokenizer.vocab):
        name = tokenizer.specials.get(i)
        ids.append(added.get(name, vocab.get(name)) if name else vocab.get(byte_level_name(token)))
    mapped = set(ids)
    kept = tuple((item["id"], item["content"], bool(item.get("special", False))) for item in items
                 if item["id"] not in mapped)
    missing = [i for i, file_id in enumerate(ids) if file_id is None]
    if missing:
        notes.append(f"the file's vocabulary lacks {len(missing)} of bpe's tokens (such as "
                     f"{render(tokenizer.vocab[missing[0]])!r}): they have no id here, as in tokenizers")
    unused = len(set(vocab.values()) - mapped - {i for i, _, _ in kept})
    if unused:
        notes.append(f"{unused} of the file's tokens are no byte, merge or added token, so no text encodes to them")
    if kept:
        names = [text for _, text, _ in kept]
        notes.append(f"{len(kept)} added token(s) ({', '.join(names[:5])}{'...' if len(kept) > 5 else ''}) keep "
                     "their ids and are matched in any text, as tokenizers matches them")
        if any(item.get(flag) for item in items for flag in ("lstrip", "rstrip", "single_word")):
            notes.append("an added token's lstrip, rstrip or single_word option is not honoured here")
    moved = sum(1 for i, file_id in enumerate(ids) if file_id is not None and file_id != i)
    if moved:
        notes.append(f"{moved} of {len(ids)} of bpe's own ids differ from the file's; the file's are kept "
                     "(bpe numbers the single bytes by value)")
    if not moved and not missing and not kept:
        return None
    return FileIds(tuple(ids), kept)


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


def _added(token_id: int, text: str, special: bool) -> dict:
    return {"id": token_id, "content": text, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": special}


def _hf_added_items(items) -> list[dict]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise FormatError('"added_tokens" must be a list')
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("content"), str) or not item["content"] \
                or type(item.get("id")) is not int or item["id"] < 0:
            raise FormatError(f'added token {n} must have a "content" string and a whole-number "id"')
    if len({item["id"] for item in items}) != len(items) or len({item["content"] for item in items}) != len(items):
        raise FormatError("two added tokens have the same id or the same content")
    return items


def _specials_in_vocab(vocab: dict[str, int]) -> dict[str, int]:
    """octlm's specials when the vocabulary holds them at their ids (our export writes them there,
    not as added tokens, which tokenizers would match inside ordinary text)."""
    for value in SPECIALS:
        if value.tokens and not value.matched and all(vocab.get(name) == i for name, i in value.ids.items()):
            return value.ids
    return {}


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
