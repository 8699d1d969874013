"""The chat box's conversation: its messages, and the tokenizer whose chat format counts it: a real
one (loaded on first use into `Comparison.loaded`, which the other counts share), the tokenizer
trained here, or the uploaded file (both count in ChatML when their specials are ChatML's).

>>> from .app_state import AppState
>>> state = AppState(preset="course")
>>> state.add_message(); state.move_message(2, -1); [m["role"] for m in state.chat_messages]
['system', 'assistant', 'user']
>>> state.chat_with = "cl100k_base"
>>> state.loaded["cl100k_base"].name
'cl100k_base'
"""
from __future__ import annotations

import functools

import param

import bpe
from bpe import real
from bpe.panes.chat import chat_html
from bpe.real.imported import ImportedEncoding

from . import real_tokenizers
from .comparison import UPLOAD

#: The conversation the chat box opens with.
DEFAULT_CHAT = ({"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": "How many tokens is this conversation?"})
#: The most messages the box holds (a link, and a phone's screen, hold that many).
MAX_MESSAGES = 20
#: `chat_with` for the tokenizer trained here (A's, with all its merges).
TRAINED = "trained"


def chat_encoding(name: str, loaded: dict, training: bpe.Training | None, uploaded: real.Encoding | None):
    """The tokenizer `chat_with` names, as `bpe.chat` takes it; None while a real one is loading
    (or no file is uploaded).

    >>> t = bpe.train(["a b"], bpe.Settings(specials="chatml", merges=1))
    >>> chat_encoding(TRAINED, {}, t, None).special_tokens["<|im_start|>"], chat_encoding("cl100k_base", {}, t, None)
    (257, None)
    """
    if name == TRAINED:
        return None if training is None else _trained(training)
    if name == UPLOAD:
        return uploaded
    return loaded.get(name)


def chat_pane(messages: list[dict], name: str, loaded: dict, training: bpe.Training | None,
              uploaded: real.Encoding | None) -> str:
    """The chat pane's HTML from the state's parameters: what the view binds and the first screen calls."""
    return chat_html(messages, name, chat_encoding(name, loaded, training, uploaded))


@functools.lru_cache(maxsize=2)
def _trained(training: bpe.Training) -> ImportedEncoding:
    # Named "", as the page names this tokenizer's vocabulary: its chips open in the inspector.
    return ImportedEncoding("", "this tokenizer", training.tokenizer, [])


class Chat(param.Parameterized):
    chat_messages = param.List(default=list(DEFAULT_CHAT), item_type=dict, doc="""
        The conversation, as {"role": "system" | "user" | "assistant", "content": text} each.""")
    chat_with = param.Selector(default="", objects=["", *real.NAMES, TRAINED, UPLOAD], doc="""
        The tokenizer whose chat format counts the conversation: a real one by name, the one trained
        here (`TRAINED`), the uploaded file (`UPLOAD`), or "" for none chosen yet.""")

    def set_message(self, index: int, role: str | None = None, content: str | None = None) -> None:
        """Change one message's role or content (an index out of range is ignored)."""
        if 0 <= index < len(self.chat_messages):
            messages = [dict(m) for m in self.chat_messages]
            messages[index].update({k: v for k, v in (("role", role), ("content", content)) if v is not None})
            self.chat_messages = messages

    def add_message(self) -> None:
        """A new, empty message at the end: the user's after the assistant's, else the assistant's."""
        if len(self.chat_messages) < MAX_MESSAGES:
            last = self.chat_messages[-1]["role"] if self.chat_messages else "assistant"
            role = "user" if last == "assistant" else "assistant"
            self.chat_messages = [*self.chat_messages, {"role": role, "content": ""}]

    def remove_message(self, index: int) -> None:
        if 0 <= index < len(self.chat_messages):
            self.chat_messages = [m for i, m in enumerate(self.chat_messages) if i != index]

    def move_message(self, index: int, delta: int) -> None:
        """Move a message up (-1) or down (1), within the conversation."""
        other = index + delta
        if 0 <= index < len(self.chat_messages) and 0 <= other < len(self.chat_messages):
            messages = list(self.chat_messages)
            messages[index], messages[other] = messages[other], messages[index]
            self.chat_messages = messages

    @param.depends("chat_with", watch=True)
    def _load_chat_tokenizer(self) -> None:
        """Load the tokenizer chosen, a moment later (a second or two in the browser)."""
        name = self.chat_with
        if name in real.NAMES and name not in self.loaded:
            self.busy = True
            self.later(lambda: self._loaded_chat_tokenizer(name))

    def _loaded_chat_tokenizer(self, name: str) -> None:
        try:
            encoding = real_tokenizers.load(name)
        except real_tokenizers.LoadError as error:
            self.param.update(chat_with="", message=str(error), message_kind="error", busy=False)
            return
        self.param.update(loaded={**self.loaded, name: encoding}, busy=False)
