"""Promises kept where users meet the program: files read byte for byte, one document rule,
clear errors for bad text and bad files, output files that behave like files."""
import doctest
import importlib
import itertools
import json
import os
import pkgutil
import re
import stat
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import bpe
from bpe.cli import main
from bpe.errors import TextError, UserInputError
from bpe.io import files, textio
from bpe.options import DOCUMENTS

ROOT = Path(__file__).resolve().parent.parent


def run(*args, stdin=None):
    """`python3 -m bpe` in a subprocess (arguments may be bytes): exit code, stdout, stderr as text."""
    done = subprocess.run([sys.executable, "-m", "bpe", *args], capture_output=True, input=stdin)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def tokens(*args) -> list[int]:
    code, out, err = run("train", *args, "--alphabet", "chars", "--pretokenizer", "none", "--merges", "0", "--json")
    assert code == 0, err
    return json.loads(out)["tokens"]


@pytest.mark.parametrize("module", [m.name for m in pkgutil.walk_packages(bpe.__path__, "bpe.")
                                    if m.name not in ("bpe.__main__",)])
def test_every_core_module_doctest(module):
    assert doctest.testmod(importlib.import_module(module)).failed == 0


# --- 1. a file is trained on byte for byte -------------------------------------------------

def test_a_file_keeps_its_crlf_and_lone_cr(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"a\r\nb\rc")
    assert tokens(str(path)) == tokens("--text", "a\r\nb\rc") == [6]


def test_lines_end_at_newline_only(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes("x = 1\fy = 2\v\x1c\x85\u2028\u2029z\r\nw\n\nv".encode())
    code, out, _ = run("train", str(path), "--documents", "line", "--alphabet", "chars", "--pretokenizer", "none",
                       "--merges", "0", "--json")
    assert code == 0
    assert DOCUMENTS.choose("line").split(path.read_bytes().decode()) == [
        "x = 1\fy = 2\v\x1c\x85\u2028\u2029z", "w", "v"]


@pytest.mark.parametrize("text, expected", [
    ("p1\n \n \np2", ["p1", "p2"]),
    ("p1\r\n\t\r\n\r\np2\r\nq2\r\n", ["p1", "p2\r\nq2"]),
    ("\n\n  p1\n\u3000\np2 \n", ["  p1", "p2 "]),
    ("one\ntwo\n", ["one\ntwo"]),
])
def test_paragraphs_end_at_blank_or_whitespace_only_lines(text, expected):
    assert DOCUMENTS.choose("paragraph").split(text) == expected


@given(st.text(st.sampled_from("ab \t\r\n\f\v\x1c\x85\u2028é")), st.sampled_from(DOCUMENTS.names))
def test_no_character_but_a_separator_is_dropped_or_changed(text, mode):
    found = DOCUMENTS.choose(mode).split(text)
    if mode == "file":
        assert "".join(found) == text
    elif mode == "line":
        assert "".join(found) == re.sub(r"\r?\n", "", text)
    else:  # in order, and only whitespace (holding a line break) between and around them
        at = 0
        for paragraph in found:
            start = text.index(paragraph, at)
            gap = text[at:start]
            assert gap.strip() == "" and (at == 0 or gap.count("\n") >= 2)
            assert all(line.strip() for line in paragraph.split("\n"))
            at = start + len(paragraph)
        assert text[at:].strip() == ""


def test_invalid_utf8_in_an_argument_or_on_stdin_names_the_byte(tmp_path):
    code, _, err = run("train", "--text", b"ok\xff")
    assert code == 2 and err == "bpe: error: --text: not UTF-8 text: invalid UTF-8 at byte 2 (0xFF)\n"
    assert main(["train", "--preset", "course", "--out", str(tmp_path / "t.json")]) == 0
    code, _, err = run("encode", "--tokenizer", str(tmp_path / "t.json"), stdin=b"a\xffb")
    assert code == 2 and "standard input: not UTF-8 text: invalid UTF-8 at byte 1 (0xFF)" in err
    path = tmp_path / "bom.txt"
    path.write_bytes(textio.BOM + b"caf\xe9")
    assert textio.read_bytes(str(path)) and main(["train", str(path)]) == 2


@pytest.mark.parametrize("alphabet", ["bytes", "chars"])
def test_a_lone_surrogate_is_refused_everywhere(alphabet):
    settings = bpe.Settings(alphabet=alphabet, pretokenizer="words", merges=3)
    with pytest.raises(TextError, match="lone surrogate"):
        bpe.train(["a\udcff walk"], settings)
    tokenizer = bpe.train(["walk walk"], settings).tokenizer
    with pytest.raises(TextError, match="U\\+DCFF"):
        tokenizer.encode("walk\udcff")
    data = files.to_dict(bpe.train(["walk walk"], bpe.Settings(alphabet="chars", merges=1)))
    data["alphabet"]["chars"] = " aklw\udcff"
    with pytest.raises(files.TokenizerFileError, match="lone surrogate"):
        files.from_dict(data)


def test_files_are_read_at_most_to_the_limit(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(textio, "MAX_INPUT_BYTES", 1000)
    assert main(["train", "/dev/zero"]) == 2
    assert "/dev/zero: more than 1000 bytes" in capsys.readouterr().err
    (tmp_path / "a.txt").write_text("a" * 600)
    (tmp_path / "b.txt").write_text("b" * 1001)
    # Files stream one at a time, so the limit is per file: two of 600 bytes train...
    assert main(["train", str(tmp_path / "a.txt"), str(tmp_path / "a.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tokens"][0] == 1200
    # ... and a file over it is refused even after others were read, with nothing written.
    out = tmp_path / "tok.json"
    assert main(["train", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--out", str(out)]) == 2
    assert "b.txt: more than 1000 bytes" in capsys.readouterr().err and not out.exists()


# --- 4. every user error is one line and exit 2 ------------------------------------------------

def _doubling_tokenizer(path):
    merges = [{"rank": i, "left": 97 if i == 0 else 255 + i, "right": 97 if i == 0 else 255 + i, "id": 256 + i,
               "count": 1, "replacements": 1, "ties": 1} for i in range(40)]
    data = files.to_dict(bpe.train(["aa"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=40)))
    data["merges"] = merges
    path.write_text(json.dumps(data))
    return str(path)


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "tok.json"
    assert main(["train", "--preset", "octlm", "--out", str(path)]) == 0
    return str(path)


def one_line_exit_2(args, capsys, words):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err


def test_output_paths_that_cannot_be_written(tmp_path, saved, capsys):
    folder = tmp_path / "d"
    folder.mkdir()
    one_line_exit_2(["train", "--preset", "course", "--out", str(folder)], capsys, "is a directory")
    one_line_exit_2(["export", "--tokenizer", saved, "--format", "tiktoken", "--out", str(folder)], capsys,
                    "is a directory")
    one_line_exit_2(["train", "--preset", "course", "--out", "/proc/o.json"], capsys, "cannot write in /proc")
    one_line_exit_2(["train", "--preset", "course", "--out", str(tmp_path / "no" / "o.json")], capsys,
                    "does not exist")
    one_line_exit_2(["train", "--preset", "course", "--out", ""], capsys, "output file name is empty")


def test_a_read_only_folder_as_a_user(tmp_path):
    """As the issue reproduced it: a mode-555 folder, written by a user who is not root."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run the command as another user")
    import shutil
    import tempfile

    as_nobody = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", os.path.realpath(sys.executable)]
    if subprocess.run([*as_nobody, "-c", "pass"], capture_output=True).returncode:
        pytest.skip("the interpreter is not one the nobody user may run here")
    code, folder = tempfile.mkdtemp(prefix="bpe-code-"), tempfile.mkdtemp(prefix="bpe-ro-")  # in /tmp: any user walks it
    try:
        shutil.copytree(ROOT / "bpe", os.path.join(code, "bpe"))  # the checkout itself may be private to root
        os.chmod(code, 0o755)
        os.chmod(folder, 0o555)
        done = subprocess.run([*as_nobody, "-m", "bpe", "train", "--preset", "course",
                               "--out", os.path.join(folder, "o.json")],
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": code})
    finally:
        shutil.rmtree(code)
        os.rmdir(folder)
    assert done.returncode == 2 and "cannot write in" in done.stderr and "Traceback" not in done.stderr


def test_hostile_tokenizer_files(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    one_line_exit_2(["encode", "--tokenizer", str(deep), "x"], capsys, "nested too deeply")
    one_line_exit_2(["import", "--format", "hf", str(deep), "--out", str(tmp_path / "o.json")], capsys,
                    "nested too deeply")
    one_line_exit_2(["encode", "--tokenizer", _doubling_tokenizer(tmp_path / "dbl.json"), "x"], capsys, "256 MiB")


def test_a_closed_pipe_stops_quietly(tmp_path):
    """More output than a pipe buffers (64 KiB), and the reader goes away after 20 bytes, as `| head -c 20` does.

    Both commands must print well over 64 KiB, or they could finish before the reader leaves
    and exit 0: 3,000 merges of the 17,576 three-letter words print about 130 KB.
    """
    assert main(["train", "--text", "a" * 5000, "--text", "b" * 5000, "--pretokenizer", "none", "--merges", "3000",
                 "--min-frequency", "1", "--out", str(tmp_path / "t.json")]) == 0
    words = tmp_path / "words.txt"
    words.write_text(" ".join(map("".join, itertools.product(string.ascii_lowercase, repeat=3))))
    for args, stdin in ((["train", str(words), "--merges", "3000", "--min-frequency", "1"], None),
                        (["encode", "--tokenizer", str(tmp_path / "t.json")], b"a b " * 100_000)):
        # bufsize=0: read(20) takes 20 bytes, not a buffer's worth, so the pipe fills and stays full.
        first = subprocess.Popen([sys.executable, "-m", "bpe", *args], stdin=subprocess.PIPE, bufsize=0,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if stdin:
            first.stdin.write(stdin)
        first.stdin.close()
        first.stdout.read(20)
        first.stdout.close()
        assert first.wait() == 141 and first.stderr.read() == b""


def test_negative_ids_are_an_error(saved, capsys):
    one_line_exit_2(["decode", "--tokenizer", saved, "--", "-1", "-2"], capsys, "-1 is not a token id")
    tokenizer = files.loads(open(saved).read()).tokenizer
    with pytest.raises(UserInputError, match="-2 is not a token id"):
        tokenizer.decode(i for i in [97, -2])  # a generator, read once


def test_two_file_export_writes_both_or_neither(tmp_path, saved, capsys):
    (tmp_path / "x.tiktoken.json").mkdir()
    one_line_exit_2(["export", "--tokenizer", saved, "--format", "tiktoken", "--out", str(tmp_path / "x.tiktoken")],
                    capsys, "is a directory")
    assert sorted(os.listdir(tmp_path)) == ["tok.json", "x.tiktoken.json"]


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(version=True), "version True"),
    (lambda d: d.update(version=1.0), "version 1.0"),
    (lambda d: d["merges"][0].update(left=True), "whole numbers"),
    (lambda d: d["merges"][0].update(count=-1), "count must be from 0"),
    (lambda d: d["merges"][0].update(count=10 ** 400), "count must be from 0"),
    (lambda d: d.update(specials="garbage"), '"specials" must be'),
    (lambda d: d["settings"].update(vocab_size=3, merges=None), "below the base vocabulary"),
    (lambda d: d["settings"].update(merges=1), "more than its \"settings\" budget"),
    (lambda d: d["settings"].update(min_frequency=True), "--min-frequency"),
    (lambda d: d.update(settings=[1]), '"settings" must be an object'),
    (lambda d: d.update(corpus_sha256=5), '"corpus_sha256"'),
])
def test_tokenizer_files_are_checked_field_by_field(change, words):
    data = files.to_dict(bpe.train(["walk walked"] * 2, bpe.Settings(alphabet="chars", merges=4)))
    change(data)
    with pytest.raises(files.TokenizerFileError, match=re.escape(words)):
        files.from_dict(json.loads(json.dumps(data)))


def test_internal_value_errors_are_not_reported_as_user_errors(monkeypatch):
    def broken(args):
        raise ValueError("a bug")
    monkeypatch.setattr("bpe.cli.commands.command_presets", broken)
    with pytest.raises(ValueError, match="a bug"):
        main(["presets"])


# --- 5. output files behave like files ---------------------------------------------------------

def test_output_respects_the_umask_and_an_existing_mode(tmp_path):
    old = os.umask(0o027)
    try:
        assert main(["train", "--preset", "course", "--out", str(tmp_path / "new.json")]) == 0
        assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640
    finally:
        os.umask(old)
    existing = tmp_path / "old.json"
    existing.write_text("{}")
    existing.chmod(0o604)
    assert main(["train", "--preset", "course", "--out", str(existing)]) == 0
    assert stat.S_IMODE(os.stat(existing).st_mode) == 0o604 and files.loads(existing.read_text())


def test_output_writes_through_a_symbolic_link(tmp_path):
    (tmp_path / "link.json").symlink_to("real.json")
    assert main(["train", "--preset", "course", "--out", str(tmp_path / "link.json")]) == 0
    assert (tmp_path / "link.json").is_symlink() and files.loads((tmp_path / "real.json").read_text())


def test_output_never_overwrites_an_input(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("walk walked")
    one_line_exit_2(["train", str(corpus), "--out", str(corpus)], capsys, "is also an input")
    assert corpus.read_text() == "walk walked"


def test_a_device_is_written_to_never_replaced(capsys):
    one_line_exit_2(["train", "--preset", "course", "--out", "/dev/full"], capsys, "No space left on device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
