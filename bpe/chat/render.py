"""A conversation rendered with a tokenizer's chat format: the parts, the ids, the count, and
each message's share of it.

>>> from bpe import real
>>> from .messages import Message
>>> told = chat(real.load("tekken"), [Message("system", "Be terse."), Message("user", "Hi")])
>>> told.ids, told.per_message, told.note
([1, 3, 5934, 24166, 1338, 37133, 4], [0, 6], 'Mistral puts the system prompt before the last user message: its tokens are counted there.')
"""
from __future__ import annotations

from ..errors import UserInputError
from ..record import Record
from . import chatml, mistral, olmo
from .messages import Message
from .parts import Part

#: What a count says when the format moves the system prompt into a user message.
_LAST = "Mistral puts the system prompt before the last user message: its tokens are counted there."
_FIRST = "Mistral v1 puts the system prompt before the first user message: its tokens are counted there."
_MISTRAL = "mistral_common 1.13.1, encode_chat_completion"
_RECIPE = "OpenAI's counting recipe (num_tokens_from_messages)"
#: Each real tokenizer with a chat format: its renderer, its label, where the format comes from,
#: and what a count says of a system prompt ("" when the prompt keeps its own tokens).
FORMATS = {
    "tekken": (lambda enc, messages: mistral.render(enc, messages, 3), "Mistral v3", _MISTRAL, _LAST),
    "mistral_v3": (lambda enc, messages: mistral.render(enc, messages, 3), "Mistral v3", _MISTRAL, _LAST),
    "mistral_v1": (lambda enc, messages: mistral.render(enc, messages, 1), "Mistral v1", _MISTRAL, _FIRST),
    "cl100k_base": (chatml.recipe, "ChatML", _RECIPE, ""),
    "o200k_base": (chatml.recipe, "ChatML", _RECIPE, ""),
    "dolma2": (olmo.render, "OLMo 2 Instruct", "OLMo 2 Instruct's chat_template, encoded as tokenizers does", ""),
}


class NoChatFormat(UserInputError):
    """A tokenizer with no chat format here."""


class Chat(Record):
    tokenizer: str
    format: str  # the format's label
    parts: list
    messages: int  # how many messages were given (each has a count, maybe 0)
    note: str = ""

    @property
    def ids(self) -> list[int]:
        return [i for part in self.parts for i in part.ids]

    @property
    def count(self) -> int:
        return len(self.ids)

    @property
    def per_message(self) -> list[int]:
        """Each message's tokens, its template tokens included; the template's own ones are in no message."""
        counts = [0] * self.messages
        for part in self.parts:
            if part.message is not None:
                counts[part.message] += len(part.ids)
        return counts


#: Any other tokenizer whose specials hold ChatML's markers (one trained with the `chatml` specials,
#: a tokenizer file): Hugging Face's ChatML chat template.
TEMPLATE = (chatml.template, "ChatML", "the ChatML chat template of Hugging Face's chat-templating guide, encoded "
            "as tokenizers does", "")


def chat_format(name: str) -> str | None:
    """The label of the real tokenizer `name`'s chat format, or None when it has none."""
    return FORMATS[name][1] if name in FORMATS else None


def format_of(encoding) -> tuple | None:
    """(render, label, source, system-prompt note) of `encoding`'s chat format, or None: a real
    tokenizer's own, or ChatML's template for any other whose specials hold its markers."""
    name = getattr(encoding, "name", "")
    if name in FORMATS:
        return FORMATS[name]
    return TEMPLATE if chatml.has_template(encoding) else None


def chat(encoding, messages: list[Message]) -> Chat:
    """`messages` rendered with `encoding`'s chat format (a `bpe.real` tokenizer, or one with
    ChatML's specials: see `format_of`), or NoChatFormat."""
    name = getattr(encoding, "name", "")
    found = format_of(encoding)
    if found is None:
        raise NoChatFormat(f"{getattr(encoding, 'label', '') or name or 'this tokenizer'} has no chat format here: "
                           f"the real tokenizers with one are {', '.join(FORMATS)}, and a tokenizer trained with "
                           f"the ChatML specials (or a file with {chatml.START} and {chatml.END}) has ChatML's")
    render, label, _, prompt_note = found
    parts: list[Part] = render(encoding, messages)
    prompted = any(m.role == "system" and m.content for m in messages)
    return Chat(name, label, parts, len(messages), prompt_note if prompted else "")
