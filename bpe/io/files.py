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

import functools
import json
import operator
from itertools import chain

from ..encoding.alphabet import Alphabet
from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab import base_vocab, render
from ..errors import UserInputError
from ..record import Record
from ..settings import Settings, SettingsError
from ..trainers.merge import Merge
from .file_ids import FileIds, FileIdsError

FORMAT = "bpe-tokenizer"
VERSION = 1
_MERGE_FIELDS = ("rank", "left", "right", "id", "count", "replacements", "ties")
#: Counts above this are no count a corpus could give.
MAX_COUNT = 1 << 63
#: The most bytes all of a file's tokens may hold together. A merge can double a token's length,
#: so 40 merges in a 4 KB file could ask for a terabyte; a real tokenizer needs far less
#: (cl100k_base's 100k tokens hold 0.7 MB).
MAX_VOCAB_BYTES = 256 << 20


class TokenizerFileError(UserInputError):
    """A tokenizer file that cannot be read; the message names the field that is wrong."""


class Saved(Record):
    settings: Settings
    alphabet: Alphabet
    merges: list[Merge]
    corpus_sha256: str
    #: An imported file's own ids (`bpe.io.file_ids`), which encode and decode speak; None: bpe's.
    file_ids: FileIds | None = None

    @functools.cached_property
    def tokenizer(self) -> Tokenizer:
        return Tokenizer(self.settings, self.alphabet, [(m.left, m.right) for m in self.merges])


def merge_rows(training) -> list[dict]:
    """Each merge's record and its token's text (broken UTF-8 as \\xNN), as files and `--json` write it.

    >>> import bpe
    >>> merge_rows(bpe.train(["aaa"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=1)))
    [{'rank': 0, 'left': 97, 'right': 97, 'id': 256, 'count': 2, 'replacements': 1, 'ties': 1, 'text': 'aa'}]
    """
    vocab = training.tokenizer.vocab
    return [{**m._asdict(), "text": render(vocab[m.id])} for m in training.merges]


def to_dict(training) -> dict:
    """The JSON object for a `Training` (or a `Saved`)."""
    tokenizer = training.tokenizer
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": training.settings.to_dict(),
        "alphabet": training.alphabet.to_dict(),
        "specials": [{"id": i, "text": name} for i, name in tokenizer.specials.items()],
        "merges": merge_rows(training),
        "corpus_sha256": training.corpus_sha256,
        **({"file_ids": training.file_ids.to_dict()} if getattr(training, "file_ids", None) else {}),
    }


def dumps(training) -> str:
    return json.dumps(to_dict(training), ensure_ascii=False, indent=1)


def loads(text: str) -> Saved:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TokenizerFileError(f"not a tokenizer file: invalid JSON ({error})") from None
    except RecursionError:
        raise TokenizerFileError("not a tokenizer file: its JSON is nested too deeply") from None
    return from_dict(data)


def _whole(value) -> bool:
    """A JSON whole number (true and false are not numbers here)."""
    return type(value) is int


def from_dict(data) -> Saved:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TokenizerFileError(f'not a tokenizer file: "format" must be "{FORMAT}"')
    version = data.get("version")
    if not _whole(version) or version != VERSION:
        raise TokenizerFileError(f"unsupported tokenizer file version {version!r}; this bpe reads version {VERSION}")
    for field in ("settings", "alphabet", "specials", "merges", "corpus_sha256"):
        if field not in data:
            raise TokenizerFileError(f'the tokenizer file has no "{field}" field')
    settings = _read_settings(data["settings"])
    alphabet = _read_alphabet(data["alphabet"], settings)
    base_size = len(alphabet.symbols)
    first_id = settings.first_merge_id(base_size)
    _read_specials(data["specials"], settings, base_size)
    merges = _read_merges(data["merges"], base_size, first_id)
    _check_budget(settings, first_id, len(merges))
    _check_vocab_bytes(merges, alphabet, settings)
    file_ids = None
    if data.get("file_ids") is not None:
        try:
            file_ids = FileIds.from_dict(data["file_ids"], first_id + len(merges))
        except FileIdsError as error:
            raise TokenizerFileError(f"the tokenizer file's file_ids are invalid: {error}") from None
    return Saved(settings, alphabet, merges, _read_hash(data["corpus_sha256"]), file_ids)


def _read_settings(data) -> Settings:
    if not isinstance(data, dict):
        raise TokenizerFileError('"settings" must be an object')
    try:
        return Settings(**data)
    except (TypeError, SettingsError) as error:
        raise TokenizerFileError(f"the tokenizer file's settings are invalid: {error}") from None


def _check_budget(settings: Settings, first_id: int, merges: int) -> None:
    try:
        allowed = settings.max_merges(first_id)
    except SettingsError as error:
        raise TokenizerFileError(f"the tokenizer file's settings are invalid: {error}") from None
    if merges > allowed:
        raise TokenizerFileError(f'the file has {merges} merges, more than its "settings" budget allows ({allowed})')


def _read_specials(data, settings: Settings, base_size: int) -> None:
    """The specials are derived from the settings; the field must say the same."""
    expected = [{"id": base_size + i, "text": name} for i, name in enumerate(settings.special_tokens)]
    if data != expected or any(not _whole(item["id"]) for item in data):
        raise TokenizerFileError(f'"specials" must be {json.dumps(expected)}, as the settings '
                                 f'(specials {settings.specials!r}) define them')


def _read_hash(value) -> str:
    if not isinstance(value, str) or (value and not _is_sha256(value)):
        raise TokenizerFileError('"corpus_sha256" must be 64 hexadecimal digits (or "" for an imported tokenizer)')
    return value


def _is_sha256(value: str) -> bool:
    return len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _check_vocab_bytes(merges: list[Merge], alphabet: Alphabet, settings: Settings) -> None:
    """Refuse a file whose tokens would hold more than MAX_VOCAB_BYTES, before building any of them."""
    lengths = [len(token) for token in base_vocab(settings, alphabet)]
    total = sum(lengths)
    for merge in merges:
        lengths.append(lengths[merge.left] + lengths[merge.right])
        total += lengths[-1]
        if total > MAX_VOCAB_BYTES:
            raise TokenizerFileError(f"merge {merge.rank} would take the vocabulary past "
                                     f"{MAX_VOCAB_BYTES >> 20} MiB of token bytes, the most a tokenizer file may hold")


def _read_alphabet(data, settings: Settings) -> Alphabet:
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind != settings.alphabet:
        raise TokenizerFileError(f"the alphabet kind {kind!r} contradicts the settings' {settings.alphabet!r}")
    if Alphabet(kind).byte_level:
        return Alphabet(kind)
    chars = data.get("chars")
    if not isinstance(chars, str) or list(chars) != sorted(set(chars)):
        raise TokenizerFileError('a "chars" alphabet must list distinct characters in code-point order')
    if any("\ud800" <= char <= "\udfff" for char in chars):
        raise TokenizerFileError('a "chars" alphabet cannot hold a lone surrogate: it is no character')
    return Alphabet("chars", chars)


def _read_merges(items, base_size: int, first_id: int) -> list[Merge]:
    if not isinstance(items, list):
        raise TokenizerFileError('"merges" must be a list')
    rows = _well_formed(items, base_size, first_id)
    if rows is not None:  # each row is already a tuple in Merge's field order: made a Merge in C
        return list(map(functools.partial(tuple.__new__, Merge), rows))
    merges, seen = [], set()  # something is wrong: find the first merge at fault, and say why
    for rank, item in enumerate(items):
        if not isinstance(item, dict) or any(not _whole(item.get(f)) for f in _MERGE_FIELDS):
            raise TokenizerFileError(f"merge {rank} must have whole numbers for {', '.join(_MERGE_FIELDS)}")
        merge = Merge(*(item[f] for f in _MERGE_FIELDS))
        _check_merge(merge, rank, base_size, first_id, seen)
        merges.append(merge)
    return merges


def _well_formed(items: list, base_size: int, first_id: int) -> list[tuple[int, ...]] | None:
    """Each merge's fields as a tuple, if every merge passes `_check_merge`'s tests; else None.

    The same tests on whole columns, in C: loading a 100k-merge file should cost little
    more than parsing it. None sends `_read_merges` down the merge-by-merge path, which
    names the first merge at fault."""
    n = len(items)
    if not n:
        return []
    try:
        values = list(map(operator.itemgetter(*_MERGE_FIELDS), items))
    except (KeyError, TypeError, IndexError):
        return None
    if set(map(type, items)) != {dict} or set(map(type, chain.from_iterable(values))) != {int}:
        return None
    ranks, lefts, rights, ids, *numbers = zip(*values)
    if ranks != tuple(range(n)) or ids != tuple(range(first_id, first_id + n)):
        return None
    for side in (lefts, rights):
        if min(side) < 0 or not all(map(operator.lt, side, ids)):
            return None
        if base_size < first_id and any(base_size <= s < first_id for s in set(side)):
            return None
    if min(map(min, numbers)) < 0 or max(map(max, numbers)) >= MAX_COUNT or len(set(zip(lefts, rights))) != n:
        return None
    return values


def _check_merge(merge: Merge, rank: int, base_size: int, first_id: int, seen: set) -> None:
    """Merges contradict each other when ids skip, point forward, use a special, or repeat a pair."""
    specials = range(base_size, first_id)
    if merge.rank != rank or merge.id != first_id + rank:
        raise TokenizerFileError(f"merge {rank} must have rank {rank} and id {first_id + rank}")
    for side in (merge.left, merge.right):
        if not 0 <= side < merge.id or side in specials:
            raise TokenizerFileError(f"merge {rank} uses token {side}, which does not exist before id {merge.id}")
    for field in ("count", "replacements", "ties"):
        if not 0 <= getattr(merge, field) < MAX_COUNT:
            raise TokenizerFileError(f"merge {rank}'s {field} must be from 0 to {MAX_COUNT - 1}")
    if (merge.left, merge.right) in seen:
        raise TokenizerFileError(f"merge {rank} repeats the pair ({merge.left}, {merge.right})")
    seen.add((merge.left, merge.right))
