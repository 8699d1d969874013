"""Encoding replays training exactly, round-trips every valid string, and stays linear."""
import random

import pytest
from hypothesis import given, settings as hsettings, strategies as st

import bpe
import bpe.encoding.chunk_cache as cache_module
import bpe.encoding.tokenizer as tokenizer_module
from bpe.encoding.pretokenize import PRETOKENIZERS, split

CORPUS = ["the cat sat on the mat. 2023 2024 x_1 = total\r\n\ttotal_number", "日本語のテキスト 😀😀 e\u0301te\u0301"] * 3
valid_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


@pytest.fixture(scope="module", params=PRETOKENIZERS)
def byte_tokenizer(request):
    return bpe.train(CORPUS, bpe.Settings(pretokenizer=request.param, merges=60)).tokenizer


@hsettings(max_examples=200, deadline=None)
@given(text=valid_text)
def test_decode_inverts_encode(byte_tokenizer, text):
    assert byte_tokenizer.decode(byte_tokenizer.encode(text)) == text


@hsettings(max_examples=200, deadline=None)
@given(text=valid_text, rounds=st.integers(0, 60))
def test_pieces_join_to_the_text_under_chars(text, rounds):
    tokenizer = _chars_tokenizer()
    pieces = tokenizer.pieces(text, rounds)
    assert "".join(piece for _, piece in pieces) == text
    unknown = [piece for i, piece in pieces if i is None]
    assert unknown == [c for c in text if c not in tokenizer.alphabet.chars]


def _chars_tokenizer(cache={}):
    if "t" not in cache:
        cache["t"] = bpe.train(CORPUS, bpe.Settings(alphabet="chars", pretokenizer="words", merges=60)).tokenizer
    return cache["t"]


def naive_encode(tokenizer, text):
    """Apply every merge in rank order as one left-to-right pass, as training did."""
    ids = []
    for chunk in split(text, tokenizer.settings.pretokenizer):
        seq = list(map(ord, tokenizer.alphabet.sequence(chunk)))
        for rank, (left, right) in enumerate(tokenizer.merges):
            out, i = [], 0
            while i < len(seq):
                if i + 1 < len(seq) and seq[i] == left and seq[i + 1] == right:
                    out.append(tokenizer.first_merge_id + rank)
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            seq = out
        ids += seq
    return ids


@hsettings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="aab é日_1\n😀", max_size=40))
def test_encode_matches_naive_replay(byte_tokenizer, text):
    assert byte_tokenizer.encode(text) == naive_encode(byte_tokenizer, text)


def chunk_by_chunk(tokenizer, text, rounds=None):
    """Encoding each chunk the pre-tokenizer finds on its own, with no stretch cache."""
    limit = len(tokenizer.merges) if rounds is None else min(rounds, len(tokenizer.merges))
    return [i for chunk in tokenizer.split(text)
            for i in tokenizer.ids(tokenizer.merge(tokenizer.alphabet.sequence(chunk), limit))]


#: Pieces of text around spaces: runs of spaces, other whitespace beside them, every kind.
SPACEY = ["", " ", " ", " ", "  ", "\t", "\n", "\r\n", "\u3000", "\x1c", "\x85", "a", "ab", "the", "1", "2024", ".",
          "_x", "日本", "é", "😀", "\u0301"]


@hsettings(max_examples=300, deadline=None)
@given(parts=st.lists(st.sampled_from(SPACEY), max_size=40), rounds=st.none() | st.integers(0, 60),
       alphabet=st.sampled_from(["bytes", "chars"]), kept=st.sampled_from([0, 3, 256]), limit=st.sampled_from([2, 100_000]))
def test_stretches_between_spaces_change_nothing(parts, rounds, alphabet, kept, limit):
    """Under `kinds`, encode cuts after each space before a non-space and remembers the
    stretches: the ids are those of encoding chunk by chunk, at any round, whether a
    stretch is kept or not (too long, or the cache full), and after the chunk cache starts over."""
    tokenizer = _kinds_tokenizer(alphabet)
    text = "".join(parts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cache_module, "LONG_STRETCH", kept)
        patch.setattr(cache_module, "STRETCH_LIMIT", limit)
        patch.setattr(cache_module, "CACHE_LIMIT", limit)
        first, again = tokenizer.encode(text, rounds), tokenizer.encode(text, rounds)
    assert first == again == chunk_by_chunk(tokenizer, text, rounds)


def _kinds_tokenizer(alphabet, cache={}):
    if alphabet not in cache:
        cache[alphabet] = bpe.train([*CORPUS, "a  b\t c \n  d"], bpe.Settings(alphabet=alphabet, merges=60)).tokenizer
    return cache[alphabet]


@hsettings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="aab é_1", max_size=60), trained_on=st.text(alphabet="aab é_1", max_size=300),
       rounds=st.integers(0, 90))
def test_short_chunks_merge_the_same_by_scanning(text, trained_on, rounds):
    """`_scan` (chunks under SHORT_CHUNK) and the heap (longer ones) agree at every length and round."""
    tokenizer = bpe.train([trained_on], bpe.Settings(pretokenizer="none", min_frequency=1, merges=80)).tokenizer
    seq, limit = tokenizer.alphabet.sequence(text), min(rounds, len(tokenizer.merges))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tokenizer_module, "SHORT_CHUNK", 0)  # the heap, whatever the length
        by_heap = tokenizer._merge(seq, limit) if limit else seq
    assert tokenizer._scan(seq, limit) == by_heap


def replay(tokenizer, seq, limit):
    """A sequence after the first `limit` merges, each one left-to-right pass of `str.replace`."""
    for rank in range(limit):
        seq = seq.replace(tokenizer._pairs[rank], chr(tokenizer.first_merge_id + rank))
    return seq


@hsettings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="aaab é", min_size=16, max_size=80), trained_on=st.text(alphabet="aaab é", max_size=300),
       rounds=st.integers(0, 90), few_uses=st.sampled_from([0, 2, 24]))
def test_the_heap_merges_as_a_replay_of_every_rule(text, trained_on, rounds, few_uses):
    """The heap (chunks from SHORT_CHUNK up) gives what replaying every merge in rank order gives,
    at every round, whether a new token's later merges are tried or the windows beside it are
    looked up (FEW_USES 0): a token made several times in a pass, side by side or at an end, a
    rank pushed twice, and ranks from the round on included."""
    tokenizer = bpe.train([trained_on], bpe.Settings(pretokenizer="none", min_frequency=1, merges=80)).tokenizer
    seq, limit = tokenizer.alphabet.sequence(text), min(rounds, len(tokenizer.merges))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tokenizer_module, "FEW_USES", few_uses)
        assert tokenizer._merge(seq, limit) == replay(tokenizer, seq, limit)


def test_encode_at_a_round_uses_only_earlier_merges():
    t = bpe.train(["aaaa aaaa"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=4))
    for k in range(5):
        assert t.tokenizer.encode("aaaa aaaa", rounds=k) == t.documents(k)[0]


def test_lone_surrogate_is_a_clear_error_under_bytes(byte_tokenizer):
    with pytest.raises(ValueError, match="lone surrogate"):
        byte_tokenizer.encode("ok \ud800 no")


def test_unknown_id_cannot_be_decoded(byte_tokenizer):
    with pytest.raises(ValueError, match="not a token id"):
        byte_tokenizer.decode([10**6])


def test_ordinary_text_never_produces_a_special_id():
    t = bpe.train(["<|eos|> <|eos|> <|eos|>"], bpe.Settings(specials="octlm", merges=10))
    ids = t.tokenizer.encode_ordinary("<|eos|>")
    assert 258 not in ids and t.tokenizer.decode(ids) == "<|eos|>"
    assert t.tokenizer.decode([258]) == "<|eos|>"
    with pytest.raises(ValueError, match="special token"):  # encode, as tiktoken's, asks first
        t.tokenizer.encode("<|eos|>")


def _doubling_tokenizer():
    """Merges a+a, aa+aa, aaaa+aaaa, ...: the worst case for a naive encoder."""
    return bpe.train(["a" * 4096], bpe.Settings(pretokenizer="none", min_frequency=1, merges=12)).tokenizer


@pytest.mark.parametrize("pretokenizer", ["none", "kinds"])
def test_one_megabyte_of_one_character(pretokenizer):
    trained = _doubling_tokenizer()
    tokenizer = bpe.Tokenizer(trained.settings.replace(pretokenizer=pretokenizer), trained.alphabet, trained.merges)
    ids = tokenizer.encode("a" * 1_000_000)
    assert tokenizer.decode(ids) == "a" * 1_000_000
    assert len(ids) == 1_000_000 // 4096 + bin(1_000_000 % 4096).count("1")


def test_one_megabyte_of_random_bytes():
    rng = random.Random(7)
    text = bytes(rng.randrange(256) for _ in range(1_000_000)).decode("latin-1")
    tokenizer = bpe.train([text[:50_000]], bpe.Settings(pretokenizer="none", merges=300)).tokenizer
    ids = tokenizer.encode(text)
    assert tokenizer.decode(ids) == text
    assert tokenizer.encode(text[:20_000]) == naive_encode(tokenizer, text[:20_000])


@hsettings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="abcab é", min_size=300, max_size=2000), trained_on=st.text(alphabet="abcab é", max_size=400))
def test_cutting_long_chunks_changes_nothing(text, trained_on):
    tokenizer = bpe.train([trained_on], bpe.Settings(pretokenizer="none", min_frequency=1, merges=80)).tokenizer
    seq = tokenizer.alphabet.sequence(text)
    assert tokenizer.merge(seq) == tokenizer._merge(seq, len(tokenizer.merges))
