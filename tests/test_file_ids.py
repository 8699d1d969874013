"""A tokenizer file's own ids hold end to end, against Hugging Face `tokenizers` itself: a file its
own `BpeTrainer` makes here (ByteLevel, vocabulary 1,500, one added special) is imported, encoded,
decoded, inspected and exported again with the file's ids, not bpe's."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bpe.cli import main
from bpe.formats import upload
from bpe.io import files
from bpe.io.file_ids import FileIds, FileIdsError

tokenizers = pytest.importorskip("tokenizers")

DATA = Path(__file__).parent / "data"
HELDOUT = (DATA / "heldout.txt").read_bytes().decode("utf-8")
TEXTS = [HELDOUT, "walkable <|endoftext|>strawberry<|endoftext|><|endoftext|>", "<|endoftext|>", "", "🦜 x"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[Path, object]:
    """A tokenizer.json made by tokenizers' own trainer, and tokenizers' Tokenizer for it."""
    return hf_trained_file(tmp_path_factory.mktemp("hf") / "tokenizer.json")


def hf_trained_file(path: Path) -> tuple[Path, object]:
    """Train with tokenizers' BpeTrainer (ByteLevel, vocabulary 1,500, `<|endoftext|>` added) and save to `path`."""
    from tokenizers import decoders, models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=1500, special_tokens=["<|endoftext|>"], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator((DATA / "train.txt").read_text(encoding="utf-8").split("\n\n"), trainer)
    tok.save(str(path))
    return path, tokenizers.Tokenizer.from_file(str(path))


def test_import_encode_decode_and_export_keep_the_files_ids(trained, tmp_path, capsys):
    path, theirs = trained
    imported = tmp_path / "imported.json"
    assert main(["import", "--format", "hf", str(path), "--out", str(imported)]) == 0
    err = capsys.readouterr().err
    assert "of bpe's own ids differ from the file's; the file's are kept" in err
    assert "1 added token(s) (<|endoftext|>) keep their ids" in err
    saved = files.loads(imported.read_text(encoding="utf-8"))
    assert saved.file_ids is not None and saved.file_ids.added == ((0, "<|endoftext|>", True),)
    for text in TEXTS:
        assert main(["encode", "--tokenizer", str(imported), text]) == 0
        ids = [int(i) for i in capsys.readouterr().out.split()]
        assert ids == theirs.encode(text).ids, text[:30]
        if ids:
            assert main(["decode", "--tokenizer", str(imported), *map(str, ids)]) == 0
            assert capsys.readouterr().out == theirs.decode(ids, skip_special_tokens=False) + "\n"
    back = tmp_path / "back.json"
    assert main(["export", "--tokenizer", str(imported), "--format", "hf", "--out", str(back)]) == 0
    capsys.readouterr()
    original, exported = json.loads(path.read_text(encoding="utf-8")), json.loads(back.read_text(encoding="utf-8"))
    assert exported["model"]["vocab"] == original["model"]["vocab"]
    assert [(t["id"], t["content"], t["special"]) for t in exported["added_tokens"]] == \
           [(t["id"], t["content"], t["special"]) for t in original["added_tokens"]]
    again = tokenizers.Tokenizer.from_file(str(back))
    for text in TEXTS:
        assert again.encode(text).ids == theirs.encode(text).ids


def test_the_page_shows_the_files_ids(trained):
    path, theirs = trained
    pytest.importorskip("panel")
    from bpe_app import compare_view, inspector_view, vocabulary_view
    from bpe_app.state import UPLOAD, AppState

    state = AppState()
    state.load_tokenizer_file("tokenizer.json", path.read_bytes())
    encoding = state.reference
    assert state.compare == UPLOAD and encoding.n_vocab == theirs.get_vocab_size()
    for text in TEXTS:
        assert encoding.encode_ordinary(text) == theirs.encode(text).ids
    page = compare_view.compare_html(state.training, 0, TEXTS[1], UPLOAD, encoding)
    assert [int(i) for i in re.findall(r'class="bpe-chip[^"]*" data-id="(\d+)"', page)] == theirs.encode(TEXTS[1]).ids
    assert encoding.tokens[0] == b"<|endoftext|>" and encoding.tokens[theirs.token_to_id("Ġthe")] == b" the"
    walk = theirs.token_to_id("Ġthe")
    card = inspector_view.inspector_html(state.training, 0, (UPLOAD, walk), encoding)
    assert f"tokenizer.json id {walk:,}" in card and "Merge" in card
    card = inspector_view.inspector_html(state.training, 0, (UPLOAD, 0), encoding)
    assert "An added token" in card and "&lt;|endoftext|&gt;" in card
    rows = vocabulary_view.entries_of(state.training, 0, UPLOAD, encoding, None)
    assert {row.id for row in rows} >= {0, walk}
    assert next(row for row in rows if row.id == 0).text == "<|endoftext|>"


def test_byte_level_names_give_the_files_bytes(trained):
    """Every id of the file holds the bytes tokenizers' ByteLevel decoder gives for it."""
    path, theirs = trained
    from bpe.formats.byte_level import byte_level_bytes

    encoding = upload.read(path.read_bytes(), "tokenizer.json")
    own = encoding.saved.file_ids
    vocab = theirs.get_vocab()
    for name, i in vocab.items():
        if name == "<|endoftext|>":
            assert own.added_text(i) == name
        else:
            assert encoding.saved.tokenizer.vocab[own.bpe_id(i)] == byte_level_bytes(name)


def test_bpes_own_export_keeps_bpes_ids_and_bad_mappings_are_refused():
    import bpe
    from bpe.formats import to_hf_json

    t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
    assert upload.read(to_hf_json(t.tokenizer).encode(), "t.json").saved.file_ids is None
    with pytest.raises(FileIdsError, match="both map to the file's id 3"):
        FileIds((3, 3))
    with pytest.raises(FileIdsError, match="taken"):
        FileIds((0, 1), added=((1, "<s>", True),))
    data = json.loads(files.dumps(t))
    data["file_ids"] = {"ids": [0, 1], "added": []}
    with pytest.raises(files.TokenizerFileError, match="file_ids are invalid: .*lists 2 ids, and the tokenizer has 260"):
        files.from_dict(data)
