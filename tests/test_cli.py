"""The command line contract users script against."""
import json
import os
import subprocess
import sys

import pytest

from bpe.cli import main


def run(*args, stdin=None):
    """Run `python3 -m bpe` in a subprocess: exit code, stdout, stderr."""
    done = subprocess.run([sys.executable, "-m", "bpe", *args], capture_output=True, text=True, input=stdin)
    return done.returncode, done.stdout, done.stderr


COURSE_TRACE = """\
TRACE bpe-merges-v1 BEGIN
CANDIDATE rank=0 left=97 right=97 count=2 winner=yes
CANDIDATE rank=0 left=97 right=98 count=1 winner=no
CANDIDATE rank=0 left=98 right=97 count=1 winner=no
MERGE rank=0 left=97 right=97 count=2 replacements=1 token=256 bytes_hex=6161
CANDIDATE rank=1 left=97 right=98 count=1 winner=yes
CANDIDATE rank=1 left=98 right=97 count=1 winner=no
CANDIDATE rank=1 left=256 right=97 count=1 winner=no
MERGE rank=1 left=97 right=98 count=1 replacements=1 token=257 bytes_hex=6162
TRACE bpe-merges-v1 END
"""


def test_course_trace_matches_the_worked_example():
    code, out, _ = run("train", "--text", "aaa", "--text", "aba", "--alphabet", "bytes", "--pretokenizer", "none",
                       "--tie", "smallest", "--min-frequency", "1", "--merges", "2", "--trace")
    assert code == 0 and out == COURSE_TRACE
    assert run("train", "--preset", "course", "--trace")[1] == COURSE_TRACE


def test_train_json(capsys):
    assert main(["train", "--preset", "course", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tokens"] == [6, 5, 4]
    assert data["merges"][0] == {"rank": 0, "left": 97, "right": 97, "id": 256, "count": 2,
                                 "replacements": 1, "ties": 1, "text": "aa"}
    assert data["merges"][1]["ties"] == 3


def test_invalid_utf8_bytes_are_written_as_escapes(capsys):
    assert main(["train", "--text", "éé éé", "--pretokenizer", "none", "--merges", "1", "--json"]) == 0
    merge = json.loads(capsys.readouterr().out)["merges"][0]
    assert (merge["left"], merge["right"], merge["text"]) == (0xC3, 0xA9, "é")
    # 日本 is e6 97 a5 e6 9c ac: every pair ties, and the smallest is (0x97, 0xa5), half a character
    assert main(["train", "--text", "日本", "--text", "日本", "--pretokenizer", "none", "--merges", "1", "--json"]) == 0
    merge = json.loads(capsys.readouterr().out)["merges"][0]
    assert (merge["left"], merge["right"], merge["text"]) == (0x97, 0xA5, "\\x97\\xa5")


def test_train_files_save_encode_decode(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat sat\n\nthe mat sat\nthe hat\n", encoding="utf-8")
    out = tmp_path / "tok.json"
    code, _, _ = run("train", str(corpus), "--documents", "paragraph", "--alphabet", "chars",
                     "--pretokenizer", "words", "--merges", "10", "--out", str(out))
    assert code == 0 and out.exists()
    code, text, _ = run("encode", "--tokenizer", str(out), "--json", "the cat ß")
    encoded = json.loads(text)
    assert "".join(encoded["pieces"]) == "the cat ß" and encoded["ids"][-1] is None
    code, text, _ = run("encode", "--tokenizer", str(out), "--json", stdin="the hat")
    ids = json.loads(text)["ids"]
    assert run("decode", "--tokenizer", str(out), *map(str, ids))[1] == "the hat\n"


def test_presets_lists_every_preset():
    code, out, _ = run("presets")
    assert code == 0 and "course" in out and "from-scratch" in out


@pytest.mark.parametrize("args, message", [
    (["train", "missing.txt"], "missing.txt: no such file"),
    (["train", "--text", "abc", "--vocab-size", "100"], "below the base vocabulary of 256"),
    (["train", "--text", "abc", "--alphabet", "chars", "--specials", "octlm"], "--specials octlm"),
    (["train", "--text", "abc", "--min-frequency", "0"], "--min-frequency"),
    (["train", "--text", "abc", "--merges", "-1"], "--merges"),
    (["train", "--tie", "first"], "--tie"),
    (["train", "--preset", "nope"], "unknown preset"),
    (["encode", "--tokenizer", "missing.json", "x"], "no such file"),
    (["train", "--text", "a\ud800", "--pretokenizer", "none"], "lone surrogate"),
])
def test_user_errors_exit_2_with_one_line(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_undecodable_file_is_a_user_error(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok \xff\xfe not utf-8")
    assert main(["train", str(bad), "--alphabet", "chars"]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err


def test_bad_tokenizer_file(tmp_path, capsys):
    bad = tmp_path / "t.json"
    bad.write_text('{"format": "bpe-tokenizer", "version": 7}')
    assert main(["encode", "--tokenizer", str(bad), "x"]) == 2
    assert "unsupported tokenizer file version 7" in capsys.readouterr().err


def test_errors_leave_no_output_file(tmp_path):
    out = tmp_path / "tok.json"
    assert main(["train", "--text", "abc", "--vocab-size", "3", "--out", str(out)]) == 2
    assert not out.exists() and os.listdir(tmp_path) == []


def test_empty_corpus_gives_zero_merges_and_a_message(capsys):
    assert main(["train", "--text", "", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["merges"] == [] and "corpus is empty" in captured.err


def test_budget_zero_keeps_the_base_vocabulary(capsys):
    assert main(["train", "--text", "aaaa", "--merges", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["merges"] == [] and data["vocab_size"] == 256 and data["tokens"] == [4]


def test_budget_is_an_upper_bound(capsys):
    assert main(["train", "--text", "abab", "--pretokenizer", "none", "--merges", "50", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["merges"]) == 1 and "below the minimum of 2" in data["stopped"]
