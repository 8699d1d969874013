"""The tour on the app's state, without a browser: each step sets the page, links hold the step, bad
links are refused, and the box says what the step says, as text."""
from __future__ import annotations

import doctest

import pytest

from bpe.explain import tours
from bpe_app import share
from bpe_app.first_screen import TOUR_WAITS, FirstScreen
from bpe.panes.caption import round_caption
from bpe_app.share import query_to_changes, state_to_query, tour_shows
from bpe_app.state import tour as guide
from bpe_app.state import AppState


def test_doctests():
    assert doctest.testmod(guide).failed == 0


@pytest.mark.parametrize("name", tours.NAMES)
def test_every_step_of_every_seed_tour_sets_the_page(name):
    state = AppState(preset="numbers")
    state.corpus_text += "\nan edit"
    guide.open_tour(state, name)
    assert state.preset == name and not state.edited  # the seed as published
    a, _ = tours.trainings(name)
    assert state.training.merges == a.merges
    for number, step in enumerate(tours.tour(name), 1):
        assert state.tour_step == number
        assert state.round == step.round and state.compare_b == step.b
        if step.encode:
            assert state.encode_text == step.encode
        html = guide.tour_html(state.tour, state.tour_step, guide.steps(state))
        assert f"step {number} of " in html and f'data-pane="{guide.PANE_CLASSES[step.pane]}"' in html
        assert f"Round {step.round} of" in round_caption(state.training, state.round)
        guide.move(state, 1)
    assert state.tour_step == len(tours.tour(name))  # Next at the last step stays there
    guide.move(state, -99)
    assert state.tour_step == 1


def test_the_corpus_tour_tells_the_story_of_an_upload():
    state = AppState()
    state.load_upload("notes.txt", "the cat sat on the mat\nthe rat sat\n".encode())
    guide.open_tour(state, guide.CORPUS)
    steps = guide.steps(state)
    assert state.upload_name == "notes.txt" and steps[0].kind == "start" and len(steps) >= 3
    for number, step in enumerate(steps, 1):
        assert state.tour_step == number and state.round == step.round
        guide.move(state, 1)
    assert state.corpus_text.startswith("the cat")  # the tour changed nothing it does not show


def test_a_step_speaks_as_text_never_as_html():
    state = AppState()
    state.corpus_text = "<b>bold</b> <b>bold</b> <img src=x>"
    guide.open_tour(state, guide.CORPUS)
    html = guide.tour_html(state.tour, state.tour_step, guide.steps(state))
    for number in range(1, len(guide.steps(state)) + 1):
        html = guide.tour_html(state.tour, number, guide.steps(state))
        assert "<b>" not in html and "<img" not in html


def test_closing_leaves_the_page_where_the_tour_was_and_another_preset_closes_a_seed_tour():
    state = AppState()
    guide.open_tour(state, "explainer", 5)
    assert state.round == 6
    guide.close(state)
    assert state.tour == "" and state.round == 6
    guide.open_tour(state, "explainer", 2)
    state.preset = "code"
    assert state.tour == ""


def test_a_link_holds_the_tour_and_its_step_and_back_restores_it():
    state = AppState()
    guide.open_tour(state, "course", 3)
    query = state_to_query(state)
    assert "tour=course" in query and "step=3" in query and not tour_shows(query)
    other = AppState()
    changes, error = query_to_changes(query)
    assert error is None
    other.restore(changes, changes.pop("round"), tour_shows(query))
    assert (other.preset, other.tour, other.tour_step, other.round) == ("course", "course", 3, 1)


def test_a_hand_written_link_opens_the_step_as_the_tour_sets_it():
    state = AppState()
    query = "tour=explainer&step=6"
    changes, error = query_to_changes(query)
    assert error is None and tour_shows(query)
    state.restore(changes, changes.pop("round"), tour_shows(query))
    assert (state.preset, state.tour_step, state.round, state.encode_text) == ("explainer", 6, 6, "walkable")


@pytest.mark.parametrize("query", ["tour=<script>", "tour=nowhere", "tour=course&step=-1", "tour=course&step=x1"])
def test_a_bad_tour_link_is_refused(query):
    changes, error = query_to_changes(query)
    assert changes == {} and error.startswith("This link could not be opened")


def test_a_step_past_the_end_is_the_last():
    state = AppState()
    changes, _ = query_to_changes("tour=course&step=99")
    state.restore(changes, changes.pop("round"), True)
    assert state.tour_step == len(tours.tour("course"))
    changes, _ = query_to_changes("tour=course&step=0")
    state.restore(changes, changes.pop("round"), True)
    assert state.tour_step == 1


def test_the_first_screen_shows_a_tour_links_step_and_says_the_box_comes_with_the_full_page():
    screen = FirstScreen("tour=explainer&step=6")
    view = screen.view()
    assert view["round"] == 6 and screen.message == TOUR_WAITS
    assert 'data-id="16"' in view["panes"]["bpe-encoding-pane"]  # walk, of walkable


def test_the_share_module_knows_the_new_fields():
    assert share.KEYS["tour"] == "tour" and share.KEYS["tour_step"] == "step"
