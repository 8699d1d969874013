"""Ids back to text: the parser's messages, the decode pane for this tokenizer and a real one,
the decode box keeping its view on bad input, and share links holding the ids."""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe import real
from bpe.encoding.decoding import ID_LIMIT, IdsError, check_ids, parse_ids, read_ids


@given(st.lists(st.integers(0, 10**6), max_size=50), st.sampled_from([", ", " ", ",", "\n", " ,  "]), st.booleans())
def test_any_written_list_reads_back(ids, separator, brackets):
    text = separator.join(map(str, ids))
    assert parse_ids(f"[{text}]" if brackets else text) == ids


@pytest.mark.parametrize("text, message", [
    ("1 -2 3", "Item 2, -2, is negative"),
    ("1, x", 'Item 2, "x", is not a token id'),
    ("1.5", 'Item 1, "1.5", is not a token id'),
    ("١٢", 'Item 1, "١٢", is not a token id'),
    ("1,,2", "Item 2 is empty"),
    ("[1, 2", "The brackets do not match"),
    ("[[1]]", "The brackets do not match"),
    ("<script>alert(1)</script>", 'Item 1, "<script>alert(1)</sc…", is not a token id'),
    (" ".join(["1"] * (ID_LIMIT + 1)), f"That is {ID_LIMIT + 1:,} ids; at most {ID_LIMIT:,}"),
])
def test_bad_ids_get_one_sentence_naming_the_first_bad_item(text, message):
    with pytest.raises(IdsError) as error:
        parse_ids(text)
    assert str(error.value).startswith(message) and str(error.value).count(". ") == 0


def test_range_and_limit():
    assert parse_ids(" ".join(["7"] * ID_LIMIT)) == [7] * ID_LIMIT
    assert parse_ids("") == parse_ids("[ ]") == []
    with pytest.raises(IdsError, match=r"Item 3, 100277, is out of range: this tokenizer's ids run from 0 to 100,276"):
        read_ids("1 2 100277", 100_277)
    with pytest.raises(IdsError, match="Item 1, 5, is no token"):
        check_ids([5], 10, known=lambda i: i != 5)


# --- the page ---------------------------------------------------------------------------------

panel = pytest.importorskip("panel")
from bpe_app.decode_view import DecodeView  # noqa: E402
from bpe.panes.decoding import decode_html  # noqa: E402
from bpe_app.share import query_to_changes, state_to_query  # noqa: E402
from bpe_app.state import AppState  # noqa: E402


def chip_ids(fragment: str) -> list[int]:
    return [int(i) for i in re.findall(r'class="bpe-chip[^"]*" data-id="(\d+)"', fragment)]


def test_this_tokenizer_decodes_what_it_has_made_by_the_round():
    state = AppState(preset="explainer")
    walk = state.training.tokenizer.encode("walk", rounds=6)
    page = decode_html(state.training, 6, str(walk), None)
    assert chip_ids(page) == walk and ">walk<" in page and "after round 6" in page
    with pytest.raises(IdsError, match="out of range"):
        decode_html(state.training, 0, str(walk), None)  # walk is not made by round 0


def test_a_real_tokenizer_decodes_and_shows_a_cut_character_in_hex():
    cl100k = real.load("cl100k_base")
    ids = cl100k.encode("Hello 語")
    page = decode_html(AppState().training, 0, f"[{', '.join(map(str, ids[:-1]))}]", cl100k)
    assert chip_ids(page) == ids[:-1] and "Hello" in page and '<span class="bpe-hex">e8 aa</span>' in page
    assert "shown in hex" in page and "GPT-4&#x27;s cl100k_base" in page
    mistral = real.load("mistral_v1")
    page = decode_html(AppState().training, 0, " ".join(map(str, mistral.encode("▁ walk 🦜"))), mistral)
    assert "🦜" in page and "shown in hex" not in page


def test_the_box_keeps_its_view_on_bad_input_and_a_link_holds_the_ids():
    state = AppState(preset="explainer")
    view = DecodeView(state)
    view._input.value = "[4, 5]"
    assert state.decode_ids == "[4, 5]" and view._error.object == ""
    view._input.value = "4 five"
    assert state.decode_ids == "[4, 5]" and 'Item 2, &quot;five&quot;, is not a token id' in view._error.object
    view._input.value = "99999"
    assert state.decode_ids == "[4, 5]" and "out of range" in view._error.object
    query = state_to_query(state)
    assert "ids=%5B4%2C%205%5D" in query
    changes, problem = query_to_changes(query)
    assert problem is None and changes["decode_ids"] == "[4, 5]"
    changes, problem = query_to_changes("ids=1%20x")
    assert changes == {} and "its ids are not a list of ids" in problem
