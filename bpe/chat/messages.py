"""A conversation as the caller gives it: a list of {"role": "system"|"user"|"assistant",
"content": str}, checked item by item, each fault said in one sentence that names the item.

>>> messages_from([{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Hi"}])
[Message(role='system', content='Be terse.'), Message(role='user', content='Hi')]
>>> messages_from([{"role": "tool", "content": "x"}])
Traceback (most recent call last):
...
bpe.chat.messages.ChatError: message 1 has the role 'tool': a role is system, user or assistant
"""
from __future__ import annotations

import json

from ..errors import UserInputError, lone_surrogate
from ..record import Record

ROLES = ("system", "user", "assistant")


class ChatError(UserInputError):
    """A conversation that cannot be rendered; the message says which message and why."""


class Message(Record):
    role: str
    content: str


def messages_from(data) -> list[Message]:
    """The messages of a JSON-decoded conversation, or ChatError for the first thing wrong."""
    if not isinstance(data, list):
        raise ChatError("a conversation is a JSON list of messages, each {\"role\": ..., \"content\": ...}")
    if not data:
        raise ChatError("the conversation is empty: give at least one message")
    out = []
    for number, item in enumerate(data, 1):
        if not isinstance(item, dict):
            raise ChatError(f"message {number} is not an object with a role and a content")
        role, content = item.get("role"), item.get("content")
        if role not in ROLES:
            raise ChatError(f"message {number} has the role {role!r}: a role is system, user or assistant")
        if not isinstance(content, str):
            raise ChatError(f"message {number}'s content is {type(content).__name__}, not a string")
        surrogate = next((char for char in content if "\ud800" <= char <= "\udfff"), None)
        if surrogate:
            raise ChatError(f"message {number}: {lone_surrogate(surrogate)}")
        out.append(Message(role, content))
    return out


def read_messages(text: str) -> list[Message]:
    """The messages of a conversation written as JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ChatError(f"the conversation is not JSON ({error})") from None
    return messages_from(data)
