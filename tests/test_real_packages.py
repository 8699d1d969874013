"""The tokenizers taken from PyPI packages give exactly their own package's ids:

- Tekken: `mistral_common`'s `Tekkenizer.encode(text, bos=False, eos=False)`, from the file the
  installed package holds;
- Mistral 7B's SentencePiece model: `sentencepiece.SentencePieceProcessor.encode`, from the same package's file;
- Whisper: tiktoken built as `whisper/tokenizer.py`'s `get_encoding` builds it (openai-whisper
  needs torch, so its definition is written out here), from the rank file rebuilt from ours,
  whose sha256 is the sdist's file's;
- OLMo 2: `tokenizers.Tokenizer.from_file` on OLMo's own file (a pinned copy, tests/data).
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import random
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import real
from bpe.real import sentencepiece as sp

DATA = Path(__file__).parent / "data"
HELDOUT = (DATA / "heldout.txt").read_bytes().decode("utf-8")  # keeps its CRLF
TEXTS = [HELDOUT, (DATA / "train.txt").read_text(encoding="utf-8"), "", " ", "  two  spaces  ", "\r\n\n\t",
         "😀 naïve", "a\u00a0b 한국어 Ελληνικά русский 日本語", "<s>[INST] hi [/INST]</s> <unk> <|endoftext|> ▁x", "a[REFERENCE_DOC_1]b [REFERENCE_DOC_19] [REFERENCE_DOC_"]
TRICKY = list("aZzsS 'tTlLdD\t\n\r\x0b\x0c\x85\xa0\u2028\u3000/\\.,!?-_#0123456789٣½éñüßİǅ\u0301日本語カタカナ한국어"
              "αβΣпрл🎉👍🏽\u200d\ufeff▁") + ["  ", "'s", "'LL", "<s>", "[INST]", "<0x41>", "\ud800", "[REFERENCE_DOC_2]"]
ASSIGNED = st.characters(exclude_categories=("Cn",))
TEXT = st.lists(st.sampled_from(TRICKY) | ASSIGNED, max_size=40).map("".join)
DOLMA2 = DATA / "allenai_dolma2.json.gz"
#: The shipped SentencePiece models and the files of mistral_common they are.
SENTENCEPIECE_FILES = {"mistral_v1": "tokenizer.model.v1", "mistral_v3": "mistral_instruct_tokenizer_240323.model.v3"}
DOLMA2_SHA256 = "3ca996cca8afea58b34e95c353e859333592642a5e51d695d7a6dbbaf692dfe9"


def utf8(text: str) -> str:
    """The text with each lone surrogate as U+FFFD: sentencepiece and tokenizers refuse one (it is
    not UTF-8); every real tokenizer here reads it as U+FFFD, as tiktoken does."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def mistral_file(name: str) -> Path:
    pytest.importorskip("mistral_common")
    return Path(str(resources.files("mistral_common").joinpath("data", name)))


@functools.cache
def tekkenizer():
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    return Tekkenizer.from_file(mistral_file("tekken_240911.json"))


@pytest.fixture(scope="module")
def tekken():
    return real.load("tekken", check=True), tekkenizer()


@pytest.fixture(scope="module", params=["tokenizer.model.v1", "mistral_instruct_tokenizer_240323.model.v3"])
def sentencepiece(request):
    spm = pytest.importorskip("sentencepiece")
    path = mistral_file(request.param)
    ours = sp.SentencePieceBPE.from_bytes(path.read_bytes(), request.param)
    return ours, spm.SentencePieceProcessor(model_file=str(path))


@pytest.fixture(scope="module")
def whisper():
    return real.load("whisper", check=True), whisper_tiktoken()


@functools.cache
def whisper_tiktoken():
    tiktoken = pytest.importorskip("tiktoken")
    lines = real.tiktoken_file(real.load("whisper").tokens)
    assert hashlib.sha256(lines).hexdigest() == "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126"
    # whisper/tokenizer.py, get_encoding("multilingual"), as written in openai-whisper 20250625:
    import base64
    ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in lines.decode().splitlines() if line)}
    n_vocab = len(ranks)
    specials = ["<|endoftext|>", "<|startoftranscript|>", *[f"<|{lang}|>" for lang in WHISPER_LANGUAGES[:99]],
                "<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>",
                "<|notimestamps|>", *[f"<|{i * 0.02:.2f}|>" for i in range(1501)]]
    special_tokens = {token: n_vocab + i for i, token in enumerate(specials)}
    return tiktoken.Encoding(name="multilingual.tiktoken", explicit_n_vocab=n_vocab + len(specials),
                             pat_str=r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""",
                             mergeable_ranks=ranks, special_tokens=special_tokens)


#: whisper/tokenizer.py's LANGUAGES keys, copied from openai-whisper 20250625 (all 100; get_encoding takes 99).
WHISPER_LANGUAGES = ("en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur "
                     "hr bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si "
                     "km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha "
                     "ba jw su yue").split()


@functools.cache
def olmo_tokenizer():
    tokenizers = pytest.importorskip("tokenizers")
    raw = gzip.decompress(DOLMA2.read_bytes())
    assert hashlib.sha256(raw).hexdigest() == DOLMA2_SHA256
    return tokenizers.Tokenizer.from_str(raw.decode("utf-8"))


@pytest.fixture(scope="module")
def dolma2():
    return real.load("dolma2", check=True), olmo_tokenizer()


@functools.cache
def processor(name: str):
    spm = pytest.importorskip("sentencepiece")
    return spm.SentencePieceProcessor(model_file=str(mistral_file(SENTENCEPIECE_FILES[name])))


def package_ids(name: str, text: str) -> list[int]:
    """The ids `name`'s own package gives for `text` (what the page's chips must show)."""
    if name == "tekken":
        return tekkenizer().encode(text, bos=False, eos=False)
    if name in SENTENCEPIECE_FILES:
        return processor(name).encode(utf8(text))
    if name == "whisper":
        return whisper_tiktoken().encode_ordinary(text)
    if name == "dolma2":
        return olmo_tokenizer().encode(utf8(text), add_special_tokens=False).ids
    raise KeyError(name)


def test_tekken_gives_tekkenizers_ids(tekken):
    ours, theirs = tekken
    assert ours.encode_ordinary("Hello") == [22177]
    for text in TEXTS:
        assert ours.encode_ordinary(text) == theirs.encode(text, bos=False, eos=False), text[:40]
    assert ours.n_vocab == theirs.n_words
    assert [ours.decode([i]) for i in range(25)] == [theirs.id_to_piece(i) for i in range(25)]


@settings(max_examples=200, deadline=None)
@given(text=TEXT)
def test_tekken_on_any_text(tekken, text):
    ours, theirs = tekken
    assert ours.encode_ordinary(text) == theirs.encode(text, bos=False, eos=False)


def test_sentencepiece_gives_sentencepieces_ids(sentencepiece):
    ours, theirs = sentencepiece
    for text in TEXTS:
        ids = ours.encode_ordinary(text)
        assert ids == theirs.encode(text), text[:40]
        assert ours.decode(ids) == theirs.decode(ids)
    assert ours.n_vocab == theirs.get_piece_size()
    assert [ours.piece(i) for i in range(ours.n_vocab)] == [theirs.id_to_piece(i) for i in range(ours.n_vocab)]


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_sentencepiece_on_any_text(sentencepiece, text):
    ours, theirs = sentencepiece
    ids = ours.encode_ordinary(text)
    assert ids == theirs.encode(utf8(text))
    assert ours.decode(ids) == theirs.decode(ids)


def test_sentencepiece_long_texts(sentencepiece):
    """One long piece (sentencepiece has no split pattern): the join order must hold over thousands of symbols."""
    ours, theirs = sentencepiece
    rng = random.Random(4)
    words = HELDOUT.split()
    for text in [" ".join(rng.choice(words) for _ in range(3000)), "a" * 5000, "🎉" * 500, HELDOUT * 20]:
        assert ours.encode_ordinary(text) == theirs.encode(text)


@pytest.mark.parametrize("name", SENTENCEPIECE_FILES)
def test_shipped_sentencepiece_models_are_the_packages_files(name):
    shipped = real.load(name, check=True)
    assert isinstance(shipped, sp.SentencePieceBPE)
    assert (gzip.decompress((Path(real.__file__).parent / real.data_file(name)).read_bytes())
            == mistral_file(SENTENCEPIECE_FILES[name]).read_bytes())
    for text in TEXTS:
        assert shipped.encode_ordinary(text) == package_ids(name, text)


def test_a_space_is_part_of_the_token_and_a_missing_character_falls_back_to_bytes():
    shipped = real.load("mistral_v1")
    assert [shipped.piece(i) for i in shipped.encode_ordinary("🦜 walk naïve")] == [
        "▁", "<0xF0>", "<0x9F>", "<0xA6>", "<0x9C>", "▁walk", "▁na", "ï", "ve"]
    v3 = real.load("mistral_v3")
    assert [v3.piece(i) for i in range(3, 6)] == ["[INST]", "[/INST]", "[TOOL_CALLS]"]
    assert 3 not in v3.encode_ordinary("[INST] hi")  # a control piece's text is plain text


def test_mistral_nemos_tekken_holds_the_same_ids():
    """tekken_240718.json (Mistral NeMo) keeps the same 130,072 ranks in its default vocabulary."""
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    nemo = Tekkenizer.from_file(mistral_file("tekken_240718.json"))
    ours = real.load("tekken")
    for text in TEXTS:
        assert ours.encode_ordinary(text) == nemo.encode(text, bos=False, eos=False)


def test_whisper_gives_tiktokens_ids_with_whispers_definition(whisper):
    ours, theirs = whisper
    for text in TEXTS:
        assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    assert ours.n_vocab == theirs.n_vocab == 51_865  # Whisper's multilingual vocabulary size
    text = "<|startoftranscript|><|ja|><|transcribe|> こんにちは<|0.00|>"
    assert ours.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")


@settings(max_examples=200, deadline=None)
@given(text=TEXT)
def test_whisper_on_any_text(whisper, text):
    ours, theirs = whisper
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


def test_dolma2_gives_tokenizers_ids(dolma2):
    ours, theirs = dolma2
    for text in TEXTS:
        if not any(special in text for special in ours.special_tokens):
            assert ours.encode_ordinary(text) == theirs.encode(text, add_special_tokens=False).ids, text[:40]
        # tokenizers matches every added token inside a text
        assert ours.encode(text, allowed_special="all") == theirs.encode(utf8(text), add_special_tokens=False).ids
    assert ours.n_vocab == theirs.get_vocab_size()
    assert ours.tokens[:100_256] == real.load("cl100k_base").tokens[:100_256]  # one shared table


@settings(max_examples=200, deadline=None)
@given(text=TEXT)
def test_dolma2_on_any_text(dolma2, text):
    ours, theirs = dolma2
    assert ours.encode(text, allowed_special="all") == theirs.encode(utf8(text), add_special_tokens=False).ids


def _field(number: int, value: bytes | int) -> bytes:
    """One protobuf field: a varint for an int, length-delimited for bytes (lengths under 128)."""
    if isinstance(value, int):
        return bytes([number << 3, value])
    return bytes([number << 3 | 2, len(value)]) + value


def test_unigram_and_bad_models_are_refused():
    def model(trainer: bytes, normalizer: bytes = b"") -> bytes:
        unknown = _field(1, b"<unk>") + b"\x15\x00\x00\x00\x00" + _field(3, sp.UNKNOWN)  # piece, score 0.0, type
        return _field(1, unknown) + _field(2, trainer) + (_field(3, normalizer) if normalizer else b"")

    with pytest.raises(sp.ModelError, match="unigram model; only BPE"):
        sp.SentencePieceBPE.from_bytes(model(_field(3, 1)))
    with pytest.raises(sp.ModelError, match="nmt_nfkc.*identity"):
        sp.SentencePieceBPE.from_bytes(model(_field(3, 2), _field(1, b"nmt_nfkc") + _field(2, b"ab")))
    assert sp.SentencePieceBPE.from_bytes(model(_field(3, 2))).encode_ordinary("ab") == [0]  # unknown, fused
    for data in [b"", b"\x0a\xff", b"\x08", b"not a model at all", gzip.compress(b"x")]:
        with pytest.raises(sp.ModelError, match="not a SentencePiece model"):
            sp.SentencePieceBPE.from_bytes(data)
    with pytest.raises(ValueError, match="sha256"):
        real.load("mistral_v1", data=mistral_file("mistral_instruct_tokenizer_240323.model.v3").read_bytes(), check=True)


def test_every_table_has_its_context_window_and_label():
    for name in real.NAMES:
        assert real.LABELS[name] and real.CONTEXTS[name][1] > 0


def test_tekkens_vocabulary_and_inspector_give_the_files_ranks():
    """Tekken's id is its file's rank + 1000: the vocabulary's rank column and the inspector say both."""
    pytest.importorskip("panel")
    from bpe.explain.vocabulary import real_vocabulary
    from bpe_app import inspector_view
    from bpe_app.state import AppState

    tekken = real.load("tekken")
    hello = tekken.encode_ordinary("Hello")[0]
    rows = {row.id: row for row in real_vocabulary(tekken)}
    assert rows[hello].born == hello - 1000 and rows[5].born == 0
    card = inspector_view.inspector_html(AppState().training, 0, ("tekken", hello), tekken)
    assert f"tekken id {hello:,}, rank {hello - 1000:,}" in card
    assert real_vocabulary(real.load("cl100k_base"))[9906].born == 9906  # tiktoken's: the rank is the id
