"""The first screen without a browser: the same HTML as the app's panes, no Panel, and a clean hand-over."""
from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

from bpe.presets import PRESETS
from bpe_app import first_screen
from bpe_app.first_screen import FirstScreen

ROOT = Path(__file__).resolve().parents[1]
#: Texts whose chips differ in kind: plain words, a character cut into bytes, no tokens at all, and
#: a special token's text (octlm's), as plain text and, with the toggle on, as the special.
TEXTS = ("walkable", "I ❤️ 🍣 東京", "", "x <|eos|>!")


@pytest.fixture(autouse=True)
def no_screen_left():
    yield
    first_screen._screen = first_screen._prepared = None  # the module keeps the worker's one screen


def test_doctests():
    assert doctest.testmod(first_screen).failed == 0


def test_it_never_imports_panel_bokeh_or_numpy():
    script = ("import sys; from bpe_app import first_screen; first_screen.start('preset=course&round=2&text=aaa').view(); "
              "print(sorted({'panel', 'bokeh', 'numpy', 'pandas'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": f"{ROOT / 'site'}:{ROOT}", "PATH": ""})
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_one_rendering_each_pane_is_the_apps_own(preset):
    """Every pane the first screen draws is, byte for byte, what the app's view draws for the same state."""
    pytest.importorskip("panel")
    import panel as pn
    from bpe_app.app import App

    screen = FirstScreen()
    view = screen.answer({"preset": preset})
    app = App(state=screen.state)
    panes = {name: pane for pane in app.__panel__().select(pn.pane.HTML) for name in pane.css_classes
             if name in view["panes"]}
    assert set(panes) == set(view["panes"])
    last = view["rounds"]
    for rounds in sorted({0, 1 if last else 0, last // 2, last}):
        for text in TEXTS:
            for specials in (False, True):
                view = screen.answer({"round": rounds, "text": text, "specials": specials})
                assert view["round"] == rounds and view["widgets"]["specials-in-text"] is specials
                assert {name: pane.object for name, pane in panes.items()} == view["panes"], (preset, rounds, text)


def test_the_widgets_follow_the_preset():
    view = FirstScreen().answer({"preset": "octlm"})
    settings = PRESETS["octlm"].settings
    assert view["widgets"]["preset-select"] == "octlm"
    assert view["widgets"]["pretokenizer-select"] == settings.pretokenizer
    assert view["widgets"]["min-frequency"] == settings.min_frequency


def test_a_special_tokens_text_is_plain_text_until_the_toggle_says_otherwise():
    screen = FirstScreen()
    screen.answer({"preset": "octlm", "text": "x <|eos|>"})
    plain = screen.view()["panes"]["bpe-encoding-pane"]
    assert "bpe-specials-note" in plain and 'data-id="258"' not in plain
    special = screen.answer({"specials": True})["panes"]["bpe-encoding-pane"]
    assert 'class="bpe-chip bpe-special" data-id="258"' in special and "bpe-specials-note" not in special
    assert screen.answer({"specials": "yes"})["widgets"]["specials-in-text"] is True  # not a boolean: ignored


def test_a_share_link_opens_on_the_first_screen():
    view = first_screen.start("?preset=course&round=2&text=aaa").view()
    assert (view["round"], view["rounds"], view["widgets"]["preset-select"]) == (2, 2, "course")
    assert "ids: [256 97]" in view["panes"]["bpe-encoding-pane"]  # aa + a
    assert "3 pairs tied at 1" in view["panes"]["bpe-candidates-pane"]  # the course's round-2 tie


def test_a_bad_link_shows_the_default_view_and_says_why():
    screen = first_screen.start("round=abc")
    view = screen.view()
    assert view["message"].startswith("This link could not be opened") and view["round"] == 0
    assert screen.state.message == view["message"]  # the app's message line says it too


@pytest.mark.parametrize("event", [{"round": "3"}, {"round": True}, {"step": 1.5}, {"inspect": ["", "x"]},
                                   {"inspect": "", "text": 5}, {"preset": "no-such"}, {"example": ["x"]}, {"example": "nope"}, {}])
def test_malformed_events_change_nothing(event):
    screen = FirstScreen()
    before = screen.view()
    after = screen.answer(event)
    assert after["panes"] == before["panes"] and after["round"] == before["round"]
    assert screen.state.inspected is None


def test_the_app_takes_over_the_state_and_keeps_what_the_visitor_did():
    """Built on the first screen's state, the app shows the visitor's text and round, and the address
    the first screen opened (which the page reports again once linked) does not undo them."""
    pytest.importorskip("panel")
    from bpe_app.app import App
    from bpe_app.share_view import ShareView

    screen = first_screen.start("preset=course&round=2&text=aaa")
    screen.answer({"text": "abab", "round": 1, "inspect": ["", 256]})
    state = first_screen.app_state()
    assert state is not screen.state and state.preset == "explainer"  # a state of its own, for the snapshot
    App(state=state)
    assert first_screen.hand_over() and screen.state is state
    share = ShareView(state)
    share._opened_at("?preset=course&round=2&text=aaa")  # as the page reports its address once linked
    assert (state.preset, state.encode_text, state.round, state.inspected) == ("course", "abab", 1, ("", 256))
    assert share._bar.command[1:] == ["replace", "preset=course&round=1&text=abab"]  # the address: what is shown
    share.show_address("?preset=course&round=2&text=aaa")  # back or forward to it: a real one
    assert (state.encode_text, state.round) == ("aaa", 2)


def test_after_a_bad_link_the_app_writes_the_default_views_address():
    pytest.importorskip("panel")
    from bpe_app.share_view import ShareView

    first_screen.start("round=abc")
    state = first_screen.app_state()
    first_screen.hand_over()
    share = ShareView(state)
    share._opened_at("round=abc")
    assert share._bar.command[1:] == ["replace", ""] and state.message.startswith("This link could not be opened")


def test_an_unused_first_screen_hands_over_its_own_state():
    screen = first_screen.start()
    assert first_screen.app_state() is screen.state and first_screen.hand_over() is False


def test_after_a_snapshot_start_the_first_screen_answers_on_its_own_state_until_the_app_takes_over():
    """From a kept snapshot the first screen answers before the page's files are written, so not on
    the app's state (which moves Panel's models); the app's then takes over what the visitor did."""
    pytest.importorskip("panel")
    from bpe_app.app import App

    screen = first_screen.start("preset=course")
    screen.answer({"text": "abc"})
    app = first_screen.app_state()  # the snapshot is made with this one, as everyone opens the page
    App(state=app)
    screen = first_screen.restored()
    assert screen.state is not app and not screen.used and first_screen.opened_address(app) is None
    assert (screen.state.preset, screen.state.encode_text) == (app.preset, app.encode_text) == ("explainer", "walkable")
    screen.answer({"round": 3, "text": "strawberry"})
    assert (app.round, app.encode_text) == (0, "walkable")  # the app's models untouched until the hand-over
    assert first_screen.hand_over() and screen.state is app
    assert (app.preset, app.round, app.encode_text) == ("explainer", 3, "strawberry")
    screen.answer({"round": 4})  # and from then on the first screen answers on the app's
    assert app.round == 4


def test_an_unused_restored_first_screen_gives_the_app_back_its_state_unchanged():
    first_screen.start()
    app = first_screen.app_state()
    screen = first_screen.restored()
    assert first_screen.hand_over() is False and screen.state is app


def test_a_restored_first_screen_opens_the_link_and_the_app_does_not_open_it_again():
    pytest.importorskip("panel")
    from bpe_app.app import App
    from bpe_app.share_view import ShareView

    first_screen.start()
    app = first_screen.app_state()
    App(state=app)
    share = ShareView(app)
    screen = first_screen.restored("?preset=course&round=2&text=aaa")
    assert (screen.state.preset, screen.state.round, app.preset) == ("course", 2, "explainer")
    screen.answer({"text": "abab"})
    assert first_screen.hand_over() and screen.state is app
    share._opened_at("?preset=course&round=2&text=aaa")  # as the page reports its address once linked
    assert (app.preset, app.round, app.encode_text) == ("course", 2, "abab")


def test_the_address_the_app_wrote_itself_is_not_opened_again_when_the_page_reports_it():
    """The page reports its address once linked; by then it can hold the app's own first write,
    and the visitor may have turned B on since: that report changes nothing."""
    pytest.importorskip("panel")
    from bpe_app.share_view import ShareView

    first_screen.start("preset=course")
    state = first_screen.app_state()
    share = ShareView(state)
    first_screen.hand_over()
    written = share._bar.command[2]
    assert "preset=course" in written
    state.compare_with_b(True)
    share._opened_at("?" + written)
    assert state.compare_b
    share._opened_at("?preset=octlm")  # a link the page really opened with is opened
    assert state.preset == "octlm"


def test_a_key_typed_redraws_the_encoder_only_and_a_new_training_redraws_everything(monkeypatch):
    from bpe.panes import corpus as corpus_module
    screen = FirstScreen()
    drawn = []
    real = first_screen.corpus_html
    monkeypatch.setattr(first_screen, "corpus_html", lambda *a: drawn.append(a) or real(*a))
    screen.answer({"text": "walk"})
    screen.answer({"text": "walks"})
    assert len(drawn) == 1  # the corpus once, for both keys
    screen.answer({"preset": "course"})
    assert len(drawn) == 2 and screen.view()["panes"]["bpe-corpus-pane"] == corpus_module.corpus_html(screen.state.training, 0)


def test_the_prepared_first_screen_answers_as_one_made_at_the_visit():
    """The build's snapshot holds the first screen made and drawn ahead (`prepare`): a page without
    a link answers from it as from one made then."""
    first_screen.prepare()
    prepared, fresh = first_screen.start(), first_screen.FirstScreen()
    assert prepared._drawn and not fresh._drawn
    assert prepared.view() == fresh.view()
    for event in [{"text": "strawberry"}, {"step": 1}, {"specials": True}, {"preset": "course"}, {"round": 2}]:
        assert prepared.answer(event) == fresh.answer(event)
    assert first_screen.start("?") is not prepared  # taken once


def test_a_restored_page_without_a_link_takes_the_first_screen_made_ahead():
    """The build's snapshot of the app holds the first screen made and drawn after the app was
    built (worker/start_app.js): a visit restored from it without a link answers from that one, on a
    state of its own that the app's takes over; one with a link gets its own, and leaves it."""
    app = first_screen.start().state
    assert first_screen.app_state() is app
    first_screen.prepare()
    linked = first_screen.restored("?round=2")
    assert not linked._drawn and linked.state.round == 2 and first_screen._prepared is not None
    screen, fresh = first_screen.restored(""), first_screen.FirstScreen()
    assert screen._drawn and first_screen._prepared is None
    assert screen.app is app and screen.state is not app
    assert screen.answer({"text": "strawberry", "round": 3}) == fresh.answer({"text": "strawberry", "round": 3})
    assert first_screen.hand_over() and (app.round, app.encode_text) == (3, "strawberry")
    assert first_screen.restored("").state is not screen.state  # taken once


def test_the_settings_notes_are_the_views_own_before_panel_loads():
    """A link's view on the first screen says what its corpus is and what the downloads hold, not
    the default preset's (the still page showed the explainer's "Seven words" and "all 10 merges")."""
    panes = FirstScreen("preset=course&round=2").view()["panes"]
    assert "Two tiny documents" in panes["bpe-preset-note-pane"]
    assert "all 2 merges" in panes["bpe-scope-note-pane"]
    screen = FirstScreen()
    assert "Seven words" in screen.view()["panes"]["bpe-preset-note-pane"]
    assert "Two tiny documents" in screen.answer({"preset": "course"})["panes"]["bpe-preset-note-pane"]
