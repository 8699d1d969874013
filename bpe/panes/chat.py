"""The chat box's HTML: the conversation as the model receives it, the template's special tokens
marked, its ids, the total count and each message's.

>>> from bpe import real
>>> page = chat_html([{"role": "user", "content": "Hi <b>"}], "cl100k_base", real.load("cl100k_base"))
>>> 'class="bpe-chat-count">11 tokens' in page, "<b>" in page.replace('<b class="bpe-chat-count">', "")
(True, False)
>>> chat_html([{"role": "user", "content": "Hi"}], "whisper", real.load("whisper"))[:86]
'<div class="bpe-note bpe-chat-note" aria-live="polite">Whisper has no chat format here'
"""
from __future__ import annotations

import html

from .. import chat, real

from .chips import grouped_chips, special_chip, token_chip
from .wording import plural

#: What the box says before a tokenizer is chosen.
CHOOSE = "Choose a tokenizer above to see this conversation as its model receives it."
#: What it says of an uploaded file before there is one.
UPLOAD_FIRST = ("Upload a tokenizer file first (under the comparison, above): one whose special tokens hold "
                "<|im_start|> and <|im_end|> counts in ChatML.")


def _note(text: str) -> str:
    return f'<div class="bpe-note bpe-chat-note" aria-live="polite">{html.escape(text)}</div>'


def chat_html(messages: list[dict], name: str, encoding: real.Encoding | None) -> str:
    """The conversation rendered with `name`'s chat format (`encoding`: that tokenizer once loaded;
    a name that is no real tokenizer's is a tokenizer of the page's own: the trained one, a file)."""
    if not name:
        return _note(CHOOSE)
    if encoding is None:
        return _note(f"Loading {real.LABELS[name]}…" if name in real.LABELS else UPLOAD_FIRST)
    try:
        told = chat.chat(encoding, chat.messages_from(messages))
    except ValueError as error:  # ChatError, NoChatFormat, DisallowedSpecial: the user's input
        return _note(str(error).rstrip(".")[:1].upper() + str(error).rstrip(".")[1:] + ".")
    chips = []
    for part in told.parts:
        if part.special:
            chips.append(special_chip(part.ids[0], part.text, "a special token of the chat format"))
        else:
            tokens = [encoding.token_bytes(i) for i in part.ids]
            chips.append(grouped_chips([token_chip(i, t, vocab=encoding.name) for i, t in zip(part.ids, tokens)], tokens))
    rows = "".join(f'<tr><td>{k + 1}</td><td>{html.escape(m["role"])}</td><td class="bpe-num">{n:,}</td></tr>'
                   for k, (m, n) in enumerate(zip(messages, told.per_message)))
    template = told.count - sum(told.per_message)
    if template:
        rows += f'<tr><td></td><td>the template, priming the reply</td><td class="bpe-num">{template:,}</td></tr>'
    note = f'<div class="bpe-note">{html.escape(told.note)}</div>' if told.note else ""
    ids = " ".join(map(str, told.ids))
    label = real.LABELS.get(name) or getattr(encoding, "label", "") or name
    return (f'<div class="bpe-heading">As {html.escape(label)} receives it, in the '
            f'{html.escape(told.format)} format: <b class="bpe-chat-count">{plural(told.count, "token")}</b></div>'
            f'<div class="bpe-encoded bpe-chat-chips">{"".join(chips)}</div>'
            f'<div class="bpe-ids">ids: [<span class="bpe-chat-ids">{ids}</span>]</div>{note}'
            f'<table class="bpe-counts bpe-chat-counts"><thead><tr><th>message</th><th>role</th><th>tokens</th></tr>'
            f'</thead><tbody>{rows}</tbody></table>')
