"""OLMo 2 Instruct's published chat template (its tokenizer_config.json's `chat_template`, the
Tülu 3 format), with the generation prompt when the conversation does not end with the model:

    <|endoftext|><|system|>\\n{system}\\n<|user|>\\n{user}\\n<|assistant|>\\n{reply}<|endoftext|>\\n...<|assistant|>\\n

`<|endoftext|>` is the special (OLMo 2's bos and eos); `<|system|>`, `<|user|>` and
`<|assistant|>` are plain text in the dolma2 vocabulary. The text is encoded as `tokenizers`
encodes it: every added token's text is matched, a message's content included.

>>> from bpe import real
>>> from .messages import Message
>>> [part.text for part in render(real.load("dolma2"), [Message("user", "Hi")])]
['<|endoftext|>', '<|user|>\\nHi\\n', '<|assistant|>\\n']
"""
from __future__ import annotations

from .messages import Message
from .parts import Part, special, text

EOS = "<|endoftext|>"


def render(encoding, messages: list[Message]) -> list[Part]:
    parts = [special(encoding, EOS)]
    for index, message in enumerate(messages):
        last = index == len(messages) - 1
        if message.role == "assistant":
            parts += [text(encoding, f"<|assistant|>\n{message.content}", index, allowed_special="all"),
                      special(encoding, EOS, index)]
            if not last:
                parts.append(text(encoding, "\n", index))
        else:
            parts.append(text(encoding, f"<|{message.role}|>\n{message.content}\n", index, allowed_special="all"))
    if messages[-1].role != "assistant":
        parts.append(text(encoding, "<|assistant|>\n", None))
    return parts
