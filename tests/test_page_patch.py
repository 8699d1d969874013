"""The app's document as the page gets it after the hand-over: its JSON as written, then a patch
(bpe_app/page_patch.py), is the document as Python holds it, model for model."""
from __future__ import annotations

import doctest
import json

import pytest

pytest.importorskip("panel")

from bokeh.document import Document  # noqa: E402
from bokeh.embed.util import standalone_docs_json_and_render_items  # noqa: E402
from bokeh.settings import settings as bokeh_settings  # noqa: E402
from panel.io.state import set_curdoc  # noqa: E402

from bpe_app import first_screen, page_patch  # noqa: E402

#: What a visitor did on the first screen before the hand-over, from a little to a lot (a preset
#: of its own retrains and redraws every pane; an inspected token opens the inspector).
VISITS = [
    [{"text": "strawberry"}],
    [{"text": "walkable"}, {"step": 1}, {"step": 1}],
    [{"preset": "course"}, {"round": 2}, {"text": "abab"}, {"inspect": ["", 256]}],
    [{"specials": True}, {"text": "x <|eos|>!"}, {"round": 99}],
]


@pytest.fixture(autouse=True)
def no_screen_left():
    yield
    first_screen._screen = first_screen._prepared = None  # the module keeps the worker's one screen
    page_patch._held = None


def models_of(doc: Document) -> dict:
    """Every model of a document by id: its type and the values of all its properties, a model
    inside a value written as its id (a property set to its default is the default)."""
    from bokeh.model import Model

    def plain(value):
        if isinstance(value, Model):
            return {"id": value.id}
        if isinstance(value, (list, tuple)):
            return [plain(item) for item in value]
        if isinstance(value, dict):
            return {key: plain(inner) for key, inner in value.items()}
        if hasattr(value, "tolist"):  # a numpy array
            return value.tolist()
        return value

    return {model.id: (type(model).__qualified_model__, plain(model.properties_with_values(include_defaults=True)))
            for model in doc.models}


def written(doc: Document) -> dict:
    """The document's JSON as Panel's write_doc makes it in the worker."""
    docs_json, _ = standalone_docs_json_and_render_items(doc.roots, suppress_callback_warning=True)
    return next(iter(docs_json.values()))


def test_doctests():
    assert doctest.testmod(page_patch).failed == 0


@pytest.mark.parametrize("events", VISITS, ids=range(len(VISITS)))
def test_the_written_json_and_the_patch_are_the_document_handed_over(events):
    import panel as pn
    from bpe_app.app import App

    bokeh_settings.simple_ids.set_value(True)
    try:
        doc = Document()
        doc.hold()  # as Panel's init_doc holds it, until the page is linked
        with set_curdoc(doc):
            first_screen.start()
            pn.panel(App(state=first_screen.app_state())).server_doc(doc=doc)
            at_write = written(doc)
            page_patch.written(doc)  # as the worker's WRITE_DOC
            held_before = len(doc.callbacks._held_events)
            screen = first_screen.restored()
            for event in events:
                screen.answer(event)
            assert first_screen.hand_over()
            patch = page_patch.since_written(doc)
            assert patch is not None
    finally:
        bokeh_settings.simple_ids.unset_value()

    page = Document.from_json(at_write)  # the page: the JSON as written, then the patch
    page.apply_json_patch(json.loads(patch))
    assert models_of(page) == models_of(doc)
    assert models_of(Document.from_json(at_write)) != models_of(doc)
    # Linking still sends everything held: the changes kept apart are given back after the rest.
    assert len(doc.callbacks._held_events) > held_before

