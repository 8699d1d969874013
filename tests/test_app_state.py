"""The Panel app without a browser: drive the state object and read what each view would show."""
from __future__ import annotations

import doctest
import html
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("panel")  # the app's own dependency; the bpe core's tests run without it

SITE = Path(__file__).resolve().parent.parent / "site"  # on pytest's path (pyproject.toml)

import bpe  # noqa: E402
import bpe.io.files  # noqa: E402
from bpe.presets import PRESETS  # noqa: E402
from bpe_app import downloads, encoder_view, link_fields, message_view, state  # noqa: E402
from bpe.panes import chips, wording  # noqa: E402
from bpe.panes import caption, candidates, chart, corpus, encoding  # noqa: E402
from bpe_app.state import documents, inputs  # noqa: E402
from bpe_app.state import AppState  # noqa: E402
import panel as pn  # noqa: E402

PRESET = "explainer" if "explainer" in PRESETS else "from-scratch"
HOSTILE = '<img src=x onerror=alert(1)> <script>alert("x")</script>'


@pytest.fixture
def app_state() -> AppState:
    return AppState(preset=PRESET)


def as_chips(fragment: str) -> str:
    """HTML as text, each chip written [its label]: 'tied at 10; [t][h] wins'."""
    chipped = re.sub(r'<span class="bpe-chip[^"]*"[^>]*>(.*?)</span>(?=<span class="bpe-chip|[^<]*)',
                     lambda m: f"[{re.sub(r'<[^>]+>', '', m.group(1))}]", fragment)
    return html.unescape(re.sub(r"<[^>]+>", "", chipped))


def chip_ids(fragment: str) -> list[str]:
    return re.findall(r'class="bpe-chip[^"]*" data-id="([^"]+)"', fragment)


def rows_of(table_html: str) -> list[str]:
    return re.findall(r"<tr[^>]*>.*?</tr>", table_html.split("<tbody>")[1])


#: The state's parts, each a module of bpe_app.state (its package's own docstring included).
STATE_MODULES = [state, *(importlib.import_module(m.name) for m in pkgutil.iter_modules(state.__path__, "bpe_app.state."))]


@pytest.mark.parametrize("module", [chips, wording, chart, *STATE_MODULES, caption, encoding, link_fields],
                         ids=lambda module: module.__name__)
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


# --- the corpus rows ------------------------------------------------------------------------

def test_corpus_shows_each_distinct_document_once_with_all_its_chips(app_state):
    training = app_state.training
    for rounds in (0, 1, app_state.rounds):
        app_state.round = rounds
        page = corpus.corpus_html(training, app_state.round)
        lengths: dict[tuple, int] = {}
        for chunks, tokens in zip(training.corpus.documents, training.documents(rounds)):
            lengths.setdefault(tuple(chunks), len(tokens))
        assert len(chip_ids(page)) == sum(lengths.values())
        assert f"{training.tokens[rounds]:,} tokens" in page
        assert 'class="bpe-corpus"' in page and 'class="bpe-corpus-summary"' in page


def test_chips_of_the_selected_rounds_merge_are_highlighted(app_state):
    app_state.round = 2
    merge = app_state.training.merges[1]
    page = corpus.corpus_html(app_state.training, app_state.round)
    new = re.findall(r'class="bpe-chip bpe-new" data-id="(\d+)"', page)
    assert new and set(new) == {str(merge.id)}
    assert "bpe-new" not in corpus.corpus_html(app_state.training, 0)


def test_repeated_documents_show_once_with_their_count():
    training = bpe.train(["walk", "walk", "talk", "walk"], bpe.Settings(merges=2, min_frequency=1))
    page = corpus.corpus_html(training, 0)
    assert page.count('class="bpe-row"') == 2
    assert ">×3<" in page and "3 distinct" not in page and "4 documents, 2 distinct" in page


def test_a_long_corpus_shows_its_first_rows_and_counts_the_rest():
    words = [f"w{i}" for i in range(corpus.ROW_LIMIT + 30)]
    training = bpe.train(words, bpe.Settings(merges=1, min_frequency=1))
    page = corpus.corpus_html(training, 1)
    assert page.count('class="bpe-row"') == corpus.ROW_LIMIT
    assert "30 more distinct documents" in page


def test_a_huge_document_is_cut_at_the_chip_limit():
    training = bpe.train(["ab " * 3000], bpe.Settings(merges=1, pretokenizer="none"))
    page = corpus.corpus_html(training, 0)
    assert len(chip_ids(page)) == corpus.CHIP_LIMIT
    assert f"{9000 - corpus.CHIP_LIMIT:,} more tokens" in page


# --- the candidate pairs ---------------------------------------------------------------------

def test_round_zero_shows_round_ones_table_as_next_with_nothing_chosen_yet(app_state):
    page = candidates.candidates_html(app_state.training, 0)
    assert "Before any merge: round 1 will choose from" in page
    assert "★" not in page and "bpe-winner" not in page and "bpe-new" not in page  # round 1 differs: it chose
    first = app_state.training.merges[0]
    (upcoming,) = [row for row in rows_of(page) if "bpe-next" in row]
    assert chip_ids(upcoming) == [str(first.left), str(first.right)]
    chosen = candidates.candidates_html(app_state.training, 1)
    assert chosen.count("★") == 1 and chosen != page


def test_candidate_rows_are_capped_and_the_rest_counted():
    training = bpe.train(["".join(chr(0x4E00 + i) for i in range(200))], bpe.Settings(merges=1, min_frequency=1))
    page = candidates.candidates_html(training, 1)
    table = training.candidates(1)
    rows = rows_of(page)
    assert len(rows) == candidates.ROW_LIMIT + 1
    assert f"{len(table) - candidates.ROW_LIMIT} more pairs" in rows[-1]


def test_ties_are_marked_and_explained():
    training = bpe.train(PRESETS["from-scratch"].documents, PRESETS["from-scratch"].settings)
    assert training.merges[1].ties == 2  # (t, h) and (h, e) both occur 10 times
    page = candidates.candidates_html(training, 2)
    tied = [row for row in rows_of(page) if "bpe-tied" in row]
    assert len(tied) == 2 and "bpe-winner" in tied[0] and "★" in tied[0]
    assert "2 pairs tied at 10; [t][h] wins: largest text" in as_chips(page)
    smallest = bpe.train(["abcd"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=1))
    assert "3 pairs tied at 1; [a][b] wins: smallest ids" in as_chips(candidates.tie_html(smallest, 1))


def test_a_tie_sentence_writes_its_pair_as_the_chips_do():
    """Bytes as hex, not Python escapes; ( and ) as chips, not '(), ))' (issue 13, part 5)."""
    training = bpe.train(["ぁぁ ぁぁ", "))))"], bpe.Settings(alphabet="bytes", pretokenizer="none", merges=3))
    sentences = [candidates.tie_html(training, k) for k in range(1, 4)]
    assert all("\\x" not in as_chips(s) for s in sentences), [as_chips(s) for s in sentences]
    assert any('<span class="bpe-hex">' in s for s in sentences)
    assert any("[)][)]" in as_chips(s) for s in sentences), [as_chips(s) for s in sentences]


def test_no_tie_says_which_pair_has_the_top_count():
    training = bpe.train(["aab aab ab"], bpe.Settings(pretokenizer="none", merges=1))
    assert as_chips(candidates.tie_html(training, 1)) == "[a][b] has the top count, 3."
    assert "bpe-tied" not in candidates.candidates_html(training, 1)


def test_overlaps_are_noted_when_replacements_fall_short():
    app_state = AppState(preset="course")  # aaa counts (a, a) twice, replaces it once
    page = html.unescape(candidates.candidates_html(app_state.training, 1))
    (winner_row,) = [row for row in rows_of(page) if "bpe-winner" in row]
    assert re.search(r'bpe-num">2</td><td class="bpe-num">1</td>', winner_row)
    assert "occurs 2 times counting overlapping windows" in page and "only 1 new token:" in page
    assert "overlapping" not in candidates.candidates_html(app_state.training, 2)


def test_a_stopped_training_shows_what_was_left_without_a_winner():
    training = bpe.train(["abcd"], bpe.Settings(pretokenizer="none"))  # every pair occurs once: no merge
    page = candidates.candidates_html(training, 0)
    assert "★" not in page and "training stopped" in page


# --- the scrubber ----------------------------------------------------------------------------

def test_step_moves_the_round_within_the_training(app_state):
    app_state.step(-1)
    assert app_state.round == 0
    app_state.step(+1)
    app_state.step(+1)
    assert app_state.round == 2
    app_state.round = app_state.rounds
    app_state.step(+1)
    assert app_state.round == app_state.rounds


def test_a_shorter_retraining_pulls_the_round_back(app_state):
    app_state.round = app_state.rounds
    app_state.budget_size = 3
    assert app_state.rounds == 3 and app_state.round == 3


def test_loading_a_preset_starts_at_round_zero(app_state):
    app_state.round = 4
    app_state.preset = "course"
    assert (app_state.round, app_state.rounds, app_state.corpus_text) == (0, 2, "aaa\naba")


# --- live encoding ---------------------------------------------------------------------------

def test_encoding_follows_the_selected_round(app_state):
    training = app_state.training
    for rounds in (0, app_state.rounds):
        page = encoding.encoding_html(training, "walkable", rounds)
        ids = training.tokenizer.encode("walkable", rounds=rounds)
        assert chip_ids(page) == [("unknown" if i is None else str(i)) for i in ids]
        assert f"8 characters · 8 bytes · <b>{wording.plural(len(ids), 'token')}</b>" in page
        assert 'class="bpe-encoded"' in page


def test_encoding_counts_bytes_of_non_ascii_text():
    training = bpe.train(["hello"], bpe.Settings(merges=1))
    page = encoding.encoding_html(training, "東京", 1)
    assert "2 characters · 6 bytes · <b>6 tokens</b>" in page
    assert chip_ids(page) == [str(b) for b in "東京".encode()]
    assert page.count('class="bpe-hex"') == 6  # no byte of a CJK character is a character on its own


# --- escaping --------------------------------------------------------------------------------

@pytest.mark.parametrize("alphabet", ["bytes", "chars"])
def test_user_text_is_never_html(app_state, alphabet):
    app_state.param.update(corpus_text=HOSTILE, split="whole text", alphabet=alphabet, min_frequency=1,
                           budget="merges", budget_size=30)
    assert app_state.message == "" and app_state.training.corpus.tokens > 0
    training = app_state.training
    shown = [
        corpus.corpus_html(training, app_state.rounds),
        corpus.corpus_html(training, 0),
        candidates.candidates_html(training, 1),
        encoding.encoding_html(training, HOSTILE, app_state.rounds),
        chart.merges_html(training, 3),
        message_view.message_html(f"bad file {HOSTILE}", "error"),
    ]
    for page in shown:
        assert "<img" not in page and "<script" not in page and "</script" not in page
        assert "&lt;" in page


def test_chip_titles_and_data_ids_are_escaped():
    chip = chips.token_chip(300, b'"><script>', new=False)
    assert 'title="300: &quot;&quot;&gt;&lt;script&gt;&quot;"' in chip
    assert chips.unknown_chip("<").startswith('<span class="bpe-chip bpe-unknown" data-id="unknown"')


# --- chips -----------------------------------------------------------------------------------

def test_whitespace_is_visible_and_broken_utf8_is_hex():
    assert chips.label_html(b" \n\t") == "".join(f'<span class="bpe-ws">{m}</span>' for m in "␣↵⇥")
    assert chips.label_html(b"a\xf0\x9f") == 'a<span class="bpe-hex">f0 9f</span>'
    assert chips.label_html("🍣".encode()) == "🍣"


def test_the_same_id_gets_the_same_colour_everywhere():
    assert chips.token_chip(261, b"ab").split("style=")[1] == chips.token_chip(261, b"ab", new=True).split("style=")[1]
    assert len({chips.hue(i) for i in range(256, 266)}) == 10


# --- bad input keeps the last good training ---------------------------------------------------

def test_an_empty_corpus_says_so_and_keeps_the_training(app_state):
    before = app_state.training
    app_state.corpus_text = "\n\n  \n"
    assert app_state.training is before
    assert app_state.message_kind == "error" and "corpus is empty" in app_state.message


def test_a_corpus_over_the_limit_says_so_and_keeps_the_training(app_state):
    before = app_state.training
    app_state.corpus_text = "a" * (documents.MAX_CORPUS_BYTES + 1)
    assert app_state.training is before
    assert "over the limit of 2.0 MB" in app_state.message


def test_a_vocab_size_below_the_base_says_so_and_keeps_the_training(app_state):
    before = app_state.training
    app_state.param.update(budget="vocab size", budget_size=5)
    assert app_state.training is before
    assert app_state.message.startswith("Vocabulary size 5 is below the base vocabulary")


def test_the_message_clears_once_the_input_is_good_again(app_state):
    app_state.corpus_text = ""
    app_state.preset = "course"
    assert app_state.message == "" and app_state.rounds == 2


def test_more_merges_than_the_corpus_allows_stop_early_and_say_so(app_state):
    app_state.param.update(budget="merges", budget_size=10_000)
    assert 0 < app_state.rounds < 10_000
    assert app_state.message_kind == "info"
    assert f"stopped after {app_state.rounds} of the 10000 merges asked for" in app_state.message


@pytest.mark.parametrize("data, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
    (b"caf\xe9 au lait", "not UTF-8 text (byte 3 is 0xE9)"),
    (b"a" * (documents.MAX_CORPUS_BYTES + 1), "over the limit"),
])
def test_a_bad_upload_says_why_and_keeps_the_corpus(app_state, data, words):
    before = (app_state.training, app_state.corpus_text)
    app_state.load_upload("notes.txt", data)
    assert (app_state.training, app_state.corpus_text) == before
    assert words in app_state.message and "notes.txt" in app_state.message


def test_a_good_upload_replaces_the_corpus_and_retrains(app_state):
    app_state.split = "each line"
    app_state.load_upload("notes.txt", "\ufeffwalk\r\nwalked\r\n".encode("utf-8"))
    assert app_state.corpus_text == "walk\r\nwalked\r\n"
    assert len(app_state.training.corpus.documents) == 2


# --- settings --------------------------------------------------------------------------------

def test_switching_the_budget_kind_keeps_the_same_training(app_state):
    merges = app_state.rounds
    base = app_state.training.vocab_size(0)
    app_state.budget = "vocab size"
    assert app_state.budget_size == base + merges and app_state.rounds == merges
    app_state.budget = "merges"
    assert app_state.budget_size == merges


def test_every_setting_reaches_the_training(app_state):
    app_state.param.update(alphabet="bytes", pretokenizer="gpt2", tie="largest-text", specials="octlm",
                           min_frequency=1, budget="merges", budget_size=4)
    assert app_state.training.settings == bpe.Settings(
        alphabet="bytes", pretokenizer="gpt2", tie="largest-text", specials="octlm", min_frequency=1, merges=4)


@pytest.mark.parametrize("split, expected", [
    ("each line", ["a b", "c", "d"]),
    ("blank lines", ["a b\nc", "d"]),
    ("whole text", ["a b\nc\n\nd\n"]),
])
def test_the_corpus_text_splits_into_documents(split, expected):
    assert documents.split_documents("a b\nc\n\nd\n", split) == expected


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_loads_and_round_trips_its_documents(name):
    app_state = AppState(preset=name)
    assert app_state.message == ""
    assert documents.split_documents(app_state.corpus_text, app_state.split) == PRESETS[name].documents
    assert app_state.training.settings == PRESETS[name].settings


# --- chart and downloads -----------------------------------------------------------------------

def test_the_chart_marks_the_selected_round(app_state):
    svg = chart.chart_svg(app_state.training, 2)
    assert svg.startswith('<div class="bpe-chart-box"') and '<svg class="bpe-chart"' in svg and svg.endswith('</svg></div>')
    assert 'class="bpe-round-marker"' in svg
    # Where rounds lie, for the page's click-to-go-to-a-round listener.
    assert f'data-x0="{chart.LEFT:.1f}"' in svg and f'data-last="{app_state.rounds}"' in svg
    assert f"round 2: {app_state.training.tokens[2]} tokens, vocabulary {app_state.training.vocab_size(2)}" in svg


def test_the_merge_list_highlights_the_selected_round(app_state):
    page = chart.merges_html(app_state.training, 2)
    current = [row for row in rows_of(page) if "bpe-current" in row]
    assert len(current) == 1 and '<td class="bpe-num">2</td>' in current[0]


def test_downloads_hold_the_training(app_state):
    training = app_state.training
    assert bpe.files.loads(bpe.files.dumps(training)).merges == training.merges
    lines = downloads.merges_csv(training).splitlines()
    assert lines[0].split(",") == list(downloads.CSV_COLUMNS)
    assert len(lines) == 1 + len(training.merges)
    first = training.merges[0]
    assert lines[1].startswith(f"1,{first.left},{first.right},{first.id},")


# --- explainer numbers (when the preset ships) -------------------------------------------------

@pytest.mark.skipif("explainer" not in PRESETS, reason="the explainer preset has not landed yet")
def test_the_explainers_numbers():
    app_state = AppState(preset="explainer")
    training = app_state.training
    assert training.tokens[0] == 137
    # l+k also occurs 19 times in any corpus that fits the explainer's figures; the smallest ids win.
    assert "2 pairs tied at 19; [a][l] wins: smallest ids" in as_chips(candidates.tie_html(training, 1))
    assert '<tr class="bpe-winner bpe-tied">' in candidates.candidates_html(training, 1)
    app_state.round = 6
    assert "59 tokens" in corpus.corpus_html(training, app_state.round)


def test_the_app_lays_out_without_pandas():
    """pandas costs seconds to load in Pyodide; a Bokeh ColumnDataSource, for one, would pull it in."""
    script = ("import sys; from bpe_app.app import App; App().__panel__().get_root(); "
              "assert 'pandas' not in sys.modules, 'the app imported pandas'")
    subprocess.run([sys.executable, "-c", script], cwd=SITE, check=True, timeout=120)


def test_a_crlf_upload_keeps_its_carriage_returns(app_state):
    app_state.split = "whole text"
    app_state.load_upload("windows.txt", b"walk\r\nwalked\r\n")
    assert app_state.training.corpus.tokens == len("walk\r\nwalked\r\n")
    app_state.split = "each line"  # the line ending, \r\n, is the separator
    assert documents.split_documents(app_state.corpus_text, "each line") == ["walk", "walked"]


def test_a_lone_surrogate_under_chars_is_said_and_changes_nothing(app_state):
    app_state.alphabet = "chars"
    before = app_state.training
    app_state.corpus_text = "walk \udcff walked"
    assert app_state.training is before and "lone surrogate" in app_state.message


# --- words and numbers that say what happened (issue 13) ---------------------------------------

def test_the_round_caption_says_candidates_and_replacements_when_overlaps_part_them():
    course = AppState(preset="course").training
    assert "(2 candidates, 1 replaced)" in caption.round_caption(course, 1)  # aaa: two windows, one merge
    assert "(1 time)" in caption.round_caption(course, 2)
    explainer = AppState(preset="explainer").training
    assert "(19 times)" in caption.round_caption(explainer, 1)
    note = candidates.overlap_note(course.merges[0], "(a, a)")
    assert "occurs 2 times" in note and "only 1 new token" in note


def test_the_budget_number_keeps_its_unit_through_no_limit():
    app_state = AppState(preset="code")
    assert (app_state.budget, app_state.budget_size) == ("merges", 100)
    app_state.budget = "vocab size"
    assert app_state.budget_size == 356
    app_state.budget = "no limit"
    app_state.budget = "merges"
    assert app_state.budget_size == 100 and app_state.rounds == 100
    app_state.budget = "no limit"
    app_state.budget = "vocab size"
    assert app_state.budget_size == 356


@pytest.mark.parametrize("data", [None, b""])
def test_an_empty_upload_says_so_and_changes_nothing(app_state, data):
    app_state.load_upload("first.txt", b"walk walked")
    before = (app_state.training, app_state.corpus_text)
    app_state.load_upload("empty.txt", data)
    assert (app_state.training, app_state.corpus_text) == before
    assert app_state.message.startswith("empty.txt is empty") and app_state.message_kind == "error"


def test_the_explainer_blurb_names_its_first_eight_merges_in_order():
    training = AppState(preset="explainer").training
    merged = [training.tokenizer.token_text(m.id) for m in training.merges[:8]]
    assert merged == ["al", "alk", "walk", "ed", "in", "ing", "talk", "walked"]
    assert ", ".join(merged[:-1]) + ", then walked" in PRESETS["explainer"].description


def test_the_numbers_example_shows_years_as_one_token_each():
    text = dict(encoding.EXAMPLES)["2023 and 2024"]
    pieces = [piece for _, piece in AppState(preset="numbers").training.tokenizer.pieces(text)]
    assert " 2023" in pieces and " 2024" in pieces


def test_the_current_preset_can_be_loaded_again_after_edits(app_state):
    """A menu cannot re-pick its own choice: the reload button does (issue 13, 4.6)."""
    shown = (app_state.corpus_text, app_state.rounds)
    assert not app_state.edited
    app_state.corpus_text = ""
    assert app_state.message.startswith("The corpus is empty") and app_state.edited
    app_state.tie = "largest-text"
    app_state.reload_preset()
    assert (app_state.corpus_text, app_state.rounds) == shown and app_state.tie == "smallest"
    assert not app_state.edited and app_state.message_kind == "info"


def test_the_sidebar_says_whose_corpus_is_shown(app_state):
    """After an upload the preset's blurb no longer describes the corpus (issue 13, 4.7)."""
    from bpe_app.settings_view import preset_description

    def blurb() -> str:
        return preset_description(app_state.preset, app_state.edited, app_state.upload_name, app_state.corpus_text)

    assert PRESETS[PRESET].description[:20] in html.unescape(blurb())
    app_state.load_upload("my notes.txt", b"walk walked walking")
    assert "my notes.txt</b>: 19 characters, uploaded" in blurb()
    assert PRESETS[PRESET].description[:20] not in html.unescape(blurb())
    app_state.preset = "course"
    assert app_state.upload_name == "" and "my notes.txt" not in blurb()
    app_state.corpus_text = "aaa aaa"
    assert "Your corpus</b>: 7 characters, edited" in blurb()


@pytest.mark.parametrize("name, value, words", [
    ("budget_size", -5, "Merges must be a whole number from 0"),
    ("min_frequency", 0, "Minimum count must be a whole number of at least 1, not 0"),
    ("min_frequency", -1, "not -1"),
])
def test_a_bad_number_is_refused_with_a_message(app_state, name, value, words):
    """The widgets no longer clamp these silently, so the state must say it (issue 13, 4.3)."""
    before = app_state.training
    setattr(app_state, name, value)
    assert words in app_state.message and app_state.message_kind == "error"
    assert app_state.training is before and not app_state.inputs_shown


def test_a_bad_number_reaches_the_state_from_its_widget():
    from bpe_app.settings_view import SettingsView

    state = AppState(preset=PRESET)
    view = SettingsView(state)
    inputs = {w.name: w for w in view._layout.select(pn.widgets.IntInput)}
    assert inputs["Minimum pair count"].start is None and inputs["how many"].start is None
    inputs["Minimum pair count"].value = 0
    assert "at least 1, not 0" in state.message


def test_the_replaced_column_says_why_only_the_winner_has_a_number(app_state):
    """Issue 13, part 5: the column was blank but for the winner, with no word why."""
    page = candidates.candidates_html(app_state.training, 1)
    rows = rows_of(page)
    assert "bpe-winner" in rows[0] and '<td class="bpe-num">19</td></tr>' in rows[0]
    assert all('title="not merged">–</span></td></tr>' in row for row in rows[1:] if "bpe-more" not in row)
    assert 'title="how many new tokens the merge made: the winner only">replaced' in page


def test_downloads_hold_all_merges_or_only_those_up_to_the_selected_round():
    """Issue 13, part 5: the downloads held all merges and the page did not say so."""
    state = AppState(preset=PRESET)
    view = downloads.DownloadsView(state)
    state.round = 3
    json_button = next(w for w in view._layout.select(pn.widgets.FileDownload) if w.filename == "tokenizer.json")
    csv_button = next(w for w in view._layout.select(pn.widgets.FileDownload) if w.filename == "merges.csv")
    assert len(bpe.files.loads(json_button.callback().getvalue()).merges) == state.rounds == 10
    assert "all 10 merges" in downloads.scope_note_html(state.training, 3, False)
    view._cut.value = True
    saved = bpe.files.loads(json_button.callback().getvalue())
    assert [m.id for m in saved.merges] == [m.id for m in state.training.merges[:3]]
    assert len(csv_button.callback().getvalue().splitlines()) == 1 + 3
    assert "rounds 1–3 of 10" in downloads.scope_note_html(state.training, 3, True)


def test_the_preset_menu_says_when_the_corpus_is_the_persons_and_reloads_its_own_preset():
    from bpe_app.settings_view import YOURS, preset_menu
    state = AppState(preset="course")
    menu = preset_menu(state)
    assert menu.value == "course"
    state.corpus_text = "my own words"
    assert menu.value == YOURS and list(menu.options)[0] == "your corpus (settings from course)"
    menu.value = "course"  # the menu's own preset, chosen again: the edit is undone
    assert not state.edited and menu.value == "course" and YOURS not in menu.options.values()
    menu.value = "explainer"
    assert state.preset == "explainer" and menu.value == "explainer"
