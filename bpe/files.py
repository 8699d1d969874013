"""Save and load a trained tokenizer as versioned JSON.

The file holds the settings, the base alphabet, the specials, every merge with
its counts, and a hash of the training corpus.

>>> import bpe
>>> t = bpe.train(["aaa", "aba"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=2))
>>> saved = loads(dumps(t))
>>> saved.tokenizer.encode("aaaba"), saved.merges == t.merges
([256, 257, 97], True)
"""
from __future__ import annotations

import dataclasses
import functools
import json

from .alphabet import Alphabet
from .merge import Merge
from .settings import Settings, SettingsError
from .tokenizer import Tokenizer, render

FORMAT = "bpe-tokenizer"
VERSION = 1
_MERGE_FIELDS = ("rank", "left", "right", "id", "count", "replacements", "ties")


class TokenizerFileError(ValueError):
    """A tokenizer file that cannot be read; the message says what is wrong."""


@dataclasses.dataclass(frozen=True)
class Saved:
    settings: Settings
    alphabet: Alphabet
    merges: list[Merge]
    corpus_sha256: str

    @functools.cached_property
    def tokenizer(self) -> Tokenizer:
        return Tokenizer(self.settings, self.alphabet, [(m.left, m.right) for m in self.merges])


def to_dict(training) -> dict:
    """The JSON object for a `Training` (or a `Saved`)."""
    tokenizer = training.tokenizer
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": training.settings.to_dict(),
        "alphabet": training.alphabet.to_dict(),
        "specials": [{"id": i, "text": name} for i, name in tokenizer.specials.items()],
        "merges": [
            {**dataclasses.asdict(m), "text": render(tokenizer.vocab[m.id])} for m in training.merges
        ],
        "corpus_sha256": training.corpus_sha256,
    }


def dumps(training) -> str:
    return json.dumps(to_dict(training), ensure_ascii=False, indent=1)


def loads(text: str) -> Saved:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TokenizerFileError(f"not a tokenizer file: invalid JSON ({error})") from None
    return from_dict(data)


def from_dict(data) -> Saved:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TokenizerFileError(f'not a tokenizer file: "format" must be "{FORMAT}"')
    if data.get("version") != VERSION:
        raise TokenizerFileError(f"unsupported tokenizer file version {data.get('version')!r}; this bpe reads version {VERSION}")
    for field in ("settings", "alphabet", "specials", "merges", "corpus_sha256"):
        if field not in data:
            raise TokenizerFileError(f'the tokenizer file has no "{field}" field')
    try:
        settings = Settings(**data["settings"])
    except (TypeError, SettingsError) as error:
        raise TokenizerFileError(f"the tokenizer file's settings are invalid: {error}") from None
    alphabet = _read_alphabet(data["alphabet"], settings)
    merges = _read_merges(data["merges"], len(alphabet.symbols), settings.first_merge_id(len(alphabet.symbols)))
    return Saved(settings, alphabet, merges, str(data["corpus_sha256"]))


def _read_alphabet(data, settings: Settings) -> Alphabet:
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind != settings.alphabet:
        raise TokenizerFileError(f"the alphabet kind {kind!r} contradicts the settings' {settings.alphabet!r}")
    if kind == "bytes":
        return Alphabet("bytes")
    chars = data.get("chars")
    if not isinstance(chars, str) or list(chars) != sorted(set(chars)):
        raise TokenizerFileError('a "chars" alphabet must list distinct characters in code-point order')
    return Alphabet("chars", chars)


def _read_merges(items, base_size: int, first_id: int) -> list[Merge]:
    if not isinstance(items, list):
        raise TokenizerFileError('"merges" must be a list')
    merges, seen = [], set()
    for rank, item in enumerate(items):
        if not isinstance(item, dict) or any(not isinstance(item.get(f), int) for f in _MERGE_FIELDS):
            raise TokenizerFileError(f"merge {rank} must have whole numbers for {', '.join(_MERGE_FIELDS)}")
        merge = Merge(*(item[f] for f in _MERGE_FIELDS))
        _check_merge(merge, rank, base_size, first_id, seen)
        merges.append(merge)
    return merges


def _check_merge(merge: Merge, rank: int, base_size: int, first_id: int, seen: set) -> None:
    """Merges contradict each other when ids skip, point forward, use a special, or repeat a pair."""
    specials = range(base_size, first_id)
    if merge.rank != rank or merge.id != first_id + rank:
        raise TokenizerFileError(f"merge {rank} must have rank {rank} and id {first_id + rank}")
    for side in (merge.left, merge.right):
        if not 0 <= side < merge.id or side in specials:
            raise TokenizerFileError(f"merge {rank} uses token {side}, which does not exist before id {merge.id}")
    if (merge.left, merge.right) in seen:
        raise TokenizerFileError(f"merge {rank} repeats the pair ({merge.left}, {merge.right})")
    seen.add((merge.left, merge.right))

