"""The person's own tokenizer file as a comparison, without a browser: used when it can be,
refused with a message and no change when it cannot, and never read as HTML."""
from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("panel")

import bpe  # noqa: E402
from bpe.formats import to_hf_json  # noqa: E402
from bpe_app import share  # noqa: E402
from bpe_app.compare_view import compare_html  # noqa: E402
from bpe_app.inspector_view import inspector_html  # noqa: E402
from bpe_app.message_view import message_html  # noqa: E402
from bpe_app.state import UPLOAD, AppState  # noqa: E402
from bpe_app.vocabulary_view import vocabulary_html  # noqa: E402

HOSTILE = '<img src=x onerror=alert(1)><script>alert("x")</script>'


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def exported(state: AppState) -> bytes:
    return to_hf_json(state.training.tokenizer).encode()


def test_an_uploaded_file_is_compared_inspected_and_listed():
    state = AppState(preset="code")
    state.load_tokenizer_file("mine.json", exported(state))
    assert state.compare == UPLOAD and state.reference is state.uploaded and state.reference.label == "mine.json"
    text = "def train(self, text):\n    return text"
    page = compare_html(state.training, state.round, text, state.compare, state.reference)
    assert re.search(rf'<td>mine.json</td><td class="bpe-num">{len(state.training.tokenizer.encode(text))}</td>', page)
    token = state.training.merges[3].id
    state.inspect(UPLOAD, token)
    card = text_of(inspector_html(state.training, state.round, state.inspected, state.reference))
    assert f"mine.json id {token}" in card and "Merge 4 of mine.json joins" in card
    listed = vocabulary_html(state.training, state.round, state.reference, UPLOAD, "", "id", False, 0)
    assert f"{len(state.training.vocab):,} tokens of mine.json" in text_of(listed)


def test_choosing_the_upload_with_nothing_uploaded_says_how():
    state = AppState()
    state.compare = UPLOAD
    assert state.compare == "" and state.message.startswith("Upload a tokenizer file first")


BROKEN = {
    "garbage": b"\x00\x01 not a tokenizer",
    "a WordPiece model": b'{"model": {"type": "WordPiece", "vocab": {}}}',
    "cut short": b'{"model": {"type": "BPE", "merges": [',
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_upload_changes_nothing_but_the_message(case):
    state = AppState(preset="code")
    state.load_tokenizer_file("first.json", exported(state))
    state.compare = "cl100k_base"
    before = {name: getattr(state, name) for name in ("compare", "reference", "uploaded", "training", "round")}
    state.load_tokenizer_file("broken.json", BROKEN[case])
    assert {name: getattr(state, name) for name in before} == before
    assert state.message.startswith("This tokenizer file could not be used: broken.json") and state.message_kind == "error"


def test_tokens_and_names_holding_html_stay_text():
    state = AppState(preset="course")
    state.param.update(corpus_text=HOSTILE * 3, budget_size=40)
    state.load_tokenizer_file(HOSTILE + ".json", exported(state))
    page = compare_html(state.training, state.round, HOSTILE, state.compare, state.reference)
    assert "<img" not in page and "<script" not in page and HOSTILE in text_of(page)
    assert max(len(token) for token in state.reference.tokens) > 10  # merges made markup-like tokens
    state.inspect(UPLOAD, len(state.reference.tokens) - 1)
    card = inspector_html(state.training, state.round, state.inspected, state.reference)
    assert "<img" not in card and "<script" not in card
    shown = message_html(state.message, state.message_kind)  # it names the file
    assert HOSTILE in text_of(shown) and "<script" not in shown


def test_a_link_says_it_leaves_the_file_out():
    state = AppState(preset="code")
    state.load_tokenizer_file("mine.json", exported(state))
    assert "compare" not in share.state_to_query(state)
    assert share.left_out(state) == ["the uploaded tokenizer file (a link cannot hold a file)"]
    changes, message = share.query_to_changes("compare=upload")
    assert changes == {} and "compare must be one of" in message


def test_a_rank_file_uses_the_split_chosen():
    state = AppState(preset="english-japanese")
    ranks, _ = bpe.formats.to_tiktoken(state.training.tokenizer)
    state.load_tokenizer_file("bare.tiktoken", ranks.encode(), "gpt2")
    text = "東京は日本の首都です, don't"
    assert state.reference.encode_ordinary(text) == state.training.tokenizer.encode(text)
