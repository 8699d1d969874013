"""The chat box without a browser: the state's conversation, the view's rows, the pane (drawn by
`panes.chat.chat_html` alone) and share links that hold the conversation."""
from __future__ import annotations

import pytest

pytest.importorskip("panel")

from bpe import chat, real  # noqa: E402
from bpe_app.chat_view import TOKENIZERS, ChatView  # noqa: E402
from bpe_app.link_fields import FIELDS  # noqa: E402
from bpe.panes.chat import chat_html  # noqa: E402
from bpe_app.share import left_out, query_to_changes, state_to_query  # noqa: E402
from bpe_app.state import UPLOAD, AppState  # noqa: E402
from bpe_app.state.chat import MAX_MESSAGES, TRAINED  # noqa: E402


def test_the_rows_follow_the_conversation():
    state = AppState(preset="course")
    view = ChatView(state)
    state.add_message()
    assert [row.role.value for row in view._rows] == ["system", "user", "assistant"]
    state.set_message(2, content="Sure.")
    state.move_message(2, -1)
    assert [row.content.value_input for row in view._rows][1:] == ["Sure.", "How many tokens is this conversation?"]
    state.remove_message(0)
    assert len(view._rows) == 2 and view._rows[0].role.value == "assistant"
    view._rows[0].role.value = "user"  # the person picks another role
    assert state.chat_messages[0]["role"] == "user"


def test_the_box_holds_at_most_max_messages():
    state = AppState(preset="course")
    view = ChatView(state)
    for _ in range(MAX_MESSAGES + 3):
        state.add_message()
    assert len(state.chat_messages) == MAX_MESSAGES and view._add.disabled


def test_the_pane_is_the_renderers_html():
    state = AppState(preset="course")
    pane = ChatView(state).__panel__().objects[-1]
    assert pane.object == chat_html(state.chat_messages, "", None)
    state.chat_with = "o200k_base"  # loaded at once outside the page
    assert pane.object == chat_html(state.chat_messages, "o200k_base", real.load("o200k_base"))
    told = chat.chat(real.load("o200k_base"), chat.messages_from(state.chat_messages))
    assert f'class="bpe-chat-count">{told.count} tokens' in pane.object


def test_a_special_token_typed_in_a_message_is_named_on_the_page_not_counted():
    """GPT-4o's count follows the recipe, which refuses it: the pane says which message, as text."""
    state = AppState(preset="course")
    pane = ChatView(state).__panel__().objects[-1]
    state.chat_with = "o200k_base"
    state.set_message(1, content="Say <|endoftext|> twice")
    assert "Message 2 holds the special token &#x27;&lt;|endoftext|&gt;&#x27; at character 4" in pane.object
    assert "bpe-chat-count" not in pane.object  # no count is shown for a conversation the recipe refuses


def test_every_real_tokenizer_is_in_the_menu_and_says_whether_it_has_a_chat_format():
    assert set(TOKENIZERS.values()) == {"", *real.NAMES, TRAINED, UPLOAD}
    for label, name in TOKENIZERS.items():
        if name in real.NAMES:
            assert label.endswith("(no chat format)") == (chat.chat_format(name) is None)


def test_the_tokenizer_trained_here_counts_in_chatml_once_it_has_chatmls_specials():
    from bpe.real.imported import ImportedEncoding

    state = AppState(preset="octlm")
    state.param.update(chat_with=TRAINED, chat_messages=[{"role": "user", "content": "def total(x): return x"}])
    pane = ChatView(state).__panel__().objects[-1]
    assert "has no chat format here" in pane.object and "trained with the ChatML specials" in pane.object
    state.specials = "chatml"  # retrains: ids 256-258 are ChatML's now
    ours = ImportedEncoding("", "this tokenizer", state.training.tokenizer, [])
    told = chat.chat(ours, chat.messages_from(state.chat_messages))
    assert f'class="bpe-chat-count">{told.count} tokens' in pane.object and "ChatML format" in pane.object
    assert 'data-id="257" title="257: &lt;|im_start|&gt;' in pane.object  # the template's special, marked
    assert 'data-vocab' not in pane.object.split("bpe-chat-chips")[1].split("</div>")[0]  # this tokenizer's chips
    changes, error = query_to_changes(state_to_query(state))
    assert error is None and changes["chat_with"] == TRAINED


def test_an_uploaded_file_with_chatmls_specials_counts_in_chatml(tmp_path):
    import bpe
    from bpe import formats

    state = AppState(preset="course")
    state.chat_with = UPLOAD
    pane = ChatView(state).__panel__().objects[-1]
    assert "Upload a tokenizer file first" in pane.object
    trained = bpe.train(["<|im_start|>user\nHi<|im_end|>\n"] * 5, bpe.Settings(pretokenizer="gpt2", specials="chatml", merges=8))
    state.load_tokenizer_file("chatml.json", formats.to_hf_json(trained.tokenizer).encode(), "gpt2")
    assert state.uploaded is not None and "ChatML format" in pane.object and "As chatml.json receives it" in pane.object
    changes, _ = query_to_changes(state_to_query(state))
    assert changes["chat_with"] == ""  # no link can hold an uploaded file, and the page says so once
    assert left_out(state) == ["the uploaded tokenizer file (a link cannot hold a file)"]


def test_a_link_holds_the_conversation_and_the_tokenizer():
    state = AppState(preset="course")
    state.param.update(chat_with="tekken", chat_messages=[{"role": "user", "content": "Hola ☕\nqué tal"}])
    changes, error = query_to_changes(state_to_query(state))
    assert error is None and changes["chat_messages"] == state.chat_messages and changes["chat_with"] == "tekken"
    assert "chat" not in state_to_query(AppState(preset="course"))  # the default conversation is not written


@pytest.mark.parametrize("messages, words", [
    ([{"role": "robot", "content": "x"}], "role 'robot'"),
    ([{"role": "user", "content": "<script>"}], "HTML"),
    ("not a list", "a JSON list of messages"),
])
def test_a_link_with_a_bad_conversation_is_refused_by_name(messages, words):
    import base64
    import json

    word = base64.urlsafe_b64encode(json.dumps(messages).encode()).decode().rstrip("=")
    changes, error = query_to_changes(f"{FIELDS['chat_messages'].key}={word}")
    assert changes == {} and words in error


def test_a_conversation_a_link_cannot_hold_is_said():
    state = AppState(preset="course")
    state.chat_messages = [{"role": "user", "content": "<b>bold</b>"}]
    assert any("the conversation" in reason and "HTML" in reason for reason in left_out(state))
    assert "chat=" not in state_to_query(state)
