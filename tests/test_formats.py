"""Export to and import from Hugging Face tokenizer.json and tiktoken rank files, checked by
the libraries themselves: they must give our ids on a held-out text."""
import base64
import doctest
import json
from pathlib import Path

import pytest

import bpe
from bpe import formats
from bpe.cli import main
from bpe.encoding.alphabet import Alphabet
from bpe.encoding.pretokenize import PRETOKENIZERS, split
from bpe.encoding.tokenizer import Tokenizer
from bpe.io import files
from bpe.real import byte_pair_merge

tokenizers = pytest.importorskip("tokenizers")
tiktoken = pytest.importorskip("tiktoken")
tiktoken_load = pytest.importorskip("tiktoken.load")

DATA = Path(__file__).parent / "data"
TRAIN = (DATA / "train.txt").read_text(encoding="utf-8")
HELDOUT = (DATA / "heldout.txt").read_bytes().decode("utf-8")  # keeps its CRLF
#: Every kind of whitespace Python's \s knows, U+001C-U+001F included (Rust's \s lacks those).
SPACES = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())


@pytest.fixture(autouse=True)
def no_tiktoken_cache(monkeypatch):
    """tiktoken caches a local rank file by its path; an empty cache dir turns that off."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")


@pytest.fixture(scope="module")
def trained():
    """One tokenizer per pre-tokenizer and specials setting, trained on real text."""
    cache = {}

    def get(pretokenizer, specials="none", alphabet="bytes"):
        key = pretokenizer, specials, alphabet
        if key not in cache:
            settings = bpe.Settings(alphabet=alphabet, pretokenizer=pretokenizer, specials=specials,
                                    merges=150 if pretokenizer == "none" else 400)
            cache[key] = bpe.train(TRAIN.split("\n\n"), settings)
        return cache[key]
    return get


def save(training, path: Path) -> str:
    path.write_text(files.dumps(training), encoding="utf-8")
    return str(path)


def load_tiktoken(path: Path):
    args = json.loads(Path(f"{path}.json").read_text(encoding="utf-8"))
    return tiktoken.Encoding(mergeable_ranks=tiktoken_load.load_tiktoken_bpe(str(path)), **args)


def test_doctests():
    assert doctest.testmod(formats).failed == 0


@pytest.mark.parametrize("specials", ["none", "octlm"])
@pytest.mark.parametrize("pretokenizer", PRETOKENIZERS)
def test_hugging_face_gives_our_ids(trained, tmp_path, pretokenizer, specials, capsys):
    training = trained(pretokenizer, specials)
    out = tmp_path / "tokenizer.json"
    assert main(["export", "--tokenizer", save(training, tmp_path / "t.json"), "--format", "hf", "--out", str(out)]) == 0
    assert "tokenizers.Tokenizer.from_file" in capsys.readouterr().out
    hf = tokenizers.Tokenizer.from_file(str(out))
    ours = training.tokenizer.encode(HELDOUT)
    assert len(training.merges) > 100 and len(ours) < len(HELDOUT.encode()) * 0.8  # real merges at work
    assert hf.encode(HELDOUT).ids == ours
    assert hf.decode(ours) == HELDOUT
    for token_id, name in training.tokenizer.specials.items():
        assert hf.token_to_id(name) == token_id


@pytest.mark.parametrize("specials", ["none", "octlm"])
@pytest.mark.parametrize("pretokenizer", PRETOKENIZERS)
def test_tiktoken_gives_our_ids(trained, tmp_path, pretokenizer, specials):
    training = trained(pretokenizer, specials)
    out = tmp_path / "mine.tiktoken"
    assert main(["export", "--tokenizer", save(training, tmp_path / "t.json"), "--format", "tiktoken",
                 "--out", str(out)]) == 0
    encoding = load_tiktoken(out)
    ours = training.tokenizer.encode(HELDOUT)
    assert encoding.name == "mine"
    assert encoding.encode_ordinary(HELDOUT) == ours
    assert encoding.decode(ours) == HELDOUT
    for token_id, name in training.tokenizer.specials.items():
        assert encoding.encode(name, allowed_special="all") == [token_id]


@pytest.mark.parametrize("pretokenizer", ["words", "kinds", "gpt2"])
def test_exported_patterns_split_like_python(pretokenizer):
    """Both Rust engines read the translated pattern as `re` reads ours, whitespace included."""
    text = HELDOUT + "".join(f"a{space}b{space}{space}7{space}" for space in SPACES) + "x_1\x1c\x1f 'll" + SPACES
    chunks = split(text, pretokenizer)
    pattern = formats.exported_pattern(pretokenizer)
    splitter = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), behavior="isolated")
    assert [piece for piece, _ in splitter.pre_tokenize_str(text)] == chunks
    # tiktoken shows no chunks, only ids: give every 2- and 3-byte string of the text a rank,
    # so a chunk boundary in another place would change what merges.
    data = text.encode()
    grams = {data[i:i + n] for n in (2, 3) for i in range(len(data) - n + 1)}
    ranks = {bytes([b]): b for b in range(256)} | {g: 256 + i for i, g in enumerate(sorted(grams))}
    encoding = tiktoken.Encoding(name="split", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    expected = [i for chunk in chunks for i in byte_pair_merge(chunk.encode(), ranks)]
    assert encoding.encode_ordinary(text) == expected


def test_chars_alphabet_goes_to_hugging_face_not_tiktoken(trained, tmp_path, capsys):
    training = trained("words", alphabet="chars")
    path = save(training, tmp_path / "t.json")
    out = tmp_path / "tokenizer.json"
    assert main(["export", "--tokenizer", path, "--format", "hf", "--out", str(out)]) == 0
    assert "dropped by tokenizers" in capsys.readouterr().err
    known = "".join(c for c in HELDOUT if c in training.alphabet.chars)
    hf = tokenizers.Tokenizer.from_file(str(out))
    assert hf.encode(known).ids == training.tokenizer.encode(known)
    assert hf.decode(hf.encode(known).ids) == known
    assert main(["export", "--tokenizer", path, "--format", "tiktoken", "--out", str(tmp_path / "x.tiktoken")]) == 2
    assert "chars alphabet cannot be written as a tiktoken rank file" in capsys.readouterr().err
    assert not (tmp_path / "x.tiktoken").exists()


def handmade(tmp_path, merges) -> str:
    """A tokenizer file with merges no training on real text produced, written as a user could."""
    settings = bpe.Settings(pretokenizer="none", merges=len(merges))
    saved = files.Saved(settings, Alphabet("bytes"),
                        [bpe.Merge(r, a, b, 256 + r, 1, 1, 1) for r, (a, b) in enumerate(merges)], "")
    path = tmp_path / "hand.json"
    path.write_text(files.dumps(saved), encoding="utf-8")
    return str(path)


A, B, C = b"abc"


def test_two_merges_making_the_same_bytes_cannot_be_written(tmp_path, capsys):
    # bc, ab, a+bc = abc (258), ab+c = abc (259)
    path = handmade(tmp_path, [(B, C), (A, B), (A, 256), (257, C)])
    for fmt in ("hf", "tiktoken"):
        assert main(["export", "--tokenizer", path, "--format", fmt, "--out", str(tmp_path / "out")]) == 2
        assert "tokens 258 and 259 are both 'abc'" in capsys.readouterr().err
        assert not (tmp_path / "out").exists()


def test_tiktoken_rule_that_gives_other_ids_is_refused(tmp_path, capsys):
    # bc (256), ab (257), ab+c (258). On "abc" we merge b+c first and stop at [a, bc];
    # tiktoken takes "abc" whole, as it is a token: 258.
    path = handmade(tmp_path, [(B, C), (A, B), (257, C)])
    tokenizer = files.loads(Path(path).read_text()).tokenizer
    ranks = {token: i for i, token in enumerate(tokenizer.vocab)}
    assert tiktoken.Encoding(name="x", pat_str=r"[\s\S]+", mergeable_ranks=ranks,
                             special_tokens={}).encode_ordinary("abc") == [258]
    assert tokenizer.encode("abc") == [A, 256]
    assert main(["export", "--tokenizer", path, "--format", "tiktoken", "--out", str(tmp_path / "t")]) == 2
    assert "tiktoken's rule splits it as 'a' + 'bc'" in capsys.readouterr().err
    # Hugging Face replays merges the way we do, so that export is exact.
    assert main(["export", "--tokenizer", path, "--format", "hf", "--out", str(tmp_path / "h.json")]) == 0
    assert tokenizers.Tokenizer.from_file(str(tmp_path / "h.json")).encode("abcabc").ids == tokenizer.encode("abcabc")


def test_no_tokenizer_trained_on_real_text_is_refused(trained):
    for pretokenizer in PRETOKENIZERS:
        for specials in ("none", "octlm"):
            assert formats.tiktoken_mismatches(trained(pretokenizer, specials).tokenizer) == []


@pytest.mark.parametrize("fmt", formats.FORMATS)
@pytest.mark.parametrize("pretokenizer,specials", [("gpt2", "octlm"), ("kinds", "none"), ("words", "none"),
                                                   ("none", "octlm")])
def test_import_gives_back_what_was_exported(trained, tmp_path, fmt, pretokenizer, specials):
    training = trained(pretokenizer, specials)
    exported = tmp_path / "exported"
    assert main(["export", "--tokenizer", save(training, tmp_path / "t.json"), "--format", fmt,
                 "--out", str(exported)]) == 0
    assert main(["import", "--format", fmt, str(exported), "--out", str(tmp_path / "back.json")]) == 0
    back = files.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    assert back.settings.pretokenizer == pretokenizer and back.settings.specials == specials
    assert [(m.left, m.right, m.id) for m in back.merges] == [(m.left, m.right, m.id) for m in training.merges]
    assert back.tokenizer.encode(HELDOUT) == training.tokenizer.encode(HELDOUT)


def gpt2_layout(tokenizer: Tokenizer) -> dict:
    """Our tokenizer as GPT-2's own tokenizer.json lays it out: ByteLevel with its built-in
    regex, and single bytes numbered in the byte-to-character map's order, not by value."""
    data = formats.to_hf(tokenizer)
    order = sorted(range(256), key=lambda b: ord(formats.byte_to_char()[b]))
    renumber = {byte: i for i, byte in enumerate(order)}
    vocab = data["model"]["vocab"]
    data["model"]["vocab"] = {name: renumber.get(i, i) for name, i in vocab.items()}
    data["pre_tokenizer"] = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    return data


def test_import_a_gpt2_style_file(trained, tmp_path, capsys):
    training = trained("gpt2")
    data = gpt2_layout(training.tokenizer)
    path = tmp_path / "gpt2-style.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    hf = tokenizers.Tokenizer.from_file(str(path))
    assert main(["import", "--format", "hf", str(path), "--out", str(tmp_path / "in.json")]) == 0
    assert "ids differ from the file's" in capsys.readouterr().err
    imported = files.loads((tmp_path / "in.json").read_text(encoding="utf-8")).tokenizer
    assert imported.settings.pretokenizer == "gpt2"
    to_file = {i: data["model"]["vocab"][formats.byte_level_name(token)] for i, token in enumerate(imported.vocab)}
    assert [to_file[i] for i in imported.encode(HELDOUT)] == hf.encode(HELDOUT).ids


def test_import_refusals(trained, tmp_path, capsys):
    tokenizer = trained("kinds").tokenizer
    wordpiece = {"model": {"type": "WordPiece", "vocab": {}}}
    (tmp_path / "wp.json").write_text(json.dumps(wordpiece))
    assert main(["import", "--format", "hf", str(tmp_path / "wp.json"), "--out", str(tmp_path / "o.json")]) == 2
    assert "not BPE" in capsys.readouterr().err
    data = formats.to_hf(tokenizer)
    data["normalizer"] = {"type": "NFC"}
    (tmp_path / "nfc.json").write_text(json.dumps(data))
    assert main(["import", "--format", "hf", str(tmp_path / "nfc.json"), "--out", str(tmp_path / "o.json")]) == 2
    assert "normalizer (NFC)" in capsys.readouterr().err
    ranks, _ = formats.to_tiktoken(tokenizer)
    (tmp_path / "bare.tiktoken").write_text(ranks)
    assert main(["import", "--format", "tiktoken", str(tmp_path / "bare.tiktoken"), "--out", str(tmp_path / "o.json")]) == 2
    assert "has no split pattern" in capsys.readouterr().err
    (tmp_path / "bare.tiktoken.json").write_text(json.dumps({"pat_str": bpe.real.SPECS["cl100k_base"]["pat_str"]}))
    assert main(["import", "--format", "tiktoken", str(tmp_path / "bare.tiktoken"), "--out", str(tmp_path / "o.json")]) == 2
    assert "cl100k_base's split" in capsys.readouterr().err
    assert not (tmp_path / "o.json").exists()
    assert main(["import", "--format", "tiktoken", str(tmp_path / "bare.tiktoken"), "--out", str(tmp_path / "o.json"),
                 "--pretokenizer", "kinds"]) == 0
    assert "--pretokenizer kinds instead of the file's own pattern" in capsys.readouterr().err
    (tmp_path / "bad.tiktoken").write_text("not base64!! x\n")
    assert main(["import", "--format", "tiktoken", str(tmp_path / "bad.tiktoken"), "--out", str(tmp_path / "o.json"),
                 "--pretokenizer", "none"]) == 2
    assert "line 1 of the rank file" in capsys.readouterr().err


def test_export_user_errors(tmp_path, capsys):
    assert main(["export", "--tokenizer", str(tmp_path / "missing.json"), "--format", "hf", "--out", "x"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["export", "--tokenizer", "x", "--format", "sentencepiece", "--out", "y"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_byte_level_names_are_gpt2s():
    table = formats.byte_to_char()
    assert (table[ord(" ")], table[ord("\n")], table[ord("a")], table[0], table[255]) == ("Ġ", "Ċ", "a", "Ā", "ÿ")
    assert len(set(table.values())) == 256
    assert formats.byte_level_bytes(formats.byte_level_name(bytes(range(256)))) == bytes(range(256))


def test_rank_file_is_tiktokens_format(trained):
    ranks, args = formats.to_tiktoken(trained("gpt2", "octlm").tokenizer)
    first = ranks.splitlines()[:2]
    assert first == [f"{base64.b64encode(bytes([0])).decode()} 0", f"{base64.b64encode(bytes([1])).decode()} 1"]
    assert args["special_tokens"]["<|eos|>"] == 258
    assert not any(line.endswith((" 256", " 260")) for line in ranks.splitlines())


# --- every text gives our ids, special tokens' text and Python-only whitespace included -------

SPECIALS_TEXT = "say <|eos|> then <|pad|><|bos|> and <|tool_call|>x<|tool_result|> <|eos"


@pytest.mark.parametrize("pretokenizer", PRETOKENIZERS)
def test_hugging_face_never_reads_a_special_tokens_text_as_the_special(trained, tmp_path, pretokenizer):
    training = trained(pretokenizer, "octlm")
    path = tmp_path / "hf.json"
    path.write_text(formats.to_hf_json(training.tokenizer), encoding="utf-8")
    hf = tokenizers.Tokenizer.from_file(str(path))
    ours = training.tokenizer.encode_ordinary(SPECIALS_TEXT)  # octlm's own rule: the text is plain text
    assert hf.encode(SPECIALS_TEXT).ids == ours and not set(ours) & set(training.tokenizer.specials)
    assert hf.encode("<|eos|>").ids == training.tokenizer.encode_ordinary("<|eos|>") != [258]
    assert main(["import", "--format", "hf", str(path), "--out", str(tmp_path / "back.json")]) == 0
    assert files.loads((tmp_path / "back.json").read_text(encoding="utf-8")).settings.specials == "octlm"


def test_gpt2_whitespace_is_the_rust_engines_whitespace(trained, tmp_path):
    training = trained("gpt2")
    text = "x.\x1c.y a\x1f\x1e b\u3000\u3000c" + HELDOUT[:500]
    path = tmp_path / "hf.json"
    path.write_text(formats.to_hf_json(training.tokenizer), encoding="utf-8")
    assert tokenizers.Tokenizer.from_file(str(path)).encode(text).ids == training.tokenizer.encode(text)
    layout = tmp_path / "gpt2-style.json"
    layout.write_text(json.dumps(gpt2_layout(training.tokenizer)), encoding="utf-8")  # ByteLevel's own regex
    hf = tokenizers.Tokenizer.from_file(str(layout))
    assert main(["import", "--format", "hf", str(layout), "--out", str(tmp_path / "in.json")]) == 0
    imported = files.loads((tmp_path / "in.json").read_text(encoding="utf-8")).tokenizer
    vocab = gpt2_layout(training.tokenizer)["model"]["vocab"]
    assert [vocab[formats.byte_level_name(imported.vocab[i])] for i in imported.encode(text)] == hf.encode(text).ids


def test_imported_cl100k_goes_back_out_to_tiktoken(tmp_path):
    enc = bpe.real.load("cl100k_base")
    imported = formats.from_tiktoken(bpe.real.tiktoken_file(enc.tokens).decode("ascii"), {"pat_str": enc.pat_str},
                                     pretokenizer="gpt2").saved.tokenizer
    ranks, _ = formats.to_tiktoken(imported)
    assert len(ranks.splitlines()) == len(enc.tokens)


def _hf_file(trained, change):
    data = formats.to_hf(trained("kinds").tokenizer)
    change(data)
    return data


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(normalizer="NFC"), "normalizer (NFC)"),
    (lambda d: d.update(pre_tokenizer="ByteLevel"), "pre-tokenizer must be an object"),
    (lambda d: d.update(pre_tokenizer=[{"type": "ByteLevel"}]), "pre-tokenizer must be an object"),
    (lambda d: d["model"].update(merges=None), '"merges" must be a list'),
    (lambda d: d["model"].update(merges={"a": "b"}), '"merges" must be a list'),
    (lambda d: d["model"]["merges"].__setitem__(0, 5), 'merge 0 must be "left right"'),
    (lambda d: d["model"]["merges"].__setitem__(0, "a b c"), 'merge 0 must be "left right"'),
    (lambda d: d["model"].update(vocab=["a"]), "whole-number id"),
    (lambda d: d["model"]["vocab"].update(a="97"), "whole-number id"),
    (lambda d: d.update(added_tokens=[{"id": 300}]), 'added token 0 must have a "content"'),
    (lambda d: d["model"].update(dropout=0.1), "dropout"),
    (lambda d: d["model"].update(ignore_merges=True), "ignore_merges"),
    (lambda d: d["model"].update(byte_fallback=True), "byte_fallback"),
])
def test_hugging_face_files_bpe_cannot_honour_are_refused(trained, tmp_path, capsys, change, words):
    path = tmp_path / "hf.json"
    path.write_text(json.dumps(_hf_file(trained, change)))
    assert main(["import", "--format", "hf", str(path), "--out", str(tmp_path / "o.json")]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and not (tmp_path / "o.json").exists()


@pytest.mark.parametrize("args, words", [
    ({"special_tokens": [1]}, '"special_tokens" must map'),
    ({"pat_str": 5}, '"pat_str" must be the split pattern'),
    ([1], "must be an object"),
])
def test_tiktoken_arguments_are_checked(trained, tmp_path, capsys, args, words):
    ranks, _ = formats.to_tiktoken(trained("kinds").tokenizer)
    (tmp_path / "r.tiktoken").write_text(ranks)
    (tmp_path / "r.tiktoken.json").write_text(json.dumps(args))
    assert main(["import", "--format", "tiktoken", str(tmp_path / "r.tiktoken"), "--out", str(tmp_path / "o.json"),
                 "--pretokenizer", "kinds"]) == 2
    assert words in capsys.readouterr().err
