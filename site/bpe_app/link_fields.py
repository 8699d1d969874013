"""What a share link can hold: one field for each shared input of `AppState`, derived from its
declaration (a choice, a number or a text) and from `bpe.options` (each value's word in a link).

A field writes its input's value as a link word and reads it back, or raises LinkError.

>>> FIELDS["split"].write("blank lines"), FIELDS["split"].read("paragraphs")
('paragraphs', 'blank lines')
>>> FIELDS["tie"].read("random")
Traceback (most recent call last):
...
bpe_app.link_fields.LinkError: tie must be one of smallest, largest-text
"""
from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import re

import param

from bpe.options import ALPHABET, BUDGET, DOCUMENTS, PRETOKENIZER, SPECIALS, TIE
from bpe.settings import MAX_VOCAB

from .state import UPLOAD, AppState
from .state.inputs import B, B_INPUTS

#: The longest corpus a link holds, in characters (after decoding); a longer one is left out.
CORPUS_LIMIT = 2000
#: The longest encoder text a link holds, in characters.
TEXT_LIMIT = 500
#: The longest list of ids a link holds, in characters (a few hundred ids).
IDS_LIMIT = 2000
#: The longest conversation a link holds, in characters of its JSON.
CHAT_LIMIT = 2000
#: The largest number any setting or the round may be (bpe's largest vocabulary).
NUMBER_LIMIT = MAX_VOCAB

_HTML = re.compile(r"<[A-Za-z!/?]")  # where a browser would start a tag, comment or declaration
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # control characters but tab and line breaks
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
_DIGITS = re.compile(r"[0-9]{1,7}")  # ASCII digits only: int() would also take '١٢', '1_0' and ' 12'


class LinkError(ValueError):
    """What is wrong with a link, as the end of a sentence starting 'This link could not be opened: '."""


def has_html(text: str) -> bool:
    return _HTML.search(text) is not None


def problem(text: str) -> str:
    """What makes a text unfit for a link ("" when nothing does)."""
    if has_html(text):
        return "HTML, which this page never takes from a link"
    if _CONTROL.search(text):
        return "control characters"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate, which UTF-8 cannot encode"
    return ""


@dataclasses.dataclass(frozen=True)
class Choice:
    input: str
    key: str
    words: dict  # the input's value -> its word in a link

    def write(self, value) -> str:
        return self.words[value]

    def read(self, word: str):
        for value, known in self.words.items():
            if known == word:
                return value
        raise LinkError(f"{self.key} must be one of {', '.join(self.words.values())}")


@dataclasses.dataclass(frozen=True)
class Number:
    input: str
    key: str

    def write(self, value: int) -> str:
        return str(value)

    def read(self, word: str) -> int:
        if not _DIGITS.fullmatch(word) or int(word) > NUMBER_LIMIT:
            raise LinkError(f"{self.key} must be a whole number from 0 to {NUMBER_LIMIT}")
        return int(word)


@dataclasses.dataclass(frozen=True)
class Text:
    input: str
    key: str
    limit: int
    what: str  # how a sentence names it
    encoded: bool = False  # base64url of its UTF-8, which keeps line breaks and any character

    def write(self, value: str) -> str:
        return base64.urlsafe_b64encode(value.encode("utf-8")).decode("ascii").rstrip("=") if self.encoded else value

    def read(self, word: str) -> str:
        value = _base64_text(word, self.limit) if self.encoded else word
        if self.encoded and not value.strip():
            raise LinkError(f"its {self.key} is empty")
        if len(value) > self.limit:
            raise LinkError(f"its {self.key} is {len(value):,} characters long, and a link holds at most {self.limit:,}")
        found = problem(value)
        if found:
            raise LinkError(f"its {self.key} holds {found}")
        return value


@dataclasses.dataclass(frozen=True)
class Ids(Text):
    """The decode box's ids, as typed: text that `bpe.encoding.decoding.parse_ids` reads (whether each id
    is in range depends on the tokenizer, and the decode box says so)."""

    def read(self, word: str) -> str:
        from bpe.encoding.decoding import IdsError, parse_ids

        value = super().read(word)
        try:
            parse_ids(value)
        except IdsError as error:
            raise LinkError(f"its ids are not a list of ids ({str(error).rstrip('.')})") from None
        return value


def _base64_text(word: str, limit: int, what: str = "corpus") -> str:
    if len(word) > 4 * (4 * limit + 2) // 3 + 2:  # more bytes than `limit` 4-byte characters
        raise LinkError(f"its {what} is over {limit:,} characters long, the most a link holds")
    if not _BASE64URL.fullmatch(word):
        raise LinkError(f"its {what} is not base64url (letters, digits, - and _)")
    try:
        data = base64.urlsafe_b64decode(word.rstrip("=") + "=" * (-len(word.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise LinkError(f"its {what} is cut short (base64url that does not decode)") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LinkError(f"its {what} is not UTF-8 text (byte {error.start} is 0x{data[error.start]:02X})") from None


@dataclasses.dataclass(frozen=True)
class Conversation:
    """The chat box's messages: base64url of their JSON, each message checked as `bpe chat` checks it.

    >>> field = Conversation("chat_messages", "chat")
    >>> field.read(field.write([{"role": "user", "content": "Hi ☕"}]))
    [{'role': 'user', 'content': 'Hi ☕'}]
    """
    input: str
    key: str
    limit: int = CHAT_LIMIT
    what: str = "the conversation"

    @staticmethod
    def text(messages: list[dict]) -> str:
        return json.dumps(messages, ensure_ascii=False, separators=(",", ":"))

    def write(self, messages: list[dict]) -> str:
        return base64.urlsafe_b64encode(self.text(messages).encode("utf-8")).decode("ascii").rstrip("=")

    def read(self, word: str) -> list[dict]:
        from bpe import chat

        text = _base64_text(word, self.limit, "conversation")
        if len(text) > self.limit:
            raise LinkError(f"its conversation is {len(text):,} characters long, and a link holds at most {self.limit:,}")
        try:
            messages = chat.messages_from(json.loads(text))
        except (ValueError, chat.ChatError) as error:  # not JSON, or a message that is not one
            raise LinkError(f"its conversation is not a list of messages ({str(error).rstrip('.')})") from None
        found = next((problem(m.content) for m in messages if problem(m.content)), "")
        if found:
            raise LinkError(f"its conversation holds {found}")
        return [m.as_dict() for m in messages]


#: Each option whose value a link writes by the registry's word for it; the page holds the
#: split and the budget by their labels, the others by their names.
_OPTIONS = {"alphabet": ALPHABET, "pretokenizer": PRETOKENIZER, "tie": TIE, "specials": SPECIALS}
_LABELLED = {"split": DOCUMENTS, "budget": BUDGET}
#: Inputs whose name in a link is shorter than the input's.
_KEYS = {"corpus_text": "corpus", "budget_size": "size", "encode_text": "text", "compare_b": "b", "tour_step": "step",
         "decode_ids": "ids", "chat_messages": "chat", "specials_in_text": "in_text"}
_TEXTS = {"corpus_text": (CORPUS_LIMIT, "the corpus", True), "encode_text": (TEXT_LIMIT, "the encoded text", False),
          "decode_ids": (IDS_LIMIT, "the decoded ids", False)}
#: The inputs a link holds, in the order links write them.
SHARED = ("preset", "corpus_text", "split", "alphabet", "pretokenizer", "tie", "specials", "min_frequency",
          "budget", "budget_size", "round", "encode_text", "compare", "compare_b", *B_INPUTS, "tour", "tour_step",
          "decode_ids", "specials_in_text", "chat_with", "chat_messages")
#: A yes-or-no input's words in a link.
FLAG = {False: "0", True: "1"}


def _words(name: str, declared: param.Selector) -> dict:
    name = name.removeprefix(B)  # B's inputs take A's words
    if name in _OPTIONS:
        return {value: _OPTIONS[name].choose(value).link_word for value in declared.objects}
    if name in _LABELLED:
        return {value: _LABELLED[name].labelled(value).link_word for value in declared.objects}
    # Presets, and the real tokenizers by name; not an uploaded file, which no link can hold.
    return {value: value for value in declared.objects if value and value != UPLOAD}


def _key(name: str) -> str:
    """The input's name in a link: B's inputs are A's with b_ in front (b_tie, b_size)."""
    if name.startswith(B) and name in B_INPUTS:
        return B + _key(name.removeprefix(B))
    return _KEYS.get(name, name)


def _field(name: str):
    declared, key = AppState.param[name], _key(name)
    if isinstance(declared, param.Boolean):
        return Choice(name, key, FLAG)
    if isinstance(declared, param.Selector):
        return Choice(name, key, _words(name, declared))
    if isinstance(declared, param.Integer):
        return Number(name, key)
    if isinstance(declared, param.List):
        return Conversation(name, key)
    return (Ids if name == "decode_ids" else Text)(name, key, *_TEXTS[name])


FIELDS = {name: _field(name) for name in SHARED}
BY_KEY = {field.key: field for field in FIELDS.values()}
