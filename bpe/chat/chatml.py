"""ChatML, two ways.

`recipe`: as OpenAI's published counting recipe counts it (the cookbook's
`num_tokens_from_messages` for the gpt-3.5-turbo and gpt-4 family): each message is
`<|im_start|>`, its role, `<|im_sep|>`, its content and `<|im_end|>` (3 tokens, plus the role's
and the content's), and the reply is primed with `<|im_start|>assistant<|im_sep|>` (3 more).
Role and content are encoded as the recipe encodes them, with tiktoken's `encode`: a special
token's text in a message is refused.

The three specials are not among tiktoken's own cl100k_base and o200k_base specials; their ids
are those tools that render ChatML give them: 100264 and 100265 as tiktoken's README extends
cl100k_base (`cl100k_im`), and gpt-tokenizer 4.0.0's for the rest (OpenAI publishes none for
o200k_base). The count does not depend on them.

`template`: as the ChatML chat template of Hugging Face's chat-templating guide (and of many open
models' tokenizer_config.json) writes it, for any tokenizer whose specials include `<|im_start|>`
and `<|im_end|>` (one trained here with the `chatml` specials, or a tokenizer file):

    {% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{{ '<|im_start|>assistant\\n' }}

encoded as `tokenizers` encodes the text: every special's text is matched, a message's content
included.

>>> from bpe import real
>>> from .messages import Message
>>> parts = recipe(real.load("o200k_base"), [Message("user", "Hi")])
>>> [part.ids for part in parts][:4]
[(200003,), (1428,), (200005,), (12194,)]
"""
from __future__ import annotations

from ..encoding.specials import DisallowedSpecial
from .messages import ChatError, Message
from .parts import Part, special, text

#: The markers of a message, in either way.
START, END = "<|im_start|>", "<|im_end|>"
#: The ChatML specials' ids, per tokenizer (for the recipe).
IDS = {
    "cl100k_base": {"<|im_start|>": 100264, "<|im_end|>": 100265, "<|im_sep|>": 100266},
    "o200k_base": {"<|im_start|>": 200003, "<|im_end|>": 200004, "<|im_sep|>": 200005},
}


def recipe(encoding, messages: list[Message]) -> list[Part]:
    ids = IDS[encoding.name]
    parts = []
    for index, message in enumerate(messages):
        parts += [special(encoding, "<|im_start|>", index, ids), text(encoding, message.role, index, allowed_special=frozenset()),
                  special(encoding, "<|im_sep|>", index, ids), _content(encoding, message.content, index),
                  special(encoding, "<|im_end|>", index, ids)]
    return parts + [special(encoding, "<|im_start|>", None, ids), text(encoding, "assistant", None, allowed_special=frozenset()),
                    special(encoding, "<|im_sep|>", None, ids)]


def _content(encoding, content: str, index: int) -> Part:
    """A message's content as the recipe's tiktoken.encode takes it: a special token's text refused,
    said as the chat's reader counts messages."""
    try:
        return text(encoding, content, index, allowed_special=frozenset())
    except DisallowedSpecial as error:
        raise ChatError(f"message {index + 1} holds the special token {error.token!r} at character {error.offset}, "
                        "which OpenAI's counting recipe refuses (tiktoken's encode does by default): take it out "
                        "to count the conversation") from None


def has_template(encoding) -> bool:
    """Whether `encoding`'s specials hold the two markers the template writes."""
    return {START, END} <= set(getattr(encoding, "special_tokens", {}))


def template(encoding, messages: list[Message]) -> list[Part]:
    parts = []
    for index, message in enumerate(messages):
        parts += [special(encoding, START, index), text(encoding, f"{message.role}\n{message.content}", index, "all"),
                  special(encoding, END, index), text(encoding, "\n", index)]
    return parts + [special(encoding, START), text(encoding, "assistant\n", None)]
