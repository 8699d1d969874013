"""Share links without a browser: the query a view writes, the view a query restores, and hostile links."""
from __future__ import annotations

import base64
import doctest
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("panel")


from bpe.presets import PRESETS  # noqa: E402
from bpe.settings import MAX_VOCAB  # noqa: E402
from bpe_app import share  # noqa: E402
from bpe_app.share import CORPUS_LIMIT, KEYS, TEXT_LIMIT, query_to_changes, state_to_query  # noqa: E402
from bpe_app.share_view import ShareView, share_note_html  # noqa: E402
from bpe_app.state import DEFAULT_PRESET, SETTING_INPUTS, AppState  # noqa: E402

DEFAULT = query_to_changes("")[0]


def b64(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def shared(state: AppState) -> dict:
    return {name: getattr(state, name) for name in KEYS}


def test_doctests():
    assert doctest.testmod(share).failed == 0


# --- good links -----------------------------------------------------------------------------

def test_the_default_view_is_the_bare_address():
    assert state_to_query(AppState()) == ""
    assert DEFAULT["preset"] == DEFAULT_PRESET and DEFAULT["round"] == 0


def test_a_link_names_only_what_differs_from_its_preset():
    state = AppState(preset="course")
    state.round, state.encode_text = 1, "aab"
    assert state_to_query(state) == "preset=course&round=1&text=aab"


def test_every_input_round_trips_through_a_link():
    state = AppState(preset="course")
    state.param.update(corpus_text="walk walked\n\ntalk 東京 <3 & x=1+2", split="blank lines", alphabet="chars",
                       pretokenizer="words", tie="largest-text", min_frequency=1, budget="vocab size",
                       budget_size=30, encode_text="héllo & a+b=c ?#%", compare="cl100k_base")
    state.round = 4
    changes, error = query_to_changes(state_to_query(state))
    assert error is None
    assert changes == shared(state)


def test_restoring_a_link_gives_the_same_view_and_the_same_link():
    source = AppState(preset="course")
    source.param.update(alphabet="bytes", pretokenizer="none", budget="no limit", encode_text="aab")
    source.round = 2
    query = state_to_query(source)
    target = AppState()
    changes, _ = query_to_changes(query)
    target.restore(changes, changes.pop("round"))
    assert shared(target) == shared(source)
    assert state_to_query(target) == query


def test_a_budget_kind_from_a_link_is_not_converted():
    """Switching merges → vocab size by hand converts the number; a link's number is already in its unit."""
    state = AppState(preset="course")
    changes, _ = query_to_changes("preset=course&budget=vocab&size=20")
    state.restore(changes, 0)
    assert (state.budget, state.budget_size) == ("vocab size", 20)


def test_a_round_beyond_the_training_is_its_last():
    state = AppState()
    changes, error = query_to_changes("preset=course&round=5000")
    assert error is None
    state.restore(changes, changes.pop("round"))
    assert state.round == state.rounds == 2


def test_a_corpus_or_text_over_the_limit_is_left_out_and_said():
    state = AppState(preset="course")
    state.corpus_text = "ab " * CORPUS_LIMIT
    state.encode_text = "x" * (TEXT_LIMIT + 1)
    assert state_to_query(state) == "preset=course"
    missing = share.left_out(state)
    assert len(missing) == 2 and "2,000 characters" in missing[0]
    assert "It leaves out" in share_note_html(missing)
    state.corpus_text = "ab " * (CORPUS_LIMIT // 3)
    assert "corpus=" in state_to_query(state)


def test_unknown_names_are_ignored():
    changes, error = query_to_changes("fbclid=abc123&utm_source=x&round=1")
    assert error is None and changes["round"] == 1


def test_a_longest_corpus_of_four_byte_characters_fits():
    changes, error = query_to_changes(f"corpus={b64('😀' * CORPUS_LIMIT)}&split=whole")
    assert error is None and len(changes["corpus_text"]) == CORPUS_LIMIT


# --- hostile and broken links ---------------------------------------------------------------

HOSTILE = {
    "an absurd round": "round=999999999999",
    "a negative round": "round=-1",
    "a round in other digits": "round=%D9%A1%D9%A2",
    "a round with spaces": "round=%201",
    "a script as preset": "preset=<script>alert(1)</script>",
    "an encoded script as preset": "preset=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "an unknown preset": "preset=nope",
    "an image tag as text": "text=<img src=x onerror=window.__xss=1>",
    "HTML in an unknown name": "x=%3Cb%3E",
    "HTML as a name": "%3Csvg%20onload%3Dalert(1)%3E=1",
    "a NUL alphabet": "alphabet=%00",
    "a control character in the text": "text=a%07b",
    "broken base64": "corpus=%%%",
    "base64 with other letters": "corpus=d2Fsaw+/",
    "base64 cut short": "corpus=d2Fsa",
    "a corpus that is not UTF-8": f"corpus={b64(bytes([0xff, 0xfe, 0x41]))}",
    "an empty corpus": "corpus=",
    "a blank corpus": f"corpus={b64('   ')}",
    "a corpus over the limit": f"corpus={b64('a' * (CORPUS_LIMIT + 1))}",
    "a huge corpus": "corpus=" + "A" * 12_000,
    "HTML in the corpus": f"corpus={b64('<script>alert(1)</script>')}",
    "a text over the limit": "text=" + "a" * (TEXT_LIMIT + 1),
    "a %-escape that is not UTF-8": "text=%FF%FE",
    "a broken %-escape": "text=%E6%9D",
    "a field without a value": "round",
    "a name given twice": "round=1&round=2",
    "too many fields": "&".join(f"x{i}=1" for i in range(2 * len(KEYS) + 1)),  # a link reads at most two per field
    "a too long address": "x=" + "a" * 30_000,
    "settings that cannot work together": "specials=octlm&alphabet=chars",
    "a zero minimum count": "min_frequency=0",
    "a size beyond bpe's vocabulary": f"size={MAX_VOCAB + 1}",
}


@pytest.mark.parametrize("query", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_or_broken_link_is_rejected_with_a_message(query):
    changes, error = query_to_changes(query)
    assert changes == {}
    assert error.startswith("This link could not be opened: ") and error.endswith("Showing the default view instead.")
    assert "<" not in error and len(error) < 300  # never echoes the link's text


def test_a_rejected_link_shows_the_message_and_the_default_view():
    state, browser = AppState(preset="course"), Browser()
    view = browser.open(state, "preset=<script>&round=3")
    assert state.message.startswith("This link could not be opened") and state.message_kind == "error"
    assert shared(state) == DEFAULT
    assert browser.history[-1] == ""  # the address is made the default view's
    assert view is not None


QUERY_TEXT = st.text(st.characters(codec="utf-8"), max_size=200)
QUERY_PARTS = st.lists(st.tuples(st.sampled_from([*KEYS.values(), "x", "<b>"]), QUERY_TEXT), max_size=6).map(
    lambda pairs: "&".join(f"{quote(key)}={quote(value)}" for key, value in pairs))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), QUERY_PARTS, st.binary(max_size=200).map(lambda b: "corpus=" + b64(b))))
def test_any_query_gives_validated_changes_or_a_message_and_never_raises(query):
    changes, error = query_to_changes(query)
    if error is not None:
        assert changes == {} and error.startswith("This link could not be opened: ")
        return
    assert set(changes) == set(KEYS)
    assert changes["preset"] in PRESETS
    for name in ("split", "alphabet", "pretokenizer", "tie", "specials", "budget", "compare"):
        assert changes[name] in AppState.param[name].objects or changes[name] in AppState.param[name].objects.values()
    for name in ("min_frequency", "budget_size", "round"):
        assert isinstance(changes[name], int) and 0 <= changes[name] <= MAX_VOCAB
    assert len(changes["encode_text"]) <= TEXT_LIMIT and not share.problem(changes["encode_text"])
    if changes["corpus_text"] != share.baseline(changes["preset"])["corpus_text"]:
        assert len(changes["corpus_text"]) <= CORPUS_LIMIT and not share.problem(changes["corpus_text"])
    share.training_settings(**{name: changes[name] for name in SETTING_INPUTS})  # raises if they cannot work


@settings(max_examples=60, deadline=None)
@given(corpus=st.text(st.characters(codec="utf-8", exclude_categories=["Cc", "Cs"]), min_size=1, max_size=60),
       text=st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40),
       round_=st.integers(0, 30))
def test_any_shareable_view_round_trips(corpus, text, round_):
    if not corpus.strip() or share.problem(corpus) or share.problem(text):
        return
    state = AppState(preset="course")
    state.param.update(corpus_text=corpus, split="whole text", encode_text=text)
    state.round = min(round_, state.rounds)
    changes, error = query_to_changes(state_to_query(state))
    assert error is None and changes == shared(state)


# --- the address in step with the state -------------------------------------------------------

class Browser:
    """Stands in for the browser's history: commands from the page push or replace entries."""

    def __init__(self):
        self.history: list[str] = []
        self.reports = 0

    def open(self, state: AppState, query: str) -> ShareView:
        """What the page does as it opens: the address it was opened with is shown."""
        self.history = [query]
        self.view = ShareView(state)
        self.view._bar.param.watch(self._command, "command")
        self.view.show_address(query)
        return self.view

    def _command(self, event) -> None:
        _, mode, query = event.new
        if mode == "push":
            self.history.append(query)
        else:
            self.history[-1] = query

    def back(self) -> None:
        """What the page's history component reports after the back button."""
        self.history.pop()
        self.reports += 1
        self.view._bar.reported = [self.reports, self.history[-1]]


def test_opening_a_link_restores_its_view_without_a_new_entry():
    state, browser = AppState(), Browser()
    browser.open(state, "preset=course&round=1&text=aab")
    assert (state.preset, state.round, state.encode_text) == ("course", 1, "aab")
    assert browser.history == ["preset=course&round=1&text=aab"]


def test_each_new_round_is_an_entry_and_back_returns_to_the_last():
    state, browser = AppState(), Browser()
    browser.open(state, "")
    state.step(1)
    state.step(1)
    assert browser.history == ["", "round=1", "round=2"]
    browser.back()
    assert state.round == 1 and browser.history == ["", "round=1"]
    browser.back()
    assert state.round == 0 and browser.history == [""]


def test_other_changes_rewrite_the_current_entry():
    state, browser = AppState(), Browser()
    browser.open(state, "preset=course&round=2")
    state.encode_text = "aab"
    state.tie = "largest-text"
    assert browser.history == ["preset=course&tie=largest-text&round=2&text=aab"]


def test_a_link_that_is_not_canonical_is_rewritten_not_added():
    state, browser = AppState(), Browser()
    browser.open(state, f"preset={DEFAULT_PRESET}&round=0&utm_source=x")
    assert browser.history == [""]


def test_a_text_a_link_may_not_hold_is_left_out_and_says_why():
    state = AppState(preset="course")
    state.encode_text = "<b>bold</b>"
    assert "text=" not in state_to_query(state)
    assert share.left_out(state) == ["the encoded text (it holds HTML, which this page never takes from a link)"]


def test_a_crlf_corpus_keeps_its_carriage_returns_through_a_link():
    state = AppState(preset="course")
    state.param.update(corpus_text="walk\r\nwalked\r\n\r\ntalk\r", split="whole text")
    changes, error = query_to_changes(state_to_query(state))
    assert error is None and changes["corpus_text"] == "walk\r\nwalked\r\n\r\ntalk\r"


def test_a_rejected_input_is_never_written_to_the_address():
    state, browser = AppState(), Browser()
    browser.open(state, "preset=code&round=3")
    for bad in ({"budget_size": 10 ** 9}, {"min_frequency": 0}, {"corpus_text": ""}):
        state.param.update(bad)
        assert state.message_kind == "error" and browser.history == ["preset=code&round=3"], bad
        state.param.update(preset_inputs_of_code(bad))  # back to what the view shows
    state.budget = "vocab size"  # 356, the same training counted as a vocabulary: a shown view
    assert browser.history[-1] == "preset=code&budget=vocab&size=356&round=3"
    state.budget_size = 5  # below the base vocabulary
    assert browser.history[-1] == "preset=code&budget=vocab&size=356&round=3"
    state.budget_size = 300
    assert browser.history[-1] == "preset=code&budget=vocab&size=300&round=3"


def preset_inputs_of_code(changed: dict) -> dict:
    from bpe_app.state.inputs import preset_inputs

    return {name: preset_inputs("code")[name] for name in changed}


def test_a_whole_play_is_one_history_entry():
    state, browser = AppState(), Browser()
    browser.open(state, "")
    state.play(True)
    for _ in range(4):  # what the player's timer does in the browser
        state.step(1)
    state.play(False)
    assert browser.history == ["", "round=4"]
    browser.back()
    assert state.round == 0
    state.step(1)  # after the play, each round is an entry again
    state.step(1)
    assert browser.history == ["", "round=1", "round=2"]


def test_play_at_the_last_round_starts_again_from_round_zero():
    state, browser = AppState(preset="course"), Browser()
    browser.open(state, "preset=course&round=2")
    state.play(True)
    assert state.round == 0 and state.playing
    state.step(1)
    assert browser.history == ["preset=course&round=2", "preset=course&round=1"]


def test_every_input_has_a_key_of_its_own():
    """Two inputs under one key would read each other's words: specials_in_text once went by
    `specials`, the training option's key, and a link with both could not be opened."""
    from bpe_app.link_fields import BY_KEY, FIELDS

    assert len(BY_KEY) == len(FIELDS), sorted(field.key for field in FIELDS.values())
    state = AppState(preset="course")
    state.param.update(specials="octlm", specials_in_text=True)
    changes, error = query_to_changes(state_to_query(state))
    assert error is None and changes["specials"] == "octlm" and changes["specials_in_text"] is True
