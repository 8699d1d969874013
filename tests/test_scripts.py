"""bpe's table of Unicode scripts (`bpe.text.scripts`) against the `regex` module's, at every code
point the running Python's `unicodedata` has assigned."""
from __future__ import annotations

import bisect
import doctest
import sys
import unicodedata

import unicode_scripts

from bpe.text import scripts


def test_doctests():
    assert doctest.testmod(scripts).failed == 0


def test_every_assigned_character_has_regex_s_script():
    runs = unicode_scripts.ranges()
    starts = [first for first, _, _ in runs]
    wrong = []
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) in ("Cn", "Cs"):
            continue
        i = bisect.bisect_right(starts, code) - 1
        theirs = runs[i][2] if i >= 0 and runs[i][0] <= code <= runs[i][1] else "Unknown"
        if scripts.script(char) != theirs.replace("_", " "):
            wrong.append(f"U+{code:04X} {unicodedata.name(char, '?')}: {scripts.script(char)}, regex {theirs}")
    assert wrong[:20] == []


def test_the_companions_of_each_script():
    """The characters issue 42 names, each where Unicode puts it."""
    assert {char: scripts.script(char) for char in "ー々ゝヽـ\u064e\u094d\u200d\U0001f3fd\u1100"} == {
        "ー": "Common", "々": "Han", "ゝ": "Hiragana", "ヽ": "Katakana", "ـ": "Common", "\u064e": "Inherited",
        "\u094d": "Devanagari", "\u200d": "Inherited", "\U0001f3fd": "Common", "\u1100": "Hangul"}
    assert scripts.script_of("ニャー") == "Katakana" and scripts.script_of("ـــ") == ""
    assert scripts.script_of("👩\u200d👩\u200d👧") == "" and scripts.script_of("क्ष") == "Devanagari"
    assert scripts.script_of("x = 'ニャー'") == ""  # Latin and Katakana: several scripts
