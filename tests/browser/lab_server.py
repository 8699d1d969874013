"""A headless JupyterLab of the project's .venv, in folders of its own, for the notebook's browser
test and benchmarks/notebook_scrub.py; and "Run All Cells" as a person does it, from the menu."""
from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

from playwright.sync_api import TimeoutError as TimeoutError_
from processes import free_port, serving

JUPYTER = Path(sys.executable).with_name("jupyter")
TOKEN = "bpe-notebook"


@contextlib.contextmanager
def lab(home: Path, work: Path):
    """JupyterLab serving `work` on a free port until the block ends; yields its address. No news, no
    update check, no extension manager: nothing that would ask the internet."""
    port = free_port()
    command = [str(JUPYTER), "lab", "--no-browser", "--allow-root", f"--ServerApp.port={port}",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={work}",
               "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               f"--LabApp.workspaces_dir={home / 'workspaces'}", "--LabServerApp.extension_manager=readonly"]
    env = {"JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "JUPYTER_DATA_DIR": str(home / "data")}
    url = f"http://127.0.0.1:{port}"
    with open(home / "lab.log", "w") as log, serving(command, f"{url}/api/status?token={TOKEN}", log, env):
        yield url


def open_notebook(page, url: str, name: str) -> None:
    page.goto(f"{url}/lab/tree/{name}?reset&token={TOKEN}")
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=120_000)


def run_all_cells(page, tries: int = 3) -> list[str]:
    """Run > Run All Cells; again if within 15 s not every code cell has been queued or run (a click
    before the notebook's session is ready is lost; on a busy machine once only the first cell ran,
    and the rest were never queued). A dialog JupyterLab opens on its own meanwhile (seen once on a
    busy CI machine: a modal that took every click for 30 s) is answered (`answer_dialogs`) and its
    text returned, so that the test can show what it was."""
    dialogs = []
    for _ in range(tries):
        dialogs += answer_dialogs(page)
        try:
            page.get_by_role("menuitem", name="Run", exact=True).click(timeout=10_000)
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click(timeout=10_000)
        except TimeoutError_:
            continue  # a dialog came in between: answered at the top of the next try
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
            if prompts and all("[*]" in prompt or any(c.isdigit() for c in prompt) for prompt in prompts):
                return dialogs + answer_dialogs(page)
            time.sleep(0.3)
    raise TimeoutError(f"Run All Cells started no cell (dialogs answered: {dialogs})")


def has_kernel(page) -> bool:
    """Whether the notebook has a kernel (starting or running): its toolbar names one."""
    name = page.locator(".jp-Toolbar-kernelName")
    return bool(name.count()) and name.first.inner_text().strip() not in ("", "No Kernel")


def answer_dialogs(page) -> list[str]:
    """Answer each open JupyterLab dialog with its default (accept) button; their texts. "Select
    Kernel" is dismissed where the notebook has a kernel already: accepting it starts another in
    that one's place, and the cells queued on it never run (seen on a busy CI machine)."""
    texts = []
    for _ in range(5):
        dialog = page.locator(".jp-Dialog")
        if not dialog.count():
            break
        text = " ".join(dialog.first.inner_text().split())
        texts.append(text)
        accept = dialog.first.locator(".jp-mod-accept")
        if accept.count() and not (text.startswith("Select Kernel") and has_kernel(page)):
            accept.first.click()
        else:
            page.keyboard.press("Escape")
        page.wait_for_timeout(300)
    return texts
