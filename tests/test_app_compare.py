"""The comparison with a real tokenizer and the exports for other libraries, without a browser."""
from __future__ import annotations

import io
import json
import re
import sys
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("panel")


from bpe import formats, real  # noqa: E402
from bpe.formats import tiktoken as tiktoken_format  # noqa: E402
from bpe_app import compare_view, downloads
from bpe_app.state import real_tokenizers  # noqa: E402
from bpe_app.state import AppState  # noqa: E402

HOSTILE = '<img src=x onerror=alert(1)> <script>alert("x")</script>'


@pytest.fixture(scope="module")
def cl100k() -> real.Encoding:
    return real_tokenizers.load("cl100k_base")


def chip_ids(fragment: str) -> list[int]:
    return [int(i) for i in re.findall(r'class="bpe-chip[^"]*" data-id="(\d+)"', fragment)]


def token_counts(fragment: str) -> list[str]:
    """The tokens column of the counts table: each row's first number."""
    return re.findall(r'<tr><td>[^<]*</td><td class="bpe-num">([\d,–]+)</td>', fragment)


# --- the comparison ---------------------------------------------------------------------------

def test_no_comparison_shows_nothing():
    training = AppState().training
    assert compare_view.compare_html(training, 0, "walkable", "", None) == ""


def test_a_tokenizer_not_loaded_yet_says_it_is_loading(cl100k):
    training = AppState().training
    page = compare_view.compare_html(training, 0, "walkable", "o200k_base", cl100k)
    assert 'class="bpe-compare"' in page and "Loading GPT-4o" in page and "bpe-chip" not in page


def test_the_real_tokenizer_cuts_the_same_text_beside_ours(cl100k):
    state = AppState(preset="course")
    text = "Hello world! 2023 2024"
    page = compare_view.compare_html(state.training, 2, text, "cl100k_base", cl100k)
    assert page.startswith('<div class="bpe-compare">')
    assert chip_ids(page) == cl100k.encode_ordinary(text)
    ours = len(state.training.tokenizer.encode(text, rounds=2))
    assert token_counts(page) == [str(ours), str(len(cl100k.encode_ordinary(text)))]
    assert "this tokenizer after round 2" in page and f"{cl100k.n_vocab:,}" in page


def test_japanese_costs_more_tokens_per_character_than_english(cl100k):
    english, japanese = "The capital of Japan is Tokyo.", "日本の首都は東京です。"
    assert len(cl100k.encode_ordinary(japanese)) / len(japanese) > 2 * len(cl100k.encode_ordinary(english)) / len(english)


def test_numbers_are_cut_in_groups_of_up_to_three_digits(cl100k):
    assert [text for _, text in cl100k.token_texts("2023 2024 1234567")] == ["202", "3", " ", "202", "4", " ", "123", "456", "7"]


def test_the_text_is_never_html_in_the_comparison(cl100k):
    page = compare_view.compare_html(AppState().training, 1, HOSTILE, "cl100k_base", cl100k)
    assert "<img" not in page and "<script" not in page


def test_a_lone_surrogate_shows_no_count_for_ours(cl100k):
    page = compare_view.compare_html(AppState(preset="course").training, 1, "a\ud800b", "cl100k_base", cl100k)
    assert token_counts(page)[0] == "–"


def test_choosing_a_comparison_loads_it_once():
    state = AppState()
    state.compare = "cl100k_base"
    assert state.reference is real_tokenizers.load("cl100k_base") and not state.busy
    state.compare = ""
    state.compare = "cl100k_base"
    assert state.reference is real_tokenizers.load("cl100k_base")


def test_a_tokenizer_that_cannot_load_says_so(monkeypatch):
    def fail(name):
        raise real_tokenizers.LoadError(f"{name} could not be loaded (HTTP 404), so there is nothing to compare with.")

    monkeypatch.setattr(real_tokenizers, "load", fail)
    state = AppState()
    state.compare = "o200k_base"
    assert (state.compare, state.message_kind, state.busy) == ("", "error", False)
    assert "could not be loaded" in state.message


def test_without_package_data_the_rank_file_is_fetched_beside_the_page(monkeypatch):
    data = (Path(real.__file__).parent / real.data_file("cl100k_base")).read_bytes()
    load = real.load
    fetched = []

    def load_without_package_data(name, data=None, check=False):
        if data is None:
            raise FileNotFoundError(name)
        return load(name, data)

    monkeypatch.setattr(real, "load", load_without_package_data)
    monkeypatch.setattr(real_tokenizers, "fetch", lambda path: fetched.append(path) or data)
    real_tokenizers.load.cache_clear()
    try:
        assert real_tokenizers.load("cl100k_base").encode_ordinary("hello") == [15339]
        assert fetched == ["assets/cl100k_base.ranks.gz"]
    finally:
        real_tokenizers.load.cache_clear()


def test_outside_the_browser_there_is_nothing_to_fetch():
    with pytest.raises(OSError):
        real_tokenizers.fetch("assets/cl100k_base.ranks.gz")


# --- exports ------------------------------------------------------------------------------------

@pytest.fixture
def bytes_state() -> AppState:
    state = AppState(preset="course")
    state.param.update(corpus_text="low lower lowest\nlow low", pretokenizer="words", budget_size=6)
    return state


def test_the_hugging_face_file_loads_with_the_same_ids(bytes_state):
    tokenizers = pytest.importorskip("tokenizers")
    view = downloads.DownloadsView(bytes_state)
    data = view._export(lambda t: formats.to_hf_json(t).encode("utf-8")).getvalue()
    loaded = tokenizers.Tokenizer.from_str(data.decode("utf-8"))
    text = "lowest low"
    assert loaded.encode(text).ids == bytes_state.training.tokenizer.encode(text)


def test_the_tiktoken_zip_holds_ranks_arguments_and_a_loader(bytes_state, tmp_path, monkeypatch):
    tiktoken = pytest.importorskip("tiktoken")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    archive = zipfile.ZipFile(io.BytesIO(tiktoken_format.download(bytes_state.training.tokenizer)))
    assert archive.namelist() == [tiktoken_format.RANKS_FILE, tiktoken_format.ARGS_FILE, tiktoken_format.LOADER_FILE]
    from tiktoken.load import load_tiktoken_bpe

    ranks_file = archive.extract(tiktoken_format.RANKS_FILE, path=tmp_path)
    args = json.loads(archive.read(tiktoken_format.ARGS_FILE))
    encoding = tiktoken.Encoding(mergeable_ranks=load_tiktoken_bpe(ranks_file), **args)
    text = "lowest low"
    assert encoding.encode(text) == bytes_state.training.tokenizer.encode(text)
    compile(archive.read(tiktoken_format.LOADER_FILE), tiktoken_format.LOADER_FILE, "exec")


def test_a_chars_tokenizer_has_no_tiktoken_file_and_the_page_says_why():
    state = AppState(preset="course")
    state.alphabet = "chars"
    problem = tiktoken_format.problem(state.training.tokenizer)
    assert "chars" in problem and "bytes" in problem
    assert "No tiktoken file" in downloads.export_note_html(state.training)
    with pytest.raises(formats.FormatError):
        tiktoken_format.download(state.training.tokenizer)


def test_a_format_error_on_export_is_said_instead_of_downloading(bytes_state, monkeypatch):
    def refuse(tokenizer, name="bpe"):
        raise formats.FormatError("tiktoken merges the adjacent pair whose bytes have the lowest rank (use --format hf)")

    monkeypatch.setattr(tiktoken_format, "to_tiktoken", refuse)
    view = downloads.DownloadsView(bytes_state)
    assert view._export(tiktoken_format.download) is None
    assert bytes_state.message_kind == "error"
    assert bytes_state.message.startswith("This tokenizer cannot be exported: tiktoken merges")
    assert "--" not in bytes_state.message
    button = downloads.ExportDownload(callback=lambda: None, filename="x.zip")
    button._transfer()  # nothing to send: no error, no data
    assert button.data is None


def test_an_octlm_download_gives_our_ids_in_tokenizers_and_tiktoken(tmp_path, monkeypatch):
    tokenizers = pytest.importorskip("tokenizers")
    pytest.importorskip("tiktoken")
    state = AppState(preset="octlm")
    view = downloads.DownloadsView(state)
    text = "total = <|eos|> + subtotal <|pad|>"
    ours = state.training.tokenizer.encode_ordinary(text)  # as octlm reads it: plain text
    hf = tokenizers.Tokenizer.from_str(view._export(lambda t: formats.to_hf_json(t).encode("utf-8")).getvalue().decode())
    assert hf.encode(text).ids == ours and 258 not in ours
    zipfile.ZipFile(io.BytesIO(tiktoken_format.download(state.training.tokenizer))).extractall(tmp_path)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    import subprocess

    done = subprocess.run([sys.executable, str(tmp_path / tiktoken_format.LOADER_FILE), text],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == ours


# --- a SentencePiece model --------------------------------------------------------------------

def test_sentencepiece_shows_its_pieces_and_says_how_it_differs():
    from bpe_app import inspector_view

    model = real_tokenizers.load("mistral_v1")
    text = "walkable 🦜 <b>x</b>"
    page = compare_view.compare_html(AppState().training, 0, text, "mistral_v1", model)
    assert chip_ids(page) == model.encode_ordinary(text)
    sentences = re.findall(r"<li>(.*?)</li>", page)
    assert sentences[0] == "▁walk: a space becomes ▁ and is part of the token."
    assert any(s.startswith("&lt;0xF0&gt;&lt;0x9F&gt;&lt;0xA6&gt;&lt;0x9C&gt;: no piece for 🦜, so it falls back to its 4 UTF-8 bytes")
               for s in sentences)
    assert "<b>x" not in page  # the typed text is never HTML
    walk = model.joinable["▁walk"]
    card = inspector_view.inspector_html(AppState().training, 0, ("mistral_v1", walk), model)
    left, right = model.parents(walk)
    assert model.pieces[left] + model.pieces[right] == "▁walk"
    assert f'data-id="{left}"' in card and f'data-id="{right}"' in card and "scores highest" in card
    assert f"score {model.scores[walk]:,g}" in card
    byte = model.byte_ids[0xF0]
    assert "A byte piece" in inspector_view.inspector_html(AppState().training, 0, ("mistral_v1", byte), model)


def test_the_sentencepiece_stepper_joins_by_score_to_the_encoders_output():
    from bpe_app.actions import Actions
    from bpe.panes import piece_stepper

    state = AppState()
    state.encode_text = "walkable 🦜"
    state.compare = "mistral_v1"
    model = state.reference
    actions = Actions(state)
    last = piece_stepper.last_join(model, state.encode_text)
    states, joins, _ = piece_stepper.piece_states(model, state.encode_text)
    assert [piece for _, piece in states[-1]] == ["▁walk", "able", "▁", "🦜"]  # 🦜 then falls back to bytes
    scores = []
    for step in range(1, last + 1):
        actions.do("piece-step", "+1", "")
        assert state.piece_step == step
        page = piece_stepper.piece_stepper_html(model, state.encode_text, state.piece_step)
        join = joins[step - 1]
        made = model.joinable[join.left + join.right]
        assert f"<b>join {step}</b>" in page and f"score {model.scores[made]:,g}" in page
        assert f'class="bpe-chip bpe-new" data-id="{made}"' in page
        scores.append(join.score)
        # the winner is the best pair there was: no adjacent pair before the join scores higher
        before = [piece for _, piece in states[step - 1]]
        best = max(model.scores[model.joinable[a + b]] for a, b in zip(before, before[1:]) if a + b in model.joinable)
        assert join.score == best
    assert "No adjacent pair joins into a piece" in page and "🦜 has no piece, so it falls back to its UTF-8 bytes" in page
    actions.do("piece-step", "+1", "")
    assert state.piece_step == last
    actions.do("piece-step", "first", "")
    assert state.piece_step == 0
    state.encode_text = "strawberry"
    assert state.piece_step == 0
    assert piece_stepper.piece_stepper_html(real_tokenizers.load("cl100k_base"), "x", 0) == ""


def test_special_tokens_in_text_are_plain_text_with_a_note_until_turned_on():
    """The toggle "special tokens in text": off, `<|endoftext|>` is plain text and one line says so;
    on, it is its id, drawn as a chip of its own kind, and the counts follow."""
    from bpe_app.compare_view import compare_html

    state = AppState(preset="course")
    cl100k = real.load("cl100k_base")
    text = "hi <|endoftext|> there"
    off = compare_html(state.training, 0, text, "cl100k_base", cl100k)
    assert "bpe-specials-note" in off and "at character 3" in off and "bpe-special\"" not in off
    assert f"{len(cl100k.encode_ordinary(text))}</td>" in off
    on = compare_html(state.training, 0, text, "cl100k_base", cl100k, specials=True)
    assert "bpe-specials-note" not in on and 'class="bpe-chip bpe-special" data-id="100257"' in on
    assert f"{len(cl100k.encode(text, allowed_special='all'))}</td>" in on
    assert "bpe-specials-note" not in compare_html(state.training, 0, "no specials here", "cl100k_base", cl100k)


def test_a_link_holds_the_special_tokens_toggle():
    from bpe_app.share import query_to_changes, state_to_query

    state = AppState(preset="course")
    assert "specials" not in state_to_query(state)
    state.specials_in_text = True
    changes, error = query_to_changes(state_to_query(state))
    assert error is None and changes["specials_in_text"] is True
