"""Share links: the view (preset or corpus, settings, round, encoded text) as the page address's query.

A query names only what differs from its preset (or the default preset), so links stay short:

>>> query_to_changes("preset=course&round=2&text=aab")[0]["round"]
2
>>> query_to_changes("round=999999999999")[1]
'This link could not be opened: round must be a whole number from 0 to 1114111. Showing the default view instead.'

Every value is checked before anything is used: names against bpe's own lists, numbers
against bounds, the corpus (base64url of UTF-8 text) against `CORPUS_LIMIT`, the text against
`TEXT_LIMIT`. Anything that looks like HTML, anywhere, rejects the link. Names this page does not
use (such as the tracking tags that sharing sites append) are ignored.
"""
from __future__ import annotations

import base64
import binascii
import re
from urllib.parse import parse_qsl, quote, urlencode

from bpe.presets import PRESETS
from bpe.pretokenize import PRETOKENIZERS
from bpe.settings import ALPHABETS, MAX_VOCAB, SPECIALS, TIES

from .documents import InputError, documents_of
from .state import (
    BUDGETS, COMPARISONS, DEFAULT_PRESET, SETTING_INPUTS, AppState, page_sentence, preset_inputs, training_settings,
)

#: The longest corpus a link holds, in characters (after decoding); a longer one is left out.
CORPUS_LIMIT = 2000
#: The longest encoder text a link holds, in characters.
TEXT_LIMIT = 500
#: The longest query read at all: room for both of the above, even as 4-byte characters.
QUERY_LIMIT = 20_000
#: The largest number any setting or the round may be (bpe's largest vocabulary).
NUMBER_LIMIT = MAX_VOCAB

#: The page's input → its name in a link, in the order links write them.
KEYS = {
    "preset": "preset", "corpus_text": "corpus", "split": "split", "alphabet": "alphabet",
    "pretokenizer": "pretokenizer", "tie": "tie", "specials": "specials", "min_frequency": "min_frequency",
    "budget": "budget", "budget_size": "size", "round": "round", "encode_text": "text", "compare": "compare",
}
INPUTS = {key: name for name, key in KEYS.items()}
#: Inputs whose values read badly in an address, as the words a link uses instead.
WORDS = {
    "split": {"each line": "lines", "blank lines": "paragraphs", "whole text": "whole"},
    "budget": {"merges": "merges", "vocab size": "vocab", "no limit": "none"},
}
assert set(WORDS["budget"]) == set(BUDGETS)
CHOICES = {
    "preset": tuple(PRESETS), "split": tuple(WORDS["split"].values()), "alphabet": ALPHABETS,
    "pretokenizer": tuple(PRETOKENIZERS), "tie": TIES, "specials": tuple(SPECIALS),
    "budget": tuple(WORDS["budget"].values()), "compare": tuple(name for name in COMPARISONS.values() if name),
}
NUMBERS = {"min_frequency": 1, "size": 0, "round": 0}  # key → smallest value
DEFAULTS = {"round": 0, "encode_text": AppState.encode_text, "compare": ""}

_HTML = re.compile(r"<[A-Za-z!/?]")  # where a browser would start a tag, comment or declaration
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # control characters but tab and line breaks
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
_DIGITS = re.compile(r"[0-9]{1,7}")  # ASCII digits only: int() would also take '١٢', '1_0' and ' 12'


class LinkError(ValueError):
    """What is wrong with a link, as the end of a sentence starting 'This link could not be opened: '."""


def baseline(preset: str) -> dict:
    """Every shared input as a link naming only `preset` would set it."""
    return {"preset": preset, **preset_inputs(preset), **DEFAULTS}


def shared_inputs(state) -> dict:
    """The state's values of every input a link can hold."""
    return {name: getattr(state, name) for name in KEYS}


def state_to_query(state) -> str:
    """The query that restores the state's view, without the '?'. What a link cannot hold (see
    `left_out`) is written as its preset has it: the link shows the preset's corpus, or the default text."""
    values, base = shared_inputs(state), baseline(state.preset)
    values.update({name: base[name] for name in _unsharable(state)})
    base["preset"] = DEFAULT_PRESET
    pairs = []
    for name, key in KEYS.items():
        value = values[name]
        if value == base[name]:
            continue
        if name == "corpus_text":
            value = base64.urlsafe_b64encode(value.encode("utf-8")).decode("ascii").rstrip("=")
        pairs.append((key, WORDS.get(name, {}).get(value, value)))
    return urlencode(pairs, quote_via=quote, safe="")


def left_out(state) -> list[str]:
    """What of the state's view a link cannot hold, and why, as phrases for a sentence ([] when it holds it all)."""
    return [f"{WHAT[name]} ({reason})" for name, reason in _unsharable(state).items()]


WHAT = {"corpus_text": "the corpus", "encode_text": "the encoded text"}


def _unsharable(state) -> dict[str, str]:
    """{input: why a link cannot hold it} for the corpus and the encoded text."""
    base = baseline(state.preset)
    out = {}
    for name, limit in (("corpus_text", CORPUS_LIMIT), ("encode_text", TEXT_LIMIT)):
        value = getattr(state, name)
        if value != base[name] and len(value) > limit:
            out[name] = f"a link holds at most {limit:,} characters of it"
        elif value != base[name] and _problem(value):
            out[name] = f"it holds {_problem(value)}"
    return out


def query_to_changes(query: str) -> tuple[dict, str | None]:
    """(every shared input's value, None) for a good query, ({}, message) for any other.

    The values are complete (a missing one is its preset's), so applying them gives the same
    view whatever was shown before. Never raises."""
    try:
        return _changes(query), None
    except LinkError as error:
        return {}, f"This link could not be opened: {error}. Showing the default view instead."


def _changes(query: str) -> dict:
    if len(query) > QUERY_LIMIT:
        raise LinkError(f"it is {len(query):,} characters long, and a link to this page holds at most {QUERY_LIMIT:,}")
    given = _fields(query.removeprefix("?"))
    changes = baseline(_value("preset", given.pop("preset", DEFAULT_PRESET)))
    for key, value in given.items():
        changes[INPUTS[key]] = _value(key, value)
    _check_training(changes)
    return changes


def _fields(query: str) -> dict[str, str]:
    """The query's known fields, percent-decoded, each given once, none holding HTML."""
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query), errors="strict",
                          max_num_fields=2 * len(KEYS))
    except UnicodeDecodeError:
        raise LinkError("its address is garbled (a %-escape that is not UTF-8)") from None
    except ValueError:
        raise LinkError("its address is garbled (it is not a list of name=value pairs)") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if _HTML.search(key) or _HTML.search(value):
            raise LinkError("it holds HTML, which this page never takes from a link")
        if key not in INPUTS:
            continue
        if key in fields:
            raise LinkError(f"it gives {key} twice")
        fields[key] = value
    return fields


def _value(key: str, value: str):
    """A field's value for the page, or LinkError."""
    if key in CHOICES:
        if value not in CHOICES[key]:
            raise LinkError(f"{key} must be one of {', '.join(CHOICES[key])}")
        words = {word: name for name, word in WORDS.get(INPUTS[key], {}).items()}
        return words.get(value, value)
    if key in NUMBERS:
        if not _DIGITS.fullmatch(value) or not NUMBERS[key] <= int(value) <= NUMBER_LIMIT:
            raise LinkError(f"{key} must be a whole number from {NUMBERS[key]} to {NUMBER_LIMIT}")
        return int(value)
    if key == "corpus":
        value = _base64_text(value)
        if not value.strip():
            raise LinkError("its corpus is empty")
    limit = CORPUS_LIMIT if key == "corpus" else TEXT_LIMIT
    if len(value) > limit:
        raise LinkError(f"its {key} is {len(value):,} characters long, and a link holds at most {limit:,}")
    problem = _problem(value)
    if problem:
        raise LinkError(f"its {key} holds {problem}")
    return value


def _base64_text(value: str) -> str:
    if len(value) > 4 * (4 * CORPUS_LIMIT + 2) // 3 + 2:  # more bytes than CORPUS_LIMIT 4-byte characters
        raise LinkError(f"its corpus is over {CORPUS_LIMIT:,} characters long, the most a link holds")
    if not _BASE64URL.fullmatch(value):
        raise LinkError("its corpus is not base64url (letters, digits, - and _)")
    try:
        data = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("its corpus is cut short (base64url that does not decode)") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LinkError(f"its corpus is not UTF-8 text (byte {error.start} is 0x{data[error.start]:02X})") from None


def _problem(text: str) -> str:
    """What makes a text unfit for a link ("" when nothing does)."""
    if _HTML.search(text):
        return "HTML, which this page never takes from a link"
    if _CONTROL.search(text):
        return "control characters"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate, which UTF-8 cannot encode"
    return ""


def _check_training(changes: dict) -> None:
    """LinkError unless the corpus and settings can be trained on."""
    try:
        documents_of(changes["corpus_text"], changes["split"])
        training_settings(**{name: changes[name] for name in SETTING_INPUTS})
    except (InputError, ValueError) as error:  # bpe.SettingsError is a ValueError
        message = page_sentence(str(error)).rstrip(".")
        raise LinkError(message[:1].lower() + message[1:]) from None
