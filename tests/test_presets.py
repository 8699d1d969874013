"""The presets reproduce what their published sources state, through the public API only."""
import pytest

import bpe
from bpe.presets import PRESETS, blocks, corpus, corpus_text


def trained(name: str, **changes) -> bpe.Training:
    preset = PRESETS[name]
    return bpe.train(preset.documents, preset.settings.replace(**changes) if changes else preset.settings)


def merge_texts(training: bpe.Training) -> list[tuple[str, str]]:
    tok = training.tokenizer
    return [(tok.token_text(m.left), tok.token_text(m.right)) for m in training.merges]


def texts(training: bpe.Training) -> list[str]:
    return [training.tokenizer.token_text(m.id) for m in training.merges]


def test_every_preset_has_a_one_line_description_and_documents():
    for name, preset in PRESETS.items():
        assert preset.name == name
        assert preset.description and "\n" not in preset.description
        assert preset.documents and all(preset.documents)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_trains_identically_with_both_algorithms(name):
    preset = PRESETS[name]
    fast = bpe.train(preset.documents, preset.settings, algorithm="fast")
    reference = bpe.train(preset.documents, preset.settings, algorithm="reference")
    assert fast.merges == reference.merges
    assert fast.tokens == reference.tokens
    assert fast.stopped == reference.stopped


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_uses_its_whole_budget(name):
    # Every merge shown is well defined: training never stops short of the preset's budget.
    training = trained(name)
    assert training.stopped == "budget reached"


# --- from-scratch ------------------------------------------------------------------------------

def test_from_scratch_printed_merges():
    merges = merge_texts(trained("from-scratch"))
    printed = {0: ("a", "t"), 1: ("t", "h"), 2: ("th", "e"), 3: (" ", "the"), 4: ("at", "."), 5: (" ", "a"),
               8: (" c", "at"), 11: (" s", "at")}
    assert len(merges) == 20
    assert {rank: merges[rank] for rank in printed} == printed


def test_from_scratch_encodes_the_fat_cat():
    training = trained("from-scratch")
    tok = training.tokenizer
    text = "the fat cat sat on a mat."
    assert [piece for _, piece in tok.pieces(text)] == ["the", " ", "fat", " cat", " sat", " on", " a", " mat."]
    assert tok.encode(text) == [16, 0, 31, 22, 25, 27, 19, 33]
    assert training.vocab_size() == 34
    assert tok.decode(tok.encode(text)) == text


def test_from_scratch_unseen_words_fall_back_to_characters():
    tok = trained("from-scratch").tokenizer
    pieces = tok.pieces("the elephant sat on a submarine.")
    assert [piece for _, piece in pieces] == [
        "the", " ", "e", "l", "e", "p", "h", "a", "n", "t", " sat", " on", " a",
        " s", "u", "b", "m", "a", "r", "i", "n", "e", ".",
    ]
    # The corpus has no l, p, u, b or i: under a character alphabet they have no id.
    assert [piece for i, piece in pieces if i is None] == ["l", "p", "u", "b", "i"]


# --- course ------------------------------------------------------------------------------------

def test_course_merges_count_overlaps_apart_from_replacements():
    training = trained("course")
    first, second = training.merges
    assert (first.left, first.right, first.id, first.count, first.replacements) == (97, 97, 256, 2, 1)
    assert (second.left, second.right, second.id, second.count, second.replacements, second.ties) == (97, 98, 257, 1, 1, 3)
    assert training.tokens == [6, 5, 4]


def test_course_two_one_byte_documents_have_no_candidate():
    training = bpe.train(["a", "a"], PRESETS["course"].settings)
    assert training.merges == [] and training.candidates(1) == []


# --- explainer ---------------------------------------------------------------------------------

def test_explainer_corpus_is_seven_words_and_137_characters():
    documents = PRESETS["explainer"].documents
    assert len(set(documents)) == 7
    assert {"walk", "walked", "walking", "talked", "talking"} <= set(documents)
    assert sum(map(len, documents)) == 137
    assert len(set("".join(documents))) == 14  # fourteen distinct letters
    training = trained("explainer")
    assert training.tokens[0] == 137 and training.vocab_size(0) == 14
    assert documents.count("walk") == 4  # "You heard walk four times."


def test_explainer_rounds_one_to_six():
    training = trained("explainer")
    assert merge_texts(training)[:6] == [("a", "l"), ("al", "k"), ("w", "alk"), ("e", "d"), ("i", "n"), ("in", "g")]
    round1, _, round3, round4, _, round6 = training.merges[:6]
    assert round1.count == 19  # walk, walked, walking, talked and talking with their repeats
    assert training.candidates(1)[1].count <= 19  # no other pair beats it (l+k ties and loses)
    assert training.tokenizer.token_text(round3.id) == "walk"  # the whole stem, two rounds after al
    assert round4.count == 9
    assert training.tokenizer.token_text(round6.id) == "ing"


def test_explainer_rounds_decided_by_count_alone():
    # Rounds 2, 3, 6, 7 and 8 beat the runner-up outright; rounds 4 and 5 tie on count (every in
    # in the corpus is followed by g) and the smallest pair wins.
    training = trained("explainer")
    for round_ in (2, 3, 6, 7, 8):
        winner, runner_up = training.candidates(round_)[:2]
        assert winner.count > runner_up.count, round_
    assert training.merges[3].ties == 3 and training.merges[4].ties == 2


def test_explainer_after_six_merges():
    training = trained("explainer")
    assert training.tokens[6] == 59
    assert training.vocab_size(6) == 20
    tok = training.tokenizer
    pieces = lambda word, rounds: [piece for _, piece in tok.pieces(word, rounds=rounds)]
    assert pieces("walked", 6) == ["walk", "ed"] and pieces("walking", 6) == ["walk", "ing"]


def test_explainer_merge_eight_fuses_walk_with_ed():
    training = trained("explainer")
    tok = training.tokenizer
    assert merge_texts(training)[6] != ("walk", "ed")  # merge seven is something else
    assert merge_texts(training)[7] == ("walk", "ed")
    pieces = lambda word, rounds: [piece for _, piece in tok.pieces(word, rounds=rounds)]
    # At merge seven walked and walking share walk; at merge eight they share nothing.
    assert pieces("walked", 7) == ["walk", "ed"] and pieces("walking", 7) == ["walk", "ing"]
    assert pieces("walked", 8) == ["walked"] and pieces("walking", 8) == ["walk", "ing"]
    assert training.tokens[8] < training.tokens[7]


def test_explainer_walkable_falls_back_to_letters_with_nothing_unknown():
    training = trained("explainer")
    for rounds in (3, 6, 8, None):
        pieces = training.tokenizer.pieces("walkable", rounds=rounds)
        assert [piece for _, piece in pieces] == ["walk", "a", "b", "l", "e"]
        assert None not in [i for i, _ in pieces]


def test_explainer_stalking_has_an_unknown_letter():
    pieces = trained("explainer").tokenizer.pieces("stalking", rounds=8)
    assert pieces[0] == (None, "s")  # no s in the corpus: a character with no id
    assert [piece for _, piece in pieces] == ["s", "talk", "ing"]


def test_explainer_documents_are_barriers():
    # Each word occurrence is its own document: no merge can span two words.
    training = trained("explainer")
    words = set(PRESETS["explainer"].documents)
    assert all(any(text in word for word in words) for text in texts(training))


# --- octlm -------------------------------------------------------------------------------------

def test_octlm_settings():
    settings = PRESETS["octlm"].settings
    assert (settings.alphabet, settings.pretokenizer, settings.tie, settings.min_frequency) == ("bytes", "kinds", "smallest", 2)
    assert settings.specials == "octlm" and settings.vocab_size == 281
    training = trained("octlm")
    assert len(training.merges) == 20 and training.merges[0].id == 261
    assert training.tokenizer.token_text(258) == "<|eos|>"


def test_octlm_whitespace_merges_first():
    merges = trained("octlm").merges
    assert (merges[0].left, merges[0].right, merges[0].id) == (32, 32, 261)  # two spaces
    assert (merges[2].left, merges[2].right, merges[2].id) == (261, 261, 263)  # two of those


def test_octlm_merges_four_to_eight_grow_number():
    training = trained("octlm")
    merges = training.merges
    assert (merges[3].left, merges[3].right, merges[3].id) == (98, 101, 264)  # be
    assert (merges[4].left, merges[4].right) == (109, 264)  # m + be
    assert texts(training)[1] == "_n"
    assert texts(training)[5:8] == ["umbe", "_numbe", "_number"]


def test_octlm_total_grows_and_merge_16_spans_two_names():
    training = trained("octlm")
    names = texts(training)
    assert names.index("ot") < names.index("tot") < names.index("total")
    assert names[15] == "btotal"  # the end of sub and the start of total, inside subtotal
    assert "total_number" in names[16:]  # near the end
    # Both sides of a merge can be learned tokens.
    total = training.merges[names.index("total")]
    assert total.left >= 261 and total.right >= 261


def test_octlm_stops_early_when_the_best_pair_occurs_once():
    training = trained("octlm", vocab_size=2048)
    assert training.stopped == "the best pair occurs 1 times, below the minimum of 2"
    assert training.vocab_size() < 2048
    assert training.tokens == sorted(training.tokens, reverse=True)


def test_octlm_repeating_the_function_keeps_the_merges():
    preset = PRESETS["octlm"]
    once = bpe.train(preset.documents, preset.settings)
    thrice = bpe.train(preset.documents * 3, preset.settings)
    assert [(m.left, m.right) for m in thrice.merges] == [(m.left, m.right) for m in once.merges]
    assert [m.count for m in thrice.merges] == [3 * m.count for m in once.merges]


def test_octlm_eos_text_is_ordinary_bytes():
    """The seed: "The literal text <|eos|> splits into <|, eos, |>. It's ordinary text made of
    ordinary bytes, never ID 258." That is `encode_ordinary`, and `encode` with the special not
    disallowed; `encode` itself follows tiktoken, and refuses it unless it is allowed."""
    tok = trained("octlm").tokenizer
    chunks = [tok.encode_ordinary(chunk) for chunk in ("<|", "eos", "|>")]
    assert tok.encode_ordinary("<|eos|>") == tok.encode("<|eos|>", disallowed_special=()) == sum(chunks, [])
    assert 258 not in tok.encode_ordinary("<|eos|>") and tok.split("<|eos|>") == ["<|", "eos", "|>"]
    with pytest.raises(ValueError, match=r"'<\|eos\|>' at character 2"):
        tok.encode("a <|eos|>")
    assert tok.encode("a <|eos|>", allowed_special={"<|eos|>"}) == [*tok.encode_ordinary("a "), 258]


# --- the other presets -------------------------------------------------------------------------

def test_english_japanese_is_the_same_passage_and_japanese_costs_more():
    en, ja = corpus("debian-reference.en.txt"), corpus("debian-reference.ja.txt")
    assert len(blocks(en)) == len(blocks(ja))  # paragraph for paragraph
    assert "Osamu Aoki" in corpus_text("debian-reference.ja.txt") and "GPL" in corpus_text("debian-reference.en.txt")
    assert "GPL" not in "".join(PRESETS["english-japanese"].documents)  # the header is not trained on
    tok = trained("english-japanese").tokenizer
    en_tokens, ja_tokens = len(tok.encode(en)), len(tok.encode(ja))
    assert ja_tokens > en_tokens  # the same passage costs more tokens in Japanese
    assert ja_tokens / len(ja) > 1.5 * en_tokens / len(en)  # and far more per character
    assert tok.decode(tok.encode(ja)) == ja


def test_numbers_years_and_prices_split_unevenly():
    tok = trained("numbers").tokenizer
    pieces = lambda text: [piece for _, piece in tok.pieces(text)]
    assert pieces(" 2023") == [" 2023"] and pieces(" 2024") == [" 2024"]
    assert len(pieces(" 2025")) > 1
    assert pieces(" 1,024") == [" 1", ",", "024"]  # 1,024 and 1,025 do not even share a boundary
    assert pieces(" 1,025") == [" 1", ",", "02", "5"]
    assert pieces("2023") != ["2023"]  # without its leading space the year is another split


def test_code_learns_indentation_first():
    training = trained("code")
    assert texts(training)[:2] == ["  ", "    "]
    assert "\n    " in texts(training)
