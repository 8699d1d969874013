"""Tokenizer files round-trip, and a broken one gives a clear error."""
import json

import pytest

import bpe
from bpe.io import files
from bpe.io.files import TokenizerFileError


@pytest.fixture(scope="module")
def training():
    return bpe.train(["walk walked walking talked"] * 3, bpe.Settings(alphabet="chars", pretokenizer="words", merges=8))


def test_round_trip(training):
    saved = files.loads(files.dumps(training))
    assert saved.merges == training.merges and saved.settings == training.settings
    assert saved.corpus_sha256 == training.corpus.sha256
    assert saved.tokenizer.encode("walked talk") == training.tokenizer.encode("walked talk")


def test_octlm_specials_are_recorded():
    t = bpe.train(["aa aa aa"], bpe.Settings(specials="octlm", merges=2))
    data = files.to_dict(t)
    assert {s["id"]: s["text"] for s in data["specials"]}[258] == "<|eos|>"
    assert data["merges"][0]["id"] == 261


def _broken(training, change):
    data = files.to_dict(training)
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(version=99), "unsupported tokenizer file version 99"),
    (lambda d: d.pop("merges"), 'no "merges" field'),
    (lambda d: d["merges"][2].update(id=999), "merge 2 must have rank 2"),
    (lambda d: d["merges"][1].update(left=10**6), "does not exist"),
    (lambda d: d["merges"].append({**d["merges"][0], "rank": 8, "id": d["merges"][7]["id"] + 1}), "repeats the pair"),
    (lambda d: d["settings"].update(tie="random"), "--tie must be one of"),
    (lambda d: d["alphabet"].update(chars="ba"), "code-point order"),
    (lambda d: d.update(format="other"), "not a tokenizer file"),
])
def test_broken_files_give_clear_errors(training, change, message):
    with pytest.raises(TokenizerFileError, match=message):
        files.loads(_broken(training, change))


def test_invalid_json():
    with pytest.raises(TokenizerFileError, match="invalid JSON"):
        files.loads("{")
