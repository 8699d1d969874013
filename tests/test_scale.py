"""Training at scale: streamed files, count files, parallel counting, and cheap loading.

Every path here must give the same merges as training on the text in one process."""
from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import example, given, settings as hsettings, strategies as st

import bpe
from bpe.cli import ALGORITHMS, main
from bpe.io import files
from bpe.presets import PRESETS
from bpe.trainers import counts, parallel, training
from bpe.trainers.chunks import count_chunks
from bpe.trainers.corpus import Corpus, Hasher, NoDocuments

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "bpe" / "corpora"
PRETOKENIZERS = ("none", "words", "kinds", "gpt2")
text_with_escapes = st.text(alphabet=st.sampled_from("ab \t\n\r\\é日😀\x0b\x85\u2028"), min_size=1, max_size=40)


def rows(training: bpe.Training) -> list[tuple]:
    return [(m.left, m.right, m.id, m.count, m.replacements, m.ties) for m in training.merges]


def corpus_files(tmp_path: Path) -> list[str]:
    """Real text files: the shipped corpora, and one with every kind of line ending."""
    paths = [str(path) for path in sorted(CORPORA.glob("*.txt"))]
    odd = tmp_path / "odd.txt"
    odd.write_bytes("tab\there\r\nback\\slash\rCR only\n\n日本語 😀 x\u2028y\n".encode())
    return [*paths, str(odd)]


# --- count files ------------------------------------------------------------------------------

@given(st.lists(text_with_escapes, min_size=1, max_size=8))
def test_a_count_file_gives_back_every_chunk_and_count(chunks):
    table = Counter(chunks)
    text = counts.dumps(table, "kinds")
    assert all(line.count("\t") == 1 for line in text.split("\n")[1:-1])  # one tab per line, no stray line breaks
    assert counts.loads(text, "t.tsv") == (table, "kinds")


@pytest.mark.parametrize("text, message", [
    ("3\tab\nx\tcd\n", "t.tsv, line 2: expected COUNT<TAB>CHUNK"),
    ("0\tab\n", "line 1: expected COUNT"),
    ("3\t\n", "line 1: expected COUNT"),
    ("3\ta\tb\n", "line 1: expected COUNT"),
    ("3\ta\\qb\n", "line 1: unknown escape '\\\\q'"),
    ("3\tab\\\n", "line 1: unknown escape '\\\\'"),
    ("# bpe-counts pretokenizer\n3\tab\n", "line 1: the header must read"),
    ("3\tab\r\n4\tcd\r\n", "line 1: ends with a carriage return"),
    ("3\ta\rb\n", "line 1: expected COUNT"),
])
def test_a_bad_count_file_is_refused_with_its_line(text, message):
    with pytest.raises(counts.CountFileError, match=message.replace("\\", "\\\\").replace("(", "\\(")):
        counts.loads(text, "t.tsv")


@example(["a b😀"], "kinds")  # a lone space before a character above U+FFFF
@given(st.lists(st.one_of(st.text(st.sampled_from(" a1_.\t\n\u2028\u3000é😀𝒳"), max_size=30), st.text(max_size=30)),
                max_size=6), st.sampled_from(PRETOKENIZERS))
def test_counting_gives_every_chunk_the_split_gives(documents, pretokenizer):
    """`count_chunks` (which tallies lone spaces apart for `kinds`) against the plain split."""
    from bpe.encoding.pretokenize import split

    expected = Counter(chunk for document in documents for chunk in split(document, pretokenizer))
    assert count_chunks(documents, pretokenizer) == expected
    assert parallel.count(documents, pretokenizer, 1) == expected


# --- the command line: count, --counts, --workers ---------------------------------------------

@pytest.mark.parametrize("pretokenizer", PRETOKENIZERS)
def test_count_then_train_on_counts_equals_training_on_the_text(tmp_path, pretokenizer, capsys):
    paths = corpus_files(tmp_path)
    table = tmp_path / "counts.tsv"
    assert main(["count", *paths, "--documents", "line", "--pretokenizer", pretokenizer, "--out", str(table),
                 "--workers", "2"]) == 0
    documents = [doc for path in paths for doc in bpe_documents(path, "line")]
    assert counts.loads(table.read_text(encoding="utf-8"), "c")[0] == count_chunks(documents, pretokenizer)
    common = ["--pretokenizer", pretokenizer, "--merges", "300", "--json"]
    capsys.readouterr()
    assert main(["train", *paths, "--documents", "line", *common]) == 0
    from_text = json.loads(capsys.readouterr().out)
    assert main(["train", "--counts", str(table), *common]) == 0
    from_counts = json.loads(capsys.readouterr().out)
    assert from_counts["merges"] == from_text["merges"] and from_counts["tokens"] == from_text["tokens"]


def bpe_documents(path: str, split: str) -> list[str]:
    from bpe.options import DOCUMENTS
    return DOCUMENTS.choose(split).split(Path(path).read_bytes().decode("utf-8"))


def test_several_count_files_add_up(tmp_path, capsys):
    paths = corpus_files(tmp_path)
    parts = []
    for i, path in enumerate(paths):
        parts.append(str(tmp_path / f"part{i}.tsv"))
        assert main(["count", path, "--out", parts[-1]]) == 0
    common = ["--merges", "200", "--json"]
    capsys.readouterr()
    assert main(["train", *paths, *common]) == 0
    from_text = json.loads(capsys.readouterr().out)["merges"]
    assert main(["train", *sum((["--counts", p] for p in parts), []), *common]) == 0
    assert json.loads(capsys.readouterr().out)["merges"] == from_text


def test_counts_cut_with_another_pretokenizer_are_refused(tmp_path, capsys):
    table = tmp_path / "c.tsv"
    assert main(["count", "--text", "the cat", "--pretokenizer", "words", "--out", str(table)]) == 0
    out = tmp_path / "tok.json"
    assert main(["train", "--counts", str(table), "--pretokenizer", "kinds", "--out", str(out)]) == 2
    assert "counted with --pretokenizer words" in capsys.readouterr().err and not out.exists()
    assert main(["train", "--counts", str(table), "--text", "more"]) == 2
    assert "--counts trains on count files alone" in capsys.readouterr().err


@pytest.mark.parametrize("workers", ["0", "-1", "two"])
def test_workers_must_be_a_positive_number(workers, capsys):
    assert main(["train", "--text", "ab", "--workers", workers]) == 2
    assert "--workers" in capsys.readouterr().err


def test_the_saved_tokenizer_is_the_same_for_any_number_of_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "BATCH_CHARS", 1_000)  # many batches, so the order of adding them matters
    paths = corpus_files(tmp_path)
    saved = []
    for workers in (1, 2, 3):
        out = tmp_path / f"tok{workers}.json"
        assert main(["train", *paths, "--documents", "paragraph", "--merges", "400", "--workers", str(workers),
                     "--out", str(out)]) == 0
        saved.append(out.read_text(encoding="utf-8"))
    assert saved[0] == saved[1] == saved[2]
    tables = [parallel.count(iter(bpe_documents(paths[0], "line")), "kinds", n) for n in (1, 2)]
    assert list(tables[0].items()) == list(tables[1].items())  # first-seen order too


def test_algorithm_names_are_the_trainers(capsys):
    assert ALGORITHMS == tuple(training.ALGORITHMS)


# --- streaming and memory ---------------------------------------------------------------------

def test_a_streamed_corpus_keeps_no_text_and_says_so():
    preset = PRESETS["explainer"]
    kept = bpe.train(preset.documents, preset.settings)
    streamed = bpe.train(iter(preset.documents), preset.settings, keep=False)
    assert rows(streamed) == rows(kept) and streamed.corpus.sha256 == kept.corpus.sha256
    assert streamed.corpus.texts is None
    with pytest.raises(NoDocuments, match="kept no documents"):
        streamed.documents(1)
    assert streamed.candidates(2) == kept.candidates(2)  # the scrubber's table needs no documents


def test_a_kept_corpus_is_indexed_in_the_pass_that_counts_it_and_a_streamed_one_not_at_all():
    kept = Corpus.build(["the cat", "the hat"], "bytes", "words")
    assert kept.documents == [[0, 1], [0, 2]] and kept.counts == [2, 1, 1]
    streamed = Corpus.build(iter(["the cat", "the hat"]), "bytes", "words", keep=False)
    assert sorted(zip(streamed.chunks, streamed.counts)) == sorted(zip(kept.chunks, kept.counts))
    with pytest.raises(NoDocuments):
        streamed.documents


def test_the_hash_tells_document_boundaries_apart_and_ignores_how_it_was_read():
    assert Hasher.of(["ab", "c"]) != Hasher.of(["a", "bc"]) != Hasher.of(["abc"])
    docs = PRESETS["english-japanese"].documents
    assert Corpus.build(iter(docs), "bytes", "kinds", keep=False, workers=2).sha256 == Hasher.of(docs)


def test_memory_grows_with_distinct_chunks_not_with_the_text():
    """Fifty copies of a corpus stream through in about the memory of one; kept, they would not."""
    lines = [line for path in sorted(CORPORA.glob("*.txt")) for line in path.read_text(encoding="utf-8").splitlines()]
    settings = bpe.Settings(pretokenizer="kinds", merges=50)

    def peak(copies: int, keep: bool) -> int:
        tracemalloc.start()
        trained = bpe.train((line + "" for _ in range(copies) for line in lines), settings, keep=keep)
        if keep:
            trained.documents(0)
        top = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return top

    one, fifty = peak(1, keep=False), peak(50, keep=False)
    assert fifty < 1.5 * one, (one, fifty)
    assert peak(50, keep=True) > 3 * one  # what the test would see if the text were kept


# --- loading and encoding ---------------------------------------------------------------------

@hsettings(max_examples=60, deadline=None)
@given(st.data())
def test_the_fast_merge_check_agrees_with_the_merge_by_merge_one(data):
    """`files._well_formed` passes exactly the merge lists the careful loop accepts."""
    saved = files.to_dict(bpe.train(PRESETS["explainer"].documents, PRESETS["explainer"].settings))
    items = saved["merges"]
    rank = data.draw(st.integers(0, len(items) - 1))
    field = data.draw(st.sampled_from(["rank", "left", "right", "id", "count", "replacements", "ties", None]))
    value = data.draw(st.one_of(st.integers(-3, 300), st.sampled_from([True, None, "1", 1.0, 1 << 63])))
    if field is None:
        items[rank] = data.draw(st.sampled_from([[], "x", {}, None]))
    else:
        items[rank] = dict(items[rank], **{field: value})
    base, first = 256, 256
    fast = files._well_formed(items, base, first)
    try:
        careful = _careful(items, base, first)
    except files.TokenizerFileError:
        assert fast is None
    else:
        assert fast is not None and [bpe.Merge(*row) for row in fast] == careful


def _careful(items, base, first):
    merges, seen = [], set()
    for rank, item in enumerate(items):
        if not isinstance(item, dict) or any(type(item.get(f)) is not int for f in files._MERGE_FIELDS):
            raise files.TokenizerFileError("bad")
        merge = bpe.Merge(*(item[f] for f in files._MERGE_FIELDS))
        files._check_merge(merge, rank, base, first, seen)
        merges.append(merge)
    return merges


def test_the_chunk_cache_starts_over_when_full_and_stays_right(monkeypatch):
    from bpe.encoding import chunk_cache as module

    preset = PRESETS["from-scratch"]
    trained = bpe.train(preset.documents, preset.settings).tokenizer
    expected = [trained.encode(doc) for doc in preset.documents]
    monkeypatch.setattr(module, "CACHE_LIMIT", 5)
    small = bpe.train(preset.documents, preset.settings).tokenizer
    assert [small.encode(doc) for doc in preset.documents] == expected
    assert all(len(cache) <= 5 for cache in small._cache.values())


def test_encoding_from_the_command_line_loads_no_trainer(tmp_path):
    """Nor `dataclasses`, which imports `inspect`: together a tenth of a one-word encode's time."""
    out = tmp_path / "tok.json"
    assert main(["train", "--preset", "octlm", "--out", str(out)]) == 0
    code = ("import sys, bpe.cli; bpe.cli.main(['encode', '--tokenizer', sys.argv[1], 'walking']); "
            "print(sorted(m for m in sys.modules if m.startswith('bpe') or m in ('dataclasses', 'inspect')))")
    done = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True, text=True, check=True)
    loaded = done.stdout.splitlines()[-1]
    for module in ("bpe.trainers.training", "bpe.trainers.fast", "bpe.trainers.reference", "bpe.presets",
                   "bpe.trainers.corpus", "dataclasses", "inspect"):
        assert f"'{module}'" not in loaded, loaded


# --- counting on another engine ---------------------------------------------------------------

@pytest.mark.parametrize("pretokenizer", ["none", "words", "kinds"])
def test_duckdb_counts_equal_ours_and_train_the_same_merges(tmp_path, pretokenizer, capsys):
    """The README's recipe, end to end, on real text: DuckDB splits and counts a folder of files."""
    pytest.importorskip("duckdb", reason="duckdb is in the test extra")
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import duckdb_counts
    finally:
        sys.path.pop(0)
    folder = tmp_path / "corpus"
    folder.mkdir()
    for path in corpus_files(tmp_path):
        (folder / Path(path).name).write_bytes(Path(path).read_bytes())
    paths = sorted(str(p) for p in folder.glob("*.txt"))
    theirs, ours = tmp_path / "duckdb.tsv", tmp_path / "bpe.tsv"
    duckdb_counts.count(str(folder / "*.txt"), pretokenizer, str(theirs))
    assert main(["count", *paths, "--pretokenizer", pretokenizer, "--out", str(ours)]) == 0
    their_table, their_header = counts.loads(theirs.read_text(encoding="utf-8"), "duckdb")
    assert their_header == pretokenizer
    assert dict(their_table) == dict(counts.loads(ours.read_text(encoding="utf-8"), "bpe")[0])
    capsys.readouterr()
    common = ["--pretokenizer", pretokenizer, "--merges", "200", "--json"]
    assert main(["train", *paths, *common]) == 0
    from_text = json.loads(capsys.readouterr().out)["merges"]
    assert main(["train", "--counts", str(theirs), *common]) == 0
    assert json.loads(capsys.readouterr().out)["merges"] == from_text
