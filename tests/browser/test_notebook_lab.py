"""The example notebook in JupyterLab, as a person runs it: a headless JupyterLab started here (the
project's own kernel), "Run All Cells" from its menu, and the encoder's chips for "strawberry" in
the output, each the token `bpe` gives. Panel's own scripts are inlined in the notebook; what the
page fetches is JupyterLab's, from 127.0.0.1, but for the stylesheets Panel itself asks its CDN for
when it redraws a view (Panel 1.8's notebook mode names no local address for them)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

import bpe
from conftest import OUTPUT
from lab_server import JUPYTER, lab, open_notebook, run_all_cells

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "notebook.ipynb"
#: What the page may ask of another host: Panel's own stylesheets (see the module's note).
PANELS_CDN = "https://cdn.holoviz.org/panel/"


@pytest.fixture(scope="module")
def notebook_lab(tmp_path_factory):
    """JupyterLab serving a copy of the example notebook."""
    if not JUPYTER.exists():
        pytest.skip("JupyterLab is not installed in this environment")
    home = tmp_path_factory.mktemp("lab")
    work = home / "work"
    work.mkdir()
    shutil.copy2(EXAMPLE, work / EXAMPLE.name)
    with lab(home, work) as url:
        yield url, work


def test_the_example_notebook_runs_in_jupyterlab_and_shows_strawberrys_chips(browser, notebook_lab):
    url, work = notebook_lab
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    outside = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")) else None)
    try:
        open_notebook(page, url, EXAMPLE.name)
        dialogs = run_all_cells(page)
        if dialogs:  # JupyterLab's own, answered: kept for whoever reads the run's output
            OUTPUT.mkdir(exist_ok=True)
            (OUTPUT / "lab-dialogs.txt").write_text("\n".join(dialogs) + "\n", encoding="utf-8")
            print("JupyterLab opened dialogs, answered (lab_server.answer_dialogs):", dialogs)
        cell = page.locator(".jp-Cell", has_text='bpe.show(training, "encoder", text="strawberry")')
        chips = cell.locator(".bpe-encoding-pane .bpe-chip")
        text = (ROOT / "bpe" / "corpora" / "debian-reference.en.txt").read_text(encoding="utf-8")
        expected = bpe.train(text.split("\n\n"), bpe.Settings(merges=60)).tokenizer.encode_pieces("strawberry")
        expect(chips.first).to_be_visible(timeout=120_000)
        expect(chips).to_have_text(expected.texts)
        expect(cell.locator(".bpe-ids")).to_contain_text(" ".join(map(str, expected.ids)))
        last = page.locator(".jp-Cell", has_text='Path("tokenizer.json")')
        expect(last.locator(".jp-OutputArea-output")).to_contain_text(str(expected.texts), timeout=60_000)  # the end
        assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
        assert (work / "tokenizer.json").exists()
        assert [u for u in outside if not u.startswith(PANELS_CDN)] == []
    finally:
        context.close()
