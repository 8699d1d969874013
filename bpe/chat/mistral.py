"""Mistral's instruct formats, exactly as `mistral_common`'s `encode_chat_completion` builds them
for a conversation of system, user and assistant messages (no tools, images or prefixes).

First the package's checks (`MistralRequestValidator` in its default mode): at least one
message; a conversation of one message is a user or system message; a longer one does not end
with an assistant message; no system message right after an assistant message; an assistant message has
content. Then its normalizer (`InstructRequestNormalizer`): the system messages' contents,
those not empty, joined by a blank line, are the system prompt; runs of user or assistant
messages are joined the same way (a system message between two ends a run); an empty user
message comes first when the first one left is not a user's. Then each version's tokenizer:

- **v3** (Tekken, Mistral v0.3): `<s>`, each user message as `[INST]` text `[/INST]` (control
  tokens), the system prompt and a blank line before the *last* user message's text, each
  assistant message as its text (trailing spaces dropped) and `</s>`.
- **v1** (Mistral v0.1): `<s>`, each user message as the plain text `[INST] text [/INST]`, the
  system prompt and a blank line before the *first* user message's text; assistant as in v3,
  spaces kept.

>>> from bpe import real
>>> from .messages import Message
>>> parts = render(real.load("tekken"), [Message("system", "Be terse."), Message("user", "Hi")], version=3)
>>> [part.text for part in parts]
['<s>', '[INST]', 'Be terse.\\n\\nHi', '[/INST]']
"""
from __future__ import annotations

from .messages import ChatError, Message
from .parts import Part, special, text

JOIN = "\n\n"  # mistral_common's join between messages of a run, and after the system prompt


def check(messages: list[Message]) -> None:
    """mistral_common's structure checks, as ChatError."""
    if len(messages) == 1 and messages[0].role not in ("user", "system"):
        raise ChatError("a conversation of one message is a user or a system message")
    if len(messages) > 1 and messages[-1].role == "assistant":
        raise ChatError("a conversation ends with a user or a system message here, not with the assistant's")
    for number, (before, after) in enumerate(zip(messages, messages[1:]), 2):
        if before.role == "assistant" and after.role == "system":
            raise ChatError(f"message {number} is a system message right after an assistant message")
    for number, message in enumerate(messages, 1):
        if message.role == "assistant" and not message.content:
            raise ChatError(f"message {number} is an assistant message with no content")


def turns(messages: list[Message]) -> tuple[str | None, list[tuple[str, str, list[int]]]]:
    """The system prompt, and the turns: (role, joined content, the messages joined into it).
    Contents are joined by a blank line, the empty ones left out, as mistral_common joins them."""
    prompts = [m.content for m in messages if m.role == "system" and m.content]
    runs: list[tuple[str, list[int]]] = []
    previous = None
    for index, message in enumerate(messages):
        if message.role != "system" and message.role == previous:
            runs[-1][1].append(index)
        elif message.role != "system":
            runs.append((message.role, [index]))
        previous = message.role
    out = [(role, JOIN.join(messages[i].content for i in joined if messages[i].content), joined)
           for role, joined in runs]
    if not out or out[0][0] != "user":
        out.insert(0, ("user", "", []))
    return (JOIN.join(prompts) if prompts else None), out


def render(encoding, messages: list[Message], version: int) -> list[Part]:
    """The conversation's parts in version `version` (1 or 3) of Mistral's format."""
    check(messages)
    prompt, spoken = turns(messages)
    users = [i for i, (role, _, _) in enumerate(spoken) if role == "user"]
    joined_to = users[0] if version == 1 else users[-1]
    parts = [special(encoding, "<s>")]
    for i, (role, content, joined) in enumerate(spoken):
        message = joined[-1] if joined else None
        if role == "assistant":
            parts += [text(encoding, content if version == 1 else content.rstrip(" "), message),
                      special(encoding, "</s>", message)]
            continue
        if prompt and i == joined_to:
            content = prompt + JOIN + content
        if version == 1:
            parts.append(text(encoding, f"[INST] {content} [/INST]", message))
        else:
            parts += [special(encoding, "[INST]", message), text(encoding, content, message),
                      special(encoding, "[/INST]", message)]
    return parts
