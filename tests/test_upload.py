"""A tokenizer file given as bytes (the page's upload): each format read, checked against the
library that writes it, and everything bpe cannot express refused with a message."""
from __future__ import annotations

import io
import json
import zipfile

import pytest

import bpe
from bpe.formats import FormatError, to_hf_json, upload
from bpe.formats import tiktoken as tiktoken_format
from bpe import real
from bpe.presets import PRESETS
from bpe.real.imported import ImportedEncoding

MIXED = "def walk(x):\n    return x  # 2024 walked 東京は日本の首都です 🍣 don't\t\n"


@pytest.fixture(scope="module")
def tokenizer() -> bpe.Tokenizer:
    preset = PRESETS["english-japanese"]  # bytes + gpt2, 200 merges
    return bpe.train(preset.documents, preset.settings).tokenizer


def encoding_of(data: bytes, name: str, pretokenizer: str | None = None) -> ImportedEncoding:
    imported = upload.read(data, name, pretokenizer)
    return ImportedEncoding("upload", name, imported.saved.tokenizer, imported.notes)


def test_a_hugging_face_file_encodes_as_tokenizers_does(tokenizer):
    hf = pytest.importorskip("tokenizers")
    data = to_hf_json(tokenizer).encode()
    encoding = encoding_of(data, "tokenizer.json")
    assert encoding.encode_ordinary(MIXED) == hf.Tokenizer.from_str(data.decode()).encode(MIXED).ids
    assert encoding.encode_ordinary(MIXED) == tokenizer.encode(MIXED)


def test_this_pages_tiktoken_zip_encodes_as_tiktoken_does(tokenizer):
    tiktoken = pytest.importorskip("tiktoken")
    data = tiktoken_format.download(tokenizer)
    encoding = encoding_of(data, "bpe-tiktoken.zip")
    ranks, args = tiktoken_format.to_tiktoken(tokenizer, "bpe")
    theirs = tiktoken.Encoding(mergeable_ranks={bytes(t): r for t, r in _ranks(ranks).items()}, **args)
    assert encoding.encode_ordinary(MIXED) == theirs.encode_ordinary(MIXED)


def test_a_bare_rank_file_is_split_as_chosen(tokenizer):
    ranks, _ = tiktoken_format.to_tiktoken(tokenizer, "bpe")
    assert encoding_of(ranks.encode(), "bpe.tiktoken", "gpt2").encode_ordinary(MIXED) == tokenizer.encode(MIXED)
    with pytest.raises(FormatError, match="holds no split pattern: choose the pre-tokenizer"):
        upload.read(ranks.encode(), "bpe.tiktoken")


def _ranks(text: str) -> dict[bytes, int]:
    import base64
    return {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in text.splitlines())}


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def _hf(**changes) -> bytes:
    data = json.loads(to_hf_json(bpe.train(["aa ab"], bpe.Settings(pretokenizer="gpt2", merges=2)).tokenizer))
    for path, value in changes.items():
        *parents, last = path.split("__")
        target = data
        for key in parents:
            target = target[key]
        target[last] = value
    return json.dumps(data).encode()


REFUSED = {
    "too large": (b"{" + b" " * upload.MAX_BYTES + b"}", "is 20.0 MiB"),
    "empty": (b"  \n", "is empty"),
    "not UTF-8": (b"\xff\xfe{}", "not UTF-8 text"),
    "broken JSON": (b'{"model": ', "invalid JSON"),
    "deep JSON": (b"{" + b'"a":[' * 100_000, "invalid JSON"),
    "WordPiece": (_hf(model__type="WordPiece"), "not BPE"),
    "a normalizer": (_hf(normalizer={"type": "NFC"}), "normalizer"),
    "another split pattern": (_hf(pre_tokenizer={"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": r"\p{L}+"}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}), "pattern"),
    "a zip of something else": (_zip({"notes.txt": b"hello"}), "holds no bpe.tiktoken"),
    "a damaged zip": (b"PK\x03\x04" + b"\x00" * 40, "the zip cannot be read"),
    "a rank file missing bytes": (b"YQ== 0\n", "no rank for 255 single byte"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_what_bpe_cannot_read_or_express_is_refused_with_a_reason(case):
    data, reason = REFUSED[case]
    with pytest.raises(bpe.errors.UserInputError, match=reason) as caught:
        upload.read(data, "x.json", "gpt2")
    assert str(caught.value).startswith("x.json")


def test_the_merge_tree_is_the_files_merges(tokenizer):
    encoding = encoding_of(to_hf_json(tokenizer).encode(), "t.json")
    for token_id in range(256, len(tokenizer.vocab)):
        left, right = encoding.parents(token_id)
        assert encoding.tokens[left] + encoding.tokens[right] == encoding.tokens[token_id]
    assert encoding.parents(97) == () and encoding.n_vocab == len(tokenizer.vocab)


def test_a_lone_surrogate_is_replaced_as_the_real_tokenizers_replace_it(tokenizer):
    """UTF-8 cannot hold one: like tiktoken and bpe.real, the file's encoder reads it as U+FFFD."""
    encoding = encoding_of(to_hf_json(tokenizer).encode(), "t.json")
    assert encoding.encode_ordinary("a\ud800b") == tokenizer.encode("a\ufffdb")
    assert real.load("cl100k_base").encode_ordinary("a\ud800b") == real.load("cl100k_base").encode_ordinary("a\ufffdb")
