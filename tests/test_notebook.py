"""bpe in a notebook: the example notebook runs top to bottom (nbclient, the project's own kernel),
its cells' outputs hold the views' HTML and load nothing from outside; `bpe.show` gives the site's
views on a state of their own, and the core's objects draw themselves without Panel."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import bpe

pytest.importorskip("panel")
nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

from bpe_app.notebook import Shown, show  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "notebook.ipynb"


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """The example notebook, run in a folder of its own (it writes tokenizer.json there)."""
    folder = tmp_path_factory.mktemp("notebook")
    shutil.copy2(EXAMPLE, folder / EXAMPLE.name)
    notebook = nbformat.read(folder / EXAMPLE.name, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}}).execute()
    return notebook, folder


def outputs(cell) -> str:
    return json.dumps(cell.get("outputs", []), ensure_ascii=False)


def cell_with(notebook, source: str):
    return next(cell for cell in notebook.cells if cell.cell_type == "code" and source in cell.source)


def example_training() -> bpe.Training:
    """The notebook's own training, made again here."""
    text = (ROOT / "bpe" / "corpora" / "debian-reference.en.txt").read_text(encoding="utf-8")
    return bpe.train(text.split("\n\n"), bpe.Settings(merges=60))


def test_the_example_notebook_runs_top_to_bottom_without_an_error(ran):
    notebook, folder = ran
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in cells)  # every cell ran
    errors = [output for cell in cells for output in cell.outputs if output.output_type == "error"]
    assert errors == []
    assert "stderr" not in {output.get("name") for cell in cells for output in cell.outputs}
    assert (folder / "tokenizer.json").exists()


def test_its_outputs_hold_the_views_html_and_inline_panels_scripts(ran):
    notebook, _ = ran
    for source in ("view = bpe.show(training)", 'bpe.show(training, "encoder"', "bpe.show(cl100k"):
        cell = cell_with(notebook, source)
        kinds = {kind for output in cell.outputs for kind in output.get("data", {})}
        assert "application/vnd.holoviews_exec.v0+json" in kinds  # a live Panel view, with its comms
        assert "bpe-chip" in outputs(cell)
    # Bokeh's and Panel's scripts are inlined, not fetched (the browser test watches the requests too:
    # the inlined scripts still name a few CDN defaults, MathJax's and an icon font's, never taken).
    every = "".join(outputs(cell) for cell in notebook.cells if cell.cell_type == "code")
    assert "cdn.bokeh.org" not in every and "cdn.holoviz.org" not in every


def test_the_encoders_chips_for_strawberry_are_in_the_output(ran):
    notebook, _ = ran
    ours = example_training().tokenizer.encode_pieces("strawberry")
    ids = " ".join(map(str, ours.ids))
    assert f"ids: [{ids}]" in outputs(cell_with(notebook, 'bpe.show(training, "encoder"'))
    assert f"ids: [{ids}]" in outputs(cell_with(notebook, 'training.tokenizer.encode_pieces("strawberry")'))
    cl100k = bpe.real.load("cl100k_base").encode_pieces("strawberry")
    assert f"ids: [{' '.join(map(str, cl100k.ids))}]" in outputs(cell_with(notebook, 'cl100k.encode_pieces("strawberry")'))
    assert "bpe-corpus-summary" in outputs(cell_with(notebook, "training = bpe.train("))  # the training's own chips


def test_show_gives_the_sites_views_on_a_state_of_their_own():
    from bpe_app.corpus_view import CorpusView
    from bpe_app.encoder_view import EncoderView
    from bpe_app.scrubber import Scrubber

    training = example_training()
    view = show(training, round=3, text="walkable")
    kinds = {name: type(part) for name, part in view.views.items()}
    assert {"rounds": Scrubber, "corpus": CorpusView, "encoder": EncoderView}.items() <= kinds.items()
    assert view.state.training is training and view.state.round == 3 and view.state.encode_text == "walkable"
    other = show(training)
    assert other.state is not view.state and other.state.round == len(training.merges)
    view.state.step(1)
    assert view.state.round == 4 and other.state.round == len(training.merges)  # each its own


def test_a_scrub_in_the_notebook_redraws_the_corpus_with_the_pane_renderer():
    import panel as pn
    from bpe.panes.corpus import corpus_html

    training = example_training()
    view = show(training, "corpus")
    pane = next(p for p in view.__panel__().select(pn.pane.HTML) if "bpe-corpus-pane" in p.css_classes)
    view.state.round = 7
    assert pane.object == corpus_html(training, 7, None)


def test_show_takes_a_tokenizer_of_any_kind():
    training = example_training()
    saved = bpe.files.loads(bpe.files.dumps(training))
    for tokenizer, compare in ((bpe.real.load("o200k_base"), "o200k_base"), ("cl100k_base", "cl100k_base"),
                               (training.tokenizer, "upload"), (saved, "upload")):
        view = show(tokenizer, text="strawberry")
        assert view.state.compare == compare and view.state.reference is not None
        assert view.state.vocab_source == compare and isinstance(view, Shown)


@pytest.mark.parametrize("call, words", [
    (lambda t: show(t, "nope"), "bpe.show has no view 'nope'"),
    (lambda t: show(t, colour="red"), "bpe.show takes no option 'colour'"),
    (lambda t: show(42), "not int"),
])
def test_show_refuses_what_it_cannot_show_by_name(call, words):
    with pytest.raises((ValueError, TypeError), match=words):
        call(example_training())


def test_a_training_that_kept_no_text_shows_its_rounds_without_rows():
    streamed = bpe.train(iter(["low lower lowest"] * 4), bpe.Settings(merges=4), keep=False)
    view = show(streamed)
    assert view.state.training is streamed and view.state.corpus_text == ""
    assert "No rows to draw" in view.state.training._repr_html_()


def test_the_cores_objects_draw_themselves_without_panel():
    training = example_training()
    for obj in (training, training.tokenizer, training.tokenizer.encode_pieces("strawberry"),
                bpe.real.load("cl100k_base"), bpe.real.load("mistral_v3").encode_pieces("strawberry")):
        page = obj._repr_html_()
        assert page.startswith('<div class="bpe-shown"><style>') and "bpe-chip" in page
        assert "\n:focus-visible" not in page  # no rule reaches outside its own box
    evil = bpe.train(["<script>alert(1)</script>"] * 3, bpe.Settings(merges=3))
    assert "<script>alert" not in evil._repr_html_()
