"""The story of a training (`bpe.explain.story`) and the seed tours (`bpe.explain.tours`): every claim a step makes is
held to the training record, here worked out again from the record by other means (documents
re-encoded, counts re-counted), on generated corpora of every alphabet and pre-tokenizer."""
from __future__ import annotations

import functools
from collections import Counter

import pytest
import regex
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

import bpe
from bpe.encoding.pretokenize import PRETOKENIZERS, splitter
from bpe.explain import difference, tours
from bpe.explain.story import PANES, SMALL_SAVING, Step, shown, story, times
from bpe.presets import PRESETS
from bpe.settings import ALPHABETS, TIES

import unicode_scripts

# Several scripts (Latin, Cyrillic, Greek, Han, Hiragana), repeats for ties and overlaps, an emoji.
SYMBOLS = "aab ab\n_1é日本かなжжλ😀"
# Scripts with their Common and Inherited companions: Japanese with ー (Common), 々 (Han) and the
# kana iteration marks; Arabic with tatweel (Common) and harakat (Inherited); Devanagari with
# virama; Hangul syllables and jamo; emoji with ZWJ and skin tones (Common and Inherited alone);
# text mixed with code.
SCRIPTED = ["ニャーニャー", "コーヒー", "日々", "時々", "こゝろ", "いすゞ", "カヽ", "ーー", "كـتـاب", "مَدْرَسَةٌ",
            "ـــ", "नमस्ते", "क्षत्रिय", "स्", "한국어", "각", "👩\u200d👩\u200d👧", "👍🏽👍🏽", "café", "e\u0301e\u0301",
            "def f(x):\n    return x  # 猫", "x = 'ニャー'", "λx.x"]
documents = st.lists(st.one_of(
    st.text(alphabet=SYMBOLS, max_size=16),
    st.sampled_from(["", "aaa", "abab", "жжж", "かなかな", "日本日本"]),
    st.lists(st.sampled_from(SCRIPTED), min_size=1, max_size=4).map(" ".join),
), min_size=1, max_size=6)
configurations = st.builds(
    bpe.Settings, alphabet=st.sampled_from(ALPHABETS), pretokenizer=st.sampled_from(PRETOKENIZERS),
    tie=st.sampled_from(TIES), min_frequency=st.integers(1, 3), merges=st.integers(0, 30))


def text_of(t: bpe.Training, token: int) -> bytes:
    return t.vocab[token]


def token_counts(t: bpe.Training, rounds: int) -> Counter:
    """Each token's occurrences after `rounds` merges, from the documents as the record gives them."""
    counted = Counter()
    for ids in t.documents(rounds):
        counted.update(ids)
    return counted


def chunks_of(docs: list[str], t: bpe.Training) -> set[bytes]:
    """Every chunk the pre-tokenizer cuts, worked out from the documents themselves."""
    split = splitter(t.settings.pretokenizer)
    return {chunk.encode() for doc in docs for chunk in split(doc)}


def check(step: Step, t: bpe.Training, docs: list[str]) -> None:
    """One step's claims against the record."""
    facts, merges = step.facts, t.merges
    assert step.pane in PANES and step.text and step.title
    assert 0 <= step.round <= len(merges)
    if step.kind == "start":
        assert facts["tokens"] == sum(map(len, t.documents(0))) and f"{facts['tokens']:,} tokens" in step.text
        assert t.stopped in step.text
    elif step.kind == "first-merge":
        merge = merges[0]
        assert step.round == 1 and facts["token"] == merge.id and shown(t, merge.id) in step.text
        assert facts["ties"] == merge.ties and (times(merge.count) in step.text or f"at {merge.count:,}" in step.text)
    elif step.kind == "first-tie":
        k = step.round
        assert k > 1 and merges[k - 1].ties > 1 and all(m.ties == 1 for m in merges[:k - 1])
        assert times(merges[k - 1].count) in step.text and shown(t, merges[k - 1].id) in step.text
    elif step.kind == "whole-chunk":
        whole = chunks_of(docs, t)
        made = [m for m in merges if text_of(t, m.id) in whole]
        assert made and made[0].id == facts["token"] and step.round == made[0].rank + 1
        assert step.encode.encode() == text_of(t, facts["token"])
    elif step.kind == "longest":
        unit = (lambda b: len(b.decode("utf-8", "backslashreplace"))) if t.settings.alphabet == "chars" else len
        longest = max(unit(text_of(t, m.id)) for m in merges)
        assert facts["length"] == longest == unit(text_of(t, facts["token"])) and f"round {step.round}" in step.text
    elif step.kind == "used-up":
        last = token_counts(t, len(merges))
        assert step.round == len(merges) and last[facts["token"]] == 0
        assert all(last[m.id] > 0 for m in merges if m.rank + 1 < facts["made"])  # the first such token
        assert facts["inside"] == [m.id for m in merges if facts["token"] in (m.left, m.right)] != []
    elif step.kind == "small-savings":
        r, tokens = step.round, [sum(map(len, t.documents(k))) for k in range(len(merges) + 1)]
        assert r < len(merges)
        assert all(tokens[k - 1] - tokens[k] < SMALL_SAVING * tokens[k - 1] for k in range(r + 1, len(merges) + 1))
        assert r == 0 or tokens[r - 1] - tokens[r] >= SMALL_SAVING * tokens[r - 1]
        assert f"{tokens[r]:,} tokens" in step.text
    elif step.kind == "scripts":
        check_scripts(step, t)
    else:
        raise AssertionError(f"a step of an unknown kind: {step.kind}")


@functools.cache
def char_script(char: str) -> str:
    """A character's script, asked of the `regex` module itself (not of bpe's table)."""
    return next(name for name in unicode_scripts.script_names() if regex.match(rf"\p{{Script={name}}}", char))


def own_scripts(text: str) -> set[str]:
    """The scripts of a text's characters, Common, Inherited and Unknown ones apart."""
    return {char_script(char) for char in text} - set(unicode_scripts.SHARED)


def check_scripts(step: Step, t: bpe.Training) -> None:
    """The scripts the corpus mixes, and the first merge of each (or why none), re-derived with `regex`."""
    facts = step.facts
    corpus = set()
    for chunk in t.corpus.chunks:
        corpus |= own_scripts(b"".join(t.vocab[ord(c)] for c in chunk).decode("utf-8", "ignore"))
    assert {name.replace(" ", "_") for name in facts["firsts"]} == corpus and len(corpus) >= 2
    assert f"mixes {len(corpus)} scripts" in step.text
    decoded = []
    for m in t.merges:
        try:
            decoded.append((m, text_of(t, m.id).decode("utf-8")))
        except UnicodeDecodeError:
            continue
    for name, token in facts["firsts"].items():
        own = [m for m, text in decoded if own_scripts(text) == {name.replace(" ", "_")}]
        if own:
            assert token == own[0].id and f"{name} in round {own[0].rank + 1:,} ({shown(t, token)})" in step.text
            continue
        assert token is None and f"{name} in none: " in step.text
        touched = any(name.replace(" ", "_") in own_scripts(text) for _, text in decoded)
        assert facts["never"][name] == ("mixed" if touched else "unmerged")
        assert ("merged only with others'" if touched else "none of its characters is in a merged token") in step.text
    assert step.round == max([m.rank + 1 for m in t.merges if m.id in facts["firsts"].values()] or [1])


def test_a_katakana_word_with_its_prolonged_sound_mark_is_katakana():
    """Issue 42's corpus: Japanese prose, three sentences three times; ー is Common, ニャー is Katakana."""
    prose = ["猫がニャーニャーと鳴いている。", "私は毎朝コーヒーを飲みます。", "日々の生活は静かで、時々散歩に出かけます。"]
    for settings in (bpe.Settings(), bpe.Settings(alphabet="chars", pretokenizer="none", merges=200)):
        t = bpe.train(prose * 3, settings)
        [step] = [step for step in story(t) if step.kind == "scripts"]
        check_scripts(step, t)
        katakana = step.facts["firsts"]["Katakana"]
        assert katakana is not None and "Katakana in none" not in step.text
        assert set(text_of(t, katakana).decode()) <= set("ニャーコヒ")


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, configurations)
def test_every_claim_of_every_step_holds_to_the_record(docs, config):
    t = bpe.train(docs, config)
    told = story(t)
    assert told[0].kind == "start"
    assert len({step.kind for step in told}) == len(told)  # each moment once
    for step in told:
        check(step, t, docs)
    if t.merges:
        assert told[1].kind == "first-merge"
    else:
        assert len(told) == 1 and "no merge" in told[0].text


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, configurations, st.sampled_from(TIES))
def test_with_b_the_story_names_the_first_round_where_b_differs(docs, config, tie):
    a, b = bpe.train(docs, config), bpe.train(docs, config.replace(tie=tie))
    told = story(a, b)
    step = told[-1]
    assert step.kind == "difference" and step.b and step.pane == "difference"
    rounds = difference.differing_rounds(a, b)
    if rounds:
        assert step.facts["round"] == rounds[0] and step.text == difference.explain(a, b, rounds[0])
    else:
        assert "the same pairs" in step.text
    for other in told[:-1]:
        check(other, a, docs)


def test_a_corpus_with_no_merge_gets_one_honest_step():
    t = bpe.train(["abc"], bpe.Settings(min_frequency=2))
    assert t.merges == []
    [step] = story(t)
    assert step.round == 0 and "no merge" in step.text and t.stopped in step.text


def test_a_single_merge_is_its_own_short_story():
    t = bpe.train(["aa"], bpe.Settings(pretokenizer="none", min_frequency=1))
    kinds = [step.kind for step in story(t)]
    assert kinds[:2] == ["start", "first-merge"] and len(kinds) <= 4
    assert story(t)[1].text == "Round 1 joins a + a into aa: the pair occurs once, more than any other."


# The seed tours: each step's figures are the published ones (../shared/seeds), read from the training.

def facts(name: str, kind: str, nth: int = 0) -> Step:
    return [step for step in tours.tour(name) if step.kind == kind][nth]


@pytest.mark.parametrize("name", tours.NAMES)
def test_each_seed_tour_has_six_to_twelve_steps_that_each_set_the_page(name):
    steps = tours.tour(name)
    assert 6 <= len(steps) <= 12
    a, _ = tours.trainings(name)
    assert all(0 <= step.round <= len(a.merges) and step.pane in PANES for step in steps)
    assert steps[0].round == 0


def test_the_explainer_tour_says_the_explainers_figures():
    a, b = tours.trainings("explainer")
    first = facts("explainer", "tie", 0)
    assert first.round == 1 and first.facts["ties"] == 2 and first.facts["count"] == 19
    assert "a + l and l + k both occur 19 times" in first.text
    three = facts("explainer", "tie", 1)
    assert three.facts["ties"] == 3 and "e + d, i + n and n + g all occur 9 times" in three.text
    assert facts("explainer", "count").facts == {"round": 6, "tokens": 59, "vocab": 20}
    walkable, stalking = facts("explainer", "encode", 0), facts("explainer", "encode", 1)
    assert [a.tokenizer.token_text(i) for i in walkable.facts["ids"]] == ["walk", "a", "b", "l", "e"]
    assert walkable.facts["unknown"] == 0 and "walk a b l e" in walkable.text
    assert stalking.facts["ids"][0] is None and stalking.facts["unknown"] == 1
    assert facts("explainer", "whole-chunk").encode == "walk"
    assert facts("explainer", "difference").b


def test_the_course_tour_counts_overlaps_apart_from_replacements():
    overlap = facts("course", "overlap")
    assert (overlap.facts["count"], overlap.facts["replacements"], overlap.facts["tokens"]) == (2, 1, 5)
    barrier = facts("course", "barrier")
    assert barrier.facts["joined"] == 3 > barrier.facts["count"]
    tie = facts("course", "tie")
    assert tie.round == 2 and tie.facts["ties"] == 3 and tie.facts["count"] == 1
    a, _ = tours.trainings("course")
    assert (a.merges[1].left, a.merges[1].right) == (97, 98) and "a + b into ab" in tie.text
    assert facts("course", "count").facts == {"round": 2, "tokens": 4, "vocab": 258}


def test_the_octlm_tour_grows_number_and_total_and_keeps_the_specials_apart():
    start = facts("octlm", "start")
    assert start.facts == {"specials": [256, 257, 258, 259, 260], "first": 261}
    assert "␣ + ␣ into ␣␣" in facts("octlm", "first-merge").text
    number, total = facts("octlm", "growth", 0), facts("octlm", "growth", 1)
    assert number.facts["rounds"] == [2, 4, 5, 6, 7, 8] and total.facts["rounds"] == [10, 11, 12, 13]
    assert facts("octlm", "specials").facts["touching"] == 0
    assert facts("octlm", "longest").encode == "total_number"


def test_the_from_scratch_tour_gives_the_merges_and_ids_the_text_prints():
    a, _ = tours.trainings("from-scratch")
    assert facts("from-scratch", "start").facts["first"] == 14
    assert "a + t into at, id 14" in facts("from-scratch", "first-merge").text  # the text's merge 0
    space = facts("from-scratch", "space")
    assert space.round == 4 and a.vocab[space.facts["token"]] == b" the"  # its merge 3
    sentence = facts("from-scratch", "encode", 0)
    assert [a.tokenizer.token_text(i) for i in sentence.facts["ids"]][:3] == ["the", " ", "fat"]  # " fat" splits


def test_a_tour_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="no tour named"):
        tours.tour("<script>")


def test_each_step_moves_the_page_to_a_preset_round_as_the_record_says():
    """The steps' rounds are real rounds of the presets the page shows (trained as the page does)."""
    for name in tours.NAMES:
        preset = PRESETS[name]
        page = bpe.train(preset.documents, preset.settings)
        assert [m for m in page.merges] == tours.trainings(name)[0].merges
