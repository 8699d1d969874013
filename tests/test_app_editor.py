"""The corpus editor keeps a long corpus from an upload out of the browser's text box until asked
(a 2 MB text box froze the page for seconds), and never loses or hides what the person typed."""
from __future__ import annotations

import pytest

pytest.importorskip("panel")

from bpe_app.corpus_editor import EDITOR_CHARS, CorpusEditor  # noqa: E402
from bpe_app.state import AppState  # noqa: E402

LONG = "walk talk " * (EDITOR_CHARS // 10) + "walked\n"
OTHER = "strawberry " * (EDITOR_CHARS // 11 + 1)


def shows(editor: CorpusEditor, text: str) -> bool:
    return editor.box.visible and editor.box.value == text and not editor.note.visible and not editor.show.visible


def waits(editor: CorpusEditor) -> bool:
    return not editor.box.visible and editor.box.value == "" and editor.note.visible and editor.show.visible


def test_a_short_corpus_is_in_the_box():
    state = AppState(preset="explainer")
    editor = CorpusEditor(state)
    assert shows(editor, state.corpus_text)
    state.load_upload("short.txt", b"walk walked\n")
    assert shows(editor, "walk walked\n")


def test_a_long_upload_is_trained_on_but_kept_out_of_the_box_until_asked():
    state = AppState(preset="explainer")
    editor = CorpusEditor(state)
    state.load_upload("big.txt", LONG.encode())
    assert len(LONG) > EDITOR_CHARS and state.corpus_text == LONG
    assert state.training.corpus.documents and state.message == ""  # it trained on the whole text
    assert waits(editor)
    assert f"{len(LONG):,} characters" in editor.note.object
    editor.show.clicks += 1
    assert shows(editor, LONG)
    state.load_upload("other.txt", OTHER.encode())  # a new long corpus waits again
    assert waits(editor) and state.corpus_text == OTHER
    state.reload_preset()
    assert shows(editor, state.corpus_text) and state.corpus_text != OTHER


def test_a_long_text_typed_in_the_box_stays_there():
    state = AppState(preset="explainer")
    editor = CorpusEditor(state)
    editor.box.value = LONG  # as the browser sends it when the box loses focus
    assert state.corpus_text == LONG
    assert shows(editor, LONG)


def test_a_box_filled_from_the_state_is_no_edit():
    state = AppState(preset="explainer")
    editor = CorpusEditor(state)
    state.load_upload("big.txt", LONG.encode())
    state.load_upload("short.txt", b"talk\n")
    assert state.corpus_text == "talk\n" and shows(editor, "talk\n")
    state.load_upload("big.txt", LONG.encode())
    assert state.corpus_text == LONG  # emptying the hidden box did not empty the corpus
