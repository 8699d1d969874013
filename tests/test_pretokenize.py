"""The pre-tokenizers cut where their sources say, and never lose a byte."""
import re
import unicodedata

import pytest
from hypothesis import given, strategies as st

from bpe.encoding.pretokenize import PRETOKENIZERS, split


def octlm_kind(character: str) -> int:
    """octlm's own `_kind`, verbatim from its text."""
    if character.isspace():
        return 0
    category = unicodedata.category(character)
    if character == "_" or category[0] in {"L", "M"}:
        return 1
    if category[0] == "N":
        return 2
    return 3


@pytest.mark.parametrize("text, chunks", [
    ("x_1", ["x_", "1"]),
    ("a\r\nb\n\tc", ["a", "\r\n", "b", "\n\t", "c"]),
    ("e\u0301te\u0301", ["e\u0301te\u0301"]),
    ("<|eos|>", ["<|", "eos", "|>"]),
    ("total_number = 2024;", ["total_number", " ", "=", " ", "2024", ";"]),
])
def test_kinds_examples_from_octlm(text, chunks):
    assert split(text, "kinds") == chunks


@given(st.text())
def test_kinds_cuts_exactly_at_changes_of_kind(text):
    chunks = split(text, "kinds")
    assert "".join(chunks) == text
    for chunk in chunks:
        assert len({octlm_kind(c) for c in chunk}) == 1
    for before, after in zip(chunks, chunks[1:]):
        assert octlm_kind(before[-1]) != octlm_kind(after[0])


@given(st.text(), st.sampled_from(PRETOKENIZERS))
def test_chunks_join_to_the_text(text, name):
    assert "".join(split(text, name)) == text


def test_words_keeps_the_leading_space():
    assert split("the cat  sat\n", "words") == ["the", " cat", "  ", "sat", "\n"]  # the regex as written
    assert split("a b", "words") == re.findall(r" ?[^\s]+|\s+", "a b")


def test_gpt2_contractions_letters_numbers():
    assert split("I'm  fine, 2024年!", "gpt2") == ["I", "'m", " ", " fine", ",", " 2024", "年", "!"]


def test_none_keeps_the_document_whole():
    assert split("a b\nc", "none") == ["a b\nc"] and split("", "none") == []


def test_skipped_planes_hold_no_letters_marks_or_numbers():
    from bpe.text import unicode_classes

    everything = unicode_classes._ranges((range(0x110000),))
    for major in "LMN":
        assert unicode_classes._ranges()[major] == everything[major]


@given(st.text(st.characters(max_codepoint=0xFFFF)), st.sampled_from(["kinds", "gpt2"]))
def test_bmp_only_pattern_splits_bmp_text_like_the_full_one(text, name):
    import re

    from bpe.encoding.pretokenize import PATTERNS

    assert split(text, name) == re.findall(PATTERNS[name](), text)


@given(st.text(st.characters(max_codepoint=0x7F)), st.sampled_from(["kinds", "gpt2"]))
def test_ascii_only_pattern_splits_ascii_text_like_the_full_one(text, name):
    import re

    from bpe.encoding.pretokenize import PATTERNS

    assert split(text, name) == re.findall(PATTERNS[name](), text)
    assert re.findall(PATTERNS[name](False, ascii=True), text) == re.findall(PATTERNS[name](), text)


@given(st.text(st.one_of(st.characters(), st.sampled_from("'s 1a_\U0001D400\U0001F600\U000E0100\U00010107"))),
       st.sampled_from(["kinds", "gpt2"]))
def test_any_text_splits_like_the_full_pattern(text, name):
    import re

    from bpe.encoding.pretokenize import PATTERNS

    assert split(text, name) == re.findall(PATTERNS[name](), text)


# --- gpt2 reads text as GPT-2's own `regex` pattern (and tokenizers' ByteLevel) does ---------------

GPT2_REGEX = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def _assigned_here(char: str) -> bool:
    """Assigned in the running Python's Unicode; `regex` may know a newer version."""
    return unicodedata.category(char) != "Cn"


@pytest.mark.parametrize("ours, theirs", [("WHITE_SPACE", r"\s"), ("letters", r"\p{L}"), ("numbers", r"\p{N}")])
def test_gpt2_classes_hold_what_regex_holds_at_every_code_point(ours, theirs):
    regex = pytest.importorskip("regex")
    from bpe.text import unicode_classes

    body = getattr(unicode_classes, ours)
    mine = re.compile(f"[{body() if callable(body) else body}]")
    reference = regex.compile(theirs)
    differ = [hex(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and _assigned_here(chr(c))
              and (mine.match(chr(c)) is None) != (reference.match(chr(c)) is None)]
    assert differ == []


#: Characters where Python's `re` and `regex` could part ways: the whitespace Python adds
#: (U+001C-U+001F), the White_Space outside ASCII, letters, digits, marks and apostrophes.
TRICKY = "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2007\u2028\u2029\u202f\u3000\t\n\r\x0b\x0c 'sa1_.\u0301\u00e9\u0663\U0001D400"


@given(st.text(st.one_of(st.sampled_from(TRICKY), st.characters(blacklist_categories=("Cn", "Cs")))))
def test_gpt2_splits_like_gpt2s_own_pattern(text):
    regex = pytest.importorskip("regex")
    assert split(text, "gpt2") == regex.findall(GPT2_REGEX, text)


def test_gpt2_keeps_information_separators_inside_a_chunk():
    assert split("x.\x1c.y", "gpt2") == ["x", ".\x1c.", "y"]
