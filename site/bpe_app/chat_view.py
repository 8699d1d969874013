"""The chat box: a conversation's messages, each a role and a text, and below them the
conversation as a real tokenizer's model receives it (`panes.chat`), counted.

The rows follow the state, never the other way round while someone types: a row's text is set
from the state only when it differs from what its box holds (a move, a link, a new preset).
"""
from __future__ import annotations

import panel as pn

from bpe import chat, real

from .state import UPLOAD
from .state.chat import MAX_MESSAGES, TRAINED, chat_pane
from .styles import html_pane, light_button

#: The chat box's tokenizer menu: label → name ("" for none yet); those with no chat format say so.
CHOOSE_LABEL = "choose a tokenizer"
TOKENIZERS = {CHOOSE_LABEL: "", **{(real.LABELS[name] if chat.chat_format(name) else
                                    f"{real.LABELS[name]} (no chat format)"): name for name in real.NAMES},
              "this tokenizer (ChatML, with the ChatML specials)": TRAINED,
              "your tokenizer file (ChatML, if it has ChatML's specials)": UPLOAD}


class MessageRow(pn.viewable.Viewer):
    """One message: its role, its text, and buttons to move it up or down or remove it."""

    def __init__(self, state, index: int, **params):
        super().__init__(**params)
        self.index = index
        message = state.chat_messages[index]
        self.role = pn.widgets.Select(name=f"Message {index + 1}: role", options=list(chat.ROLES),
                                      value=message["role"], width=120, css_classes=["chat-role", f"chat-role-{index}"])
        self.content = pn.widgets.TextAreaInput(name=f"Message {index + 1}: text", value=message["content"],
                                                value_input=message["content"], auto_grow=True, rows=2,
                                                sizing_mode="stretch_width", css_classes=["chat-content", f"chat-content-{index}"])
        # Each control's class names its row, so that the first screen answers it before Panel has started.
        up = light_button(name="↑", css_classes=["chat-up", f"chat-up-{index}"], width=40,
                          description=f"Move message {index + 1} up")
        down = light_button(name="↓", css_classes=["chat-down", f"chat-down-{index}"], width=40,
                            description=f"Move message {index + 1} down")
        remove = light_button(name="✕", css_classes=["chat-remove"], width=40,
                              description=f"Remove message {index + 1}")
        self.role.param.watch(lambda event: state.set_message(self.index, role=event.new), "value")
        self.content.param.watch(lambda event: state.set_message(self.index, content=event.new or ""), "value_input")
        up.on_click(lambda event: state.move_message(self.index, -1))
        down.on_click(lambda event: state.move_message(self.index, 1))
        remove.on_click(lambda event: state.remove_message(self.index))
        # The text box gets the whole width, below its role and buttons: a phone has room for both.
        self._layout = pn.Column(pn.Row(self.role, up, down, remove, margin=0), self.content,
                                 sizing_mode="stretch_width", css_classes=["chat-message"])

    def show(self, message: dict) -> None:
        """Show `message` (the state's), leaving alone what the boxes already hold."""
        if self.role.value != message["role"]:
            self.role.value = message["role"]
        if (self.content.value_input or "") != message["content"]:
            self.content.param.update(value=message["content"], value_input=message["content"])

    def __panel__(self):
        return self._layout


class ChatView(pn.viewable.Viewer):
    """The messages, the tokenizer that counts them, and the conversation as its model receives it."""

    def __init__(self, state, **params):
        super().__init__(**params)
        self._state = state
        menu = pn.widgets.Select(name="Count with", options=TOKENIZERS, value=state.chat_with,
                                 css_classes=["chat-tokenizer"], sizing_mode="stretch_width")
        menu.param.watch(lambda event: setattr(state, "chat_with", event.new), "value")
        state.param.watch(lambda event: setattr(menu, "value", event.new), "chat_with")
        self._add = light_button(name="+ add a message", css_classes=["chat-add"],
                                 description="Add a message at the end of the conversation")
        self._add.on_click(lambda event: state.add_message())
        self._rows: list[MessageRow] = []
        self._messages = pn.Column(sizing_mode="stretch_width", margin=0)
        state.param.watch(self._show, "chat_messages")
        self._show()
        p = state.param
        pane = html_pane(pn.bind(chat_pane, p.chat_messages, p.chat_with, p.loaded, p.training, p.uploaded),
                         css_classes=["bpe-chat-pane"])
        self._layout = pn.Column(menu, self._messages, self._add, pane, sizing_mode="stretch_width")

    def _show(self, *events) -> None:
        messages = self._state.chat_messages
        if len(messages) != len(self._rows):  # rows are made or dropped only when the count changes
            self._rows = [MessageRow(self._state, i) for i in range(len(messages))]
            self._messages.objects = self._rows
        for row, message in zip(self._rows, messages):
            row.show(message)
        self._add.disabled = len(messages) >= MAX_MESSAGES

    def __panel__(self):
        return self._layout
