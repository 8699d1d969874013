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

from urllib.parse import parse_qsl, quote, urlencode

from .link_fields import BY_KEY, CORPUS_LIMIT, FIELDS, TEXT_LIMIT, LinkError, has_html, problem
from .state import DEFAULT_PRESET, UPLOAD, AppState
from .state.documents import InputError, documents_of
from .state.inputs import B, B_INPUTS, SETTING_INPUTS, b_inputs, preset_inputs, sentence, training_settings

__all__ = ["CORPUS_LIMIT", "KEYS", "TEXT_LIMIT", "LinkError", "left_out", "query_to_changes", "state_to_query"]

#: The page's input -> its name in a link, in the order links write them.
KEYS = {name: field.key for name, field in FIELDS.items()}
#: The longest query read at all: room for the corpus and the text, even as 4-byte characters.
QUERY_LIMIT = 20_000
_DEFAULTS = {name: AppState.param[name].default
             for name in ("round", "encode_text", "compare", "compare_b", "tour", "tour_step", "decode_ids",
                          "specials_in_text", "chat_with", "chat_messages")}
#: What `left_out` calls an uploaded tokenizer file.
_UPLOADED = "the uploaded tokenizer file (a link cannot hold a file)"


def baseline(preset: str) -> dict:
    """Every shared input as a link naming only `preset` would set it."""
    return {"preset": preset, **preset_inputs(preset), **b_inputs(preset), **_DEFAULTS}


def shared_inputs(state) -> dict:
    """The state's values of every input a link can hold."""
    return {name: getattr(state, name) for name in FIELDS}


def state_to_query(state) -> str:
    """The query that restores the state's view, without the '?'. What a link cannot hold (see
    `left_out`) is written as its preset has it: the link shows the preset's corpus, or the default text."""
    values, base = shared_inputs(state), baseline(state.preset)
    values.update({name: base[name] for name in _unsharable(state)})
    if not values["compare_b"]:
        values.update({name: base[name] for name in B_INPUTS})  # B's settings are not shown, so not shared
    base["preset"] = DEFAULT_PRESET
    pairs = [(field.key, field.write(values[name])) for name, field in FIELDS.items() if values[name] != base[name]]
    return urlencode(pairs, quote_via=quote, safe="")


def left_out(state) -> list[str]:
    """What of the state's view a link cannot hold, and why, as phrases for a sentence ([] when it holds it all)."""
    reasons = [reason if reason == _UPLOADED else f"{FIELDS[name].what} ({reason})"
               for name, reason in _unsharable(state).items()]
    return list(dict.fromkeys(reasons))  # an uploaded file compared with and chatted with is said once


def _unsharable(state) -> dict[str, str]:
    """{input: why a link cannot hold it} for the corpus and the encoded text."""
    base = baseline(state.preset)
    out = {}
    for name in ("corpus_text", "encode_text", "decode_ids"):
        value, limit = getattr(state, name), FIELDS[name].limit
        if value != base[name] and len(value) > limit:
            out[name] = f"a link holds at most {limit:,} characters of it"
        elif value != base[name] and problem(value):
            out[name] = f"it holds {problem(value)}"
    field = FIELDS["chat_messages"]
    if state.chat_messages != base["chat_messages"]:
        length = len(field.text(state.chat_messages))
        found = next((problem(m["content"]) for m in state.chat_messages if problem(m["content"])), "")
        if length > field.limit:
            out["chat_messages"] = f"a link holds at most {field.limit:,} characters of it"
        elif found:
            out["chat_messages"] = f"it holds {found}"
    for name in ("compare", "chat_with"):
        if getattr(state, name) == UPLOAD:
            out[name] = _UPLOADED
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
    changes = baseline(FIELDS["preset"].read(given.pop("preset", DEFAULT_PRESET)))
    for key, word in given.items():
        changes[BY_KEY[key].input] = BY_KEY[key].read(word)
    _check_training(changes)
    return changes


def tour_shows(query: str) -> bool:
    """Whether a link's tour step should set the page as the tour does: a link that names a tour but
    not the round, the text or B (one written by hand, `?tour=course&step=3`). The page's own links
    hold what the visitor did at that step, and restore that.

    >>> tour_shows("tour=course&step=3"), tour_shows("tour=course&step=3&round=1"), tour_shows("round=1")
    (True, False, False)
    """
    try:
        given = _fields(query.removeprefix("?"))
    except LinkError:
        return False
    return KEYS["tour"] in given and not {KEYS["round"], KEYS["encode_text"], KEYS["compare_b"]} & set(given)


def _fields(query: str) -> dict[str, str]:
    """The query's known fields, percent-decoded, each given once, none holding HTML."""
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query), errors="strict",
                          max_num_fields=2 * len(FIELDS))
    except UnicodeDecodeError:
        raise LinkError("its address is garbled (a %-escape that is not UTF-8)") from None
    except ValueError:
        raise LinkError("its address is garbled (it is not a list of name=value pairs)") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if has_html(key) or has_html(value):
            raise LinkError("it holds HTML, which this page never takes from a link")
        if key not in BY_KEY:
            continue
        if key in fields:
            raise LinkError(f"it gives {key} twice")
        fields[key] = value
    return fields


def _check_training(changes: dict) -> None:
    """LinkError unless the corpus and settings (B's too, if the link has a B) can be trained on."""
    try:
        documents_of(changes["corpus_text"], changes["split"])
        training_settings(**{name: changes[name] for name in SETTING_INPUTS})
    except (InputError, ValueError) as error:  # bpe.SettingsError is a ValueError
        raise LinkError(_lowered(error)) from None
    if changes["compare_b"]:
        try:
            training_settings(**{name: changes[B + name] for name in SETTING_INPUTS})
        except ValueError as error:
            raise LinkError(f"B's {_lowered(error)}") from None


def _lowered(error: Exception) -> str:
    """The page's sentence for an error, as the end of another sentence."""
    message = sentence(error).rstrip(".")
    return message[:1].lower() + message[1:]
