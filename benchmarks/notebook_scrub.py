#!/usr/bin/env python3
"""How fast `bpe.show` answers a scrub in JupyterLab, on a training of a 2 MB corpus.

    .venv/bin/python benchmarks/notebook_scrub.py [--steps 40] [--chars 2000000] [--json out.json]

The corpus is the first 2,000,000 characters of Python's documentation sources (Debian's
python3.11-doc, fetched as benchmarks/core.py fetches it), one document per file, trained in the
kernel with bpe's defaults to a vocabulary of 2,048. A headless JupyterLab (the project's .venv)
runs a notebook that shows `bpe.show(training)`; then in Chromium the corpus rows take focus and ←
is pressed --steps/2 times, then → as often. One step is the keydown's own timestamp to the moment
the round's caption (`.bpe-caption`) changes in the DOM (a MutationObserver on its shadow root), so
it holds the key's trip to the kernel over the notebook's comm, the state's change, every view's
redraw and Bokeh's patch of the page. Prints p50 and p95 with the machine's load and CPU.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import core  # noqa: E402  (the Python docs corpus)
from lab_server import lab, open_notebook, run_all_cells  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Waits for the caption of the round to change, from the keydown's timestamp.
HARNESS = """
() => {
  const deep = (selector, root = document) => {
    const found = root.querySelector(selector);
    if (found) return found;
    for (const node of root.querySelectorAll('*')) {
      const inner = node.shadowRoot && deep(selector, node.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  window.bpeBench = {
    deep,
    caption: () => { const c = deep('.bpe-caption'); return c ? c.textContent : ''; },
    arm() {
      const pane = deep('.bpe-caption-pane');
      const before = window.bpeBench.caption();
      window.bpeBench.done = new Promise((resolve) => {
        let pressed = null;
        const key = (event) => { pressed = event.timeStamp; };
        document.addEventListener('keydown', key, { capture: true, once: true });
        const observer = new MutationObserver(() => {
          const now = window.bpeBench.caption();
          if (now !== before && pressed !== null) {
            observer.disconnect();
            resolve({ ms: performance.now() - pressed, caption: now });
          }
        });
        observer.observe(pane.shadowRoot, { childList: true, subtree: true, characterData: true });
        setTimeout(() => { observer.disconnect(); resolve({ ms: null, caption: before }); }, 10000);
      });
    },
  };
}
"""


def notebook(folder: Path, docs_path: Path) -> Path:
    import nbformat

    cell = nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [cell("import json\nimport panel as pn\nimport bpe\npn.extension(inline=True)"),
                cell(f"docs = json.load(open({str(docs_path)!r}, encoding='utf-8'))\n"
                     "training = bpe.train(docs, bpe.Settings(vocab_size=2048))"),
                cell("view = bpe.show(training)\nview")]
    path = folder / "scrub.ipynb"
    nbformat.write(nb, path)
    return path


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--chars", type=int, default=2_000_000)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--timeout", type=int, default=600, help="seconds to wait for the view (training included)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    core.fetch()
    docs = core.prefix(core.documents(), args.chars)
    size = sum(len(doc.encode()) for doc in docs)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        work = home / "work"
        work.mkdir()
        docs_path = home / "docs.json"
        docs_path.write_text(json.dumps(docs), encoding="utf-8")
        path = notebook(work, docs_path)
        with lab(home, work) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            open_notebook(page, url, path.name)
            started = time.monotonic()
            run_all_cells(page)
            try:
                page.locator(".bpe-caption").first.wait_for(timeout=args.timeout * 1000)
            except Exception:
                page.screenshot(path=str(ROOT / "test-output" / "notebook-scrub-timeout.png"))
                raise
            shown = time.monotonic() - started
            page.evaluate(HARNESS)
            time.sleep(2)
            page.locator(".bpe-rows").first.click()
            steps = []
            for k in range(args.steps):
                page.evaluate("() => window.bpeBench.arm()")
                page.keyboard.press("ArrowLeft" if k < args.steps // 2 else "ArrowRight")
                result = page.evaluate("() => window.bpeBench.done")
                if result["ms"] is None:
                    raise SystemExit(f"step {k}: the caption did not change ({result['caption']!r})")
                steps.append(result["ms"])
            browser.close()
    load = os.getloadavg()
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    out = {"corpus_bytes": size, "documents": len(docs), "steps": len(steps), "scrub_p50_ms": statistics.median(steps),
           "scrub_p95_ms": percentile(steps, 95), "scrub_max_ms": max(steps), "run_all_to_view_s": shown,
           "load": load, "cpu": cpu, "cores": os.cpu_count()}
    print(f"bpe.show on {size / 1e6:.2f} MB ({len(docs)} documents, vocabulary 2,048), {len(steps)} scrub steps in "
          f"JupyterLab: p50 {out['scrub_p50_ms']:.0f} ms, p95 {out['scrub_p95_ms']:.0f} ms, max {out['scrub_max_ms']:.0f} ms "
          f"(Run All to the view: {shown:.1f} s); load {load[0]:.2f} {load[1]:.2f}, {cpu}, {os.cpu_count()} cores")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
