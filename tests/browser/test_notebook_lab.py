"""The example notebook in JupyterLab, as a person runs it: a headless JupyterLab started here (the
project's own kernel), "Run All Cells" from its menu, and the encoder's chips for "strawberry" in
the output, each the token `bpe` gives. Panel's own scripts are inlined in the notebook; what the
page fetches is JupyterLab's, from 127.0.0.1, but for the stylesheets Panel itself asks its CDN for
when it redraws a view (Panel 1.8's notebook mode names no local address for them)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

import bpe
from processes import free_port, serving

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "notebook.ipynb"
JUPYTER = Path(sys.executable).with_name("jupyter")
TOKEN = "bpe-notebook-test"
#: What the page may ask of another host: Panel's own stylesheets (see the module's note).
PANELS_CDN = "https://cdn.holoviz.org/panel/"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a free port, in folders of its own, serving a copy of the example notebook."""
    if not JUPYTER.exists():
        pytest.skip("JupyterLab is not installed in this environment")
    home = tmp_path_factory.mktemp("lab")
    work = home / "work"
    work.mkdir()
    shutil.copy2(EXAMPLE, work / EXAMPLE.name)
    port = free_port()
    command = [str(JUPYTER), "lab", "--no-browser", "--allow-root", f"--ServerApp.port={port}",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={work}",
               "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               f"--LabApp.workspaces_dir={home / 'workspaces'}", "--LabServerApp.extension_manager=readonly"]
    env = {"JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTER_DATA_DIR": str(home / "data")}
    with open(home / "lab.log", "w") as log, serving(command, f"http://127.0.0.1:{port}/api/status?token={TOKEN}",
                                                     log, env):
        yield f"http://127.0.0.1:{port}", work


def test_the_example_notebook_runs_in_jupyterlab_and_shows_strawberrys_chips(browser, lab):
    url, work = lab
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    outside = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")) else None)
    try:
        page.goto(f"{url}/lab/tree/{EXAMPLE.name}?reset&token={TOKEN}")
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=120_000)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
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
