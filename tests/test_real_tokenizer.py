"""bpe.real against tiktoken itself: the same ids for cl100k_base and o200k_base.

tiktoken cannot download its rank files here, so the reference is `tiktoken.Encoding` built
from the shipped ranks and tiktoken's own pattern (Rust fancy-regex with real \\p{...} classes):
what is compared is our split (Python `re`, classes spelled out) and our merging."""
import doctest
import functools
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe
from bpe import formats, real

tiktoken = pytest.importorskip("tiktoken")

DATA = Path(__file__).parent / "data"
TEXTS = [(DATA / "heldout.txt").read_bytes().decode("utf-8"), (DATA / "train.txt").read_text(encoding="utf-8")]


@pytest.fixture(scope="module", params=real.TIKTOKEN_NAMES)
def pair(request):
    """(ours, tiktoken's) for one real tokenizer, the data checked against the official sha256."""
    ours = real.load(request.param, check=True)
    spec = real.SPECS[request.param]
    theirs = tiktoken.Encoding(name=request.param, pat_str=spec["pat_str"], special_tokens=spec["special_tokens"],
                               mergeable_ranks=ours.ranks)
    return ours, (Normalizing(theirs, spec["normalize"]) if spec.get("normalize") else theirs)


class Normalizing:
    """tiktoken's Encoding with a Unicode normal form applied first, as the Claude tokenizer's package does."""

    def __init__(self, encoding, form: str):
        self.encoding, self.form = encoding, form
        self.n_vocab = encoding.n_vocab

    def encode_ordinary(self, text: str) -> list[int]:
        return self.encoding.encode_ordinary(unicodedata.normalize(self.form, text))

    def encode(self, text: str, **options) -> list[int]:
        return self.encoding.encode(unicodedata.normalize(self.form, text), **options)


def as_encoded(ours: real.Encoding, text: str) -> str:
    """The text a round trip gives back: the normalized text, for a tokenizer that normalizes."""
    return unicodedata.normalize(ours.normalize, text) if ours.normalize else text


def test_doctests():
    assert doctest.testmod(real).failed == 0


def test_held_out_and_training_text_give_tiktokens_ids(pair):
    ours, theirs = pair
    for text in TEXTS:
        ids = ours.encode(text)
        assert ids == theirs.encode_ordinary(text)
        assert ours.decode(ids) == as_encoded(ours, text)
        assert ours.encode(text) == ids  # again, from the chunk cache


#: Characters where the patterns' parts meet: contractions (and the long s that (?i) folds to s),
#: every kind of whitespace, \r\n runs, digits of several scripts, letters of every case
#: category, combining marks, emoji with modifiers and joiners, slashes (o200k), lone surrogates.
TRICKY = list("aZzsStTlLdDmMvVeErR'’ſ \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2028\u3000/\\.,!?-_#0123456789"
              "٣४Ⅻ½éñüßİıǅʰ\u0301\u0903日本語カタカナ한국어αβΣ🎉👍🏽\u200d\ufeff") + ["\ud800", "\udfff"]


#: Code points unassigned in the running Python's Unicode (Cn) are left out: tiktoken's Rust
#: engine knows a newer Unicode, where some of them are letters (see bpe.real's docstring).
ASSIGNED = st.characters(exclude_categories=("Cn",))


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(TRICKY) | ASSIGNED, max_size=40).map("".join))
def test_any_text_gives_tiktokens_ids(pair, text):
    ours, theirs = pair
    assert ours.encode(text) == theirs.encode_ordinary(text)


def test_specials(pair):
    ours, theirs = pair
    text = "a<|endoftext|>b <|endofprompt|>"
    assert ours.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    assert ours.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special=()) == theirs.encode(
        text, allowed_special={"<|endoftext|>"}, disallowed_special=())
    assert ours.encode(text, disallowed_special=()) == theirs.encode_ordinary(text)  # plain text when not disallowed
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    if "<|endoftext|>" in ours.special_tokens:  # refused by default, as tiktoken refuses it
        with pytest.raises(ValueError, match="<\\|endoftext\\|>"):
            theirs.encode(text)
        with pytest.raises(ValueError, match="'<\\|endoftext\\|>' at character 1"):
            ours.encode(text)
    assert ours.decode(ours.encode(text, allowed_special="all")) == text
    assert ours.n_vocab == theirs.n_vocab


def test_long_pieces_merge_like_tiktoken(pair):
    """Long chunks (a run of one symbol, a long word) take the slow path: merging by rank."""
    ours, theirs = pair
    for text in ["=" * 5000, "ab" * 3000, "x" * 4097, " " * 3000 + "a", "🎉" * 700]:
        assert ours.encode(text) == theirs.encode_ordinary(text)


def test_pieces_and_split():
    enc = real.load("cl100k_base")
    assert enc.split("I'll pay 12345 now\n\n") == ["I", "'ll", " pay", " ", "123", "45", " now", "\n\n"]
    assert enc.token_texts(" hello 日本") == [(24748, " hello"), (76502, " 日"), (22656, "本")]
    assert enc.token_texts("語") == [(45918, "\\xe8\\xaa"), (252, "\\x9e")]  # half a character each
    assert enc.token_texts("🎉") == [(9468, "\\xf0\\x9f"), (236, "\\x8e"), (231, "\\x89")]


def test_load_from_bytes_and_bad_data():
    data = (Path(real.__file__).parent / real.data_file("cl100k_base")).read_bytes()
    enc = real.load("cl100k_base", data=data)
    assert enc.encode("hello") == [15339]
    with pytest.raises(ValueError, match="expected 100256 ranks"):
        real.load("cl100k_base", data=real.write_ranks([b"a", b"b"]))
    with pytest.raises(ValueError, match="sha256"):
        tokens = real.read_ranks(data)
        tokens[300], tokens[301] = tokens[301], tokens[300]
        real.load("cl100k_base", data=real.write_ranks(tokens), check=True)
    with pytest.raises(ValueError, match="unknown tokenizer"):
        real.load("p50k_edit")


def test_shipped_ranks_import_as_merges_that_encode_the_same():
    """The first 20,000 cl100k ranks, imported as a merge table, replay to tiktoken's ids in
    every chunk: for this real tokenizer our merge rule and tiktoken's agree."""
    enc = real.load("cl100k_base")
    tokens = enc.tokens[:20000]
    imported = formats.from_tiktoken(real.tiktoken_file(tokens).decode(), pretokenizer="none").saved.tokenizer
    theirs = tiktoken.Encoding(name="part", pat_str=enc.pat_str, special_tokens={},
                               mergeable_ranks={t: i for i, t in enumerate(tokens)})
    to_rank = {i: tokens.index(token) if i < 256 else i for i, token in enumerate(imported.vocab)}
    for text in TEXTS:
        ours = [to_rank[i] for chunk in enc.split(text) for i in imported.encode(chunk)]
        assert ours == theirs.encode_ordinary(text)


def _one_chunk_texts() -> list[str]:
    """Long texts that the split leaves as one chunk (or a few): where a quadratic merge shows."""
    letters = "".join(ch for ch in TEXTS[1] if ch.isalpha())[:60_000]
    return ["a" * 100_000, "ab" * 40_000, letters, "日本語" * 10_000, "".join(TEXTS[0].split())[:50_000]]


def test_long_single_chunks_give_tiktokens_ids(pair):
    ours, theirs = pair
    for text in _one_chunk_texts():
        assert ours.encode(text) == theirs.encode_ordinary(text)


@functools.cache
def cl100k() -> real.Encoding:
    return real.load("cl100k_base")


@given(st.binary(min_size=65, max_size=400))
@settings(max_examples=200)
def test_the_heap_merge_equals_the_rescan(data):
    enc = cl100k()
    piece = data.decode("latin-1").encode("utf-8")  # bytes that are each a token
    from bpe.encoding import ranks

    get = enc.ranks.get
    assert ranks._bounds_by_heap(piece, get) == ranks._bounds_by_rescan(piece, get)


#: How a caller can treat special tokens' text: tiktoken's defaults, all allowed, one allowed and
#: the rest plain, none disallowed, one disallowed and the rest plain.
SPECIAL_OPTIONS = [{}, {"allowed_special": "all"}, {"allowed_special": {"<|endoftext|>"}, "disallowed_special": ()},
                   {"disallowed_special": ()}, {"disallowed_special": {"<|endoftext|>"}},
                   {"allowed_special": {"<|endoftext|>"}}]


def encoded_or_refused(encode, text: str, options: dict):
    """The ids, or ("refused", token) for the special token whose text was refused."""
    try:
        return encode(text, **options)
    except ValueError as error:
        return "refused", next(token for token in sorted(SPECIALS_ALL, key=len, reverse=True) if repr(token) in str(error))


SPECIALS_ALL = sorted({token for name in ("cl100k_base", "o200k_base") for token in real.SPECS[name]["special_tokens"]})


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(["cl100k_base", "o200k_base"]),
       parts=st.lists(st.sampled_from(TRICKY[:-2]) | ASSIGNED | st.sampled_from(SPECIALS_ALL + ["<|", "|>"]),
                      max_size=30),
       options=st.sampled_from(SPECIAL_OPTIONS))
def test_special_tokens_in_text_as_tiktoken_treats_them(name, parts, options):
    """Specials at random places: the same ids as tiktoken's encode, or refused for the same token."""
    ours = real.load(name)
    spec = real.SPECS[name]
    theirs = tiktoken.Encoding(name=name, pat_str=spec["pat_str"], special_tokens=spec["special_tokens"],
                               mergeable_ranks=ours.ranks)
    text = "".join(parts)
    assert encoded_or_refused(ours.encode, text, options) == encoded_or_refused(theirs.encode, text, options)


def run_encode(*args: str):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "bpe", "encode", *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("flags, options", [
    ([], {}), (["--allowed-special", "all"], {"allowed_special": "all"}),
    (["--allowed-special", "<|endoftext|>", "--disallowed-special", "none"],
     {"allowed_special": {"<|endoftext|>"}, "disallowed_special": ()}),
    (["--disallowed-special", "none"], {"disallowed_special": ()}),
])
def test_the_command_line_encodes_specials_as_tiktoken_does(flags, options):
    ours = real.load("cl100k_base")
    spec = real.SPECS["cl100k_base"]
    theirs = tiktoken.Encoding(name="cl100k_base", pat_str=spec["pat_str"], special_tokens=spec["special_tokens"],
                               mergeable_ranks=ours.ranks)
    text = "hi <|endoftext|> there<|fim_prefix|>"
    code, out, err = run_encode("--tokenizer", "cl100k_base", *flags, text)
    expected = encoded_or_refused(theirs.encode, text, options)
    if expected[0] == "refused":
        assert code == 2 and out == "" and err.count("\n") == 1 and repr(expected[1]) in err
    else:
        assert code == 0 and [int(i) for i in out.split()] == expected


@pytest.mark.parametrize("args, words", [
    (["--tokenizer", "cl100k_base", "--allowed-special", "<|nope|>", "x"], "has no special token '<|nope|>'"),
    (["--tokenizer", "nosuch", "x"], "no real tokenizer of that name"),
    (["--tokenizer", "cl100k_base", "--rounds", "2", "x"], "--rounds is for a saved tokenizer"),
])
def test_the_command_line_refuses_bad_special_settings_in_one_line(args, words):
    code, out, err = run_encode(*args)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err


def test_a_saved_tokenizer_with_specials_follows_the_same_rules(tmp_path):
    """A trained tokenizer's specials (octlm's) as tiktoken treats a real one's: refused by default,
    in one line naming the token and where it is; its id when allowed; plain text, octlm's own
    rule, with --disallowed-special none."""
    from bpe.cli import main

    saved = tmp_path / "octlm.json"
    assert main(["train", "--preset", "octlm", "--out", str(saved)]) == 0
    tok = bpe.files.loads(saved.read_text(encoding="utf-8")).tokenizer
    code, out, err = run_encode("--tokenizer", str(saved), "a <|eos|>")
    assert code == 2 and out == "" and err.count("\n") == 1 and "'<|eos|>' at character 2" in err
    for flags in (["--allowed-special", "all"], ["--allowed-special", "<|eos|>"]):
        code, out, _ = run_encode("--tokenizer", str(saved), *flags, "a <|eos|>")
        assert code == 0 and [int(i) for i in out.split()] == [*tok.encode_ordinary("a "), 258]
    code, out, _ = run_encode("--tokenizer", str(saved), "--disallowed-special", "none", "a <|eos|>")
    assert code == 0 and [int(i) for i in out.split()] == tok.encode_ordinary("a <|eos|>") and "258" not in out.split()
    code, out, err = run_encode("--tokenizer", str(saved), "--allowed-special", "<|nope|>", "x")
    assert code == 2 and out == "" and "has no special token '<|nope|>'" in err


def test_a_saved_tokenizer_without_specials_encodes_their_text_as_text(tmp_path):
    from bpe.cli import main

    saved = tmp_path / "plain.json"
    assert main(["train", "--preset", "course", "--out", str(saved)]) == 0
    code, out, _ = run_encode("--tokenizer", str(saved), "a <|eos|>")
    assert code == 0 and [int(i) for i in out.split()] == list("a <|eos|>".encode())  # no merge applies
    code, out, err = run_encode("--tokenizer", str(saved), "--allowed-special", "<|eos|>", "x")
    assert code == 2 and "it has none" in err
