"""Browser tests: dist/ served on 127.0.0.1, Debian's Chromium driven by Playwright, offline.

Fixtures:
    site_url   (session) the address of a copy of dist/ served by a thread on a free port; builds dist/ first
               if it is stale
    app        a fresh page (new browser context, so a cold cache) that records every request the page and
               its worker make, console errors and HTTP errors; `app.open()` loads the site and waits until
               the worker has rendered the document
    module_app (module) the same, opened once and shared by a module's tests
    profile    (session) one browser profile that has visited the site once and kept its snapshot:
               pages opened in it (`new_page`) start as second visits, in about 2.5 s instead of
               8-11 s. `app` and `module_app` open in it; the tests of a first visit (test_site,
               test_first_screen_page, test_site_shipping, test_phone) make contexts of their own,
               and `cold_app` is `app` in a context of its own.

With BPE_TEST_VISIT=second in the environment, every page visits the site once before the test's
own visit, so that the tests run on a second visit: from the Cache API and the memory snapshot of
Python the first visit kept (see site/bpe_build/worker/snapshot.js).
"""
from __future__ import annotations

import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bpe_build.assemble import build
from bpe_build.paths import CHROMIUM_ARGS, DIST
from bpe_build.serve import make_server
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
CHROMIUM = "/usr/bin/chromium"
# Cold start is ~10 s on a 2-core machine; leave room for a loaded CI machine.
INTERACTIVE_TIMEOUT_MS = 120_000
# An expectation passes as soon as it holds; Playwright's 5 s default is only how long a failing
# one is retried. A CI machine with every core taken (load 6 on 2 cores) took longer than that to
# lay out 1.2 MB in a text box, so a test failed on the machine, not the page.
expect.set_options(timeout=20_000)

# Panel renders into nested shadow roots; these helpers find elements at any depth.
DEEP_HELPERS = """
window.bpeDeepAll = (selector, root = document) => {
  const found = [...root.querySelectorAll(selector)];
  for (const node of root.querySelectorAll('*')) {
    if (node.shadowRoot) found.push(...window.bpeDeepAll(selector, node.shadowRoot));
  }
  return found;
};
window.bpeText = (selector) => window.bpeDeepAll(selector).map((e) => e.textContent).join(' ');
window.bpeChipText = (container) =>
  window.bpeDeepAll(container + ' .bpe-chip').map((chip) => chip.textContent).join('');
"""


SECOND_VISIT = os.environ.get("BPE_TEST_VISIT") == "second"


def visit_before(page, url: str) -> None:
    """Under BPE_TEST_VISIT=second, visit the site once and wait until it has kept its snapshot (or
    started from one kept before)."""
    if SECOND_VISIT:
        said = ("[bpe] kept a snapshot", "[bpe] Python and the app started from the snapshot")
        with page.expect_console_message(lambda message: message.text.startswith(said),
                                         timeout=INTERACTIVE_TIMEOUT_MS):
            page.goto(url)


CHIP_IDS = """(container) => {
  const all = (selector, root) => [...root.querySelectorAll(selector)].concat(
    ...[...root.querySelectorAll('*')].filter((node) => node.shadowRoot).map((node) => all(selector, node.shadowRoot)));
  return all(container + ' .bpe-chip', document).map((chip) => Number(chip.dataset.id));
}"""


def chip_ids_once_shown(page, container: str, expected: list[int], timeout: float = 30_000) -> list[int]:
    """The ids of the chips in `container` (at any shadow depth), read once they equal `expected` or
    after `timeout` ms.

    The chips of the text before stay on the page until the worker answers; reading them at once races
    the answer. Returns what is there either way, so the caller's assert shows the difference."""
    same = f"([container, expected]) => JSON.stringify(({CHIP_IDS})(container)) === JSON.stringify(expected)"
    try:
        page.wait_for_function(same, arg=[container, expected], timeout=timeout)
    except PlaywrightTimeoutError:
        pass
    return page.evaluate(CHIP_IDS, container)


def open_site(page, url: str) -> None:
    """Load the site in a page made for one test module and wait until the worker's document is live."""
    page.set_default_timeout(30_000)
    visit_before(page, url)
    page.goto(url)
    page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=INTERACTIVE_TIMEOUT_MS)




@pytest.fixture(scope="session")
def site_url(tmp_path_factory):
    build()
    # Serve a private copy: other builds in the same checkout may replace dist/ while tests run.
    served = tmp_path_factory.mktemp("site") / "dist"
    shutil.copytree(DIST, served)
    server = make_server(served, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright launches Debian's Chromium instead of a downloaded browser."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@dataclass
class AppPage:
    page: object
    url: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    def open(self) -> float:
        """Load the site and wait until the worker's document is rendered; returns seconds taken."""
        visit_before(self.page, self.url)
        started = time.monotonic()
        self.page.goto(self.url)
        self.page.wait_for_function(
            "() => !document.body.classList.contains('pn-loading')"
            " || [...document.querySelectorAll('.pn-loading-msg')].some(e => e.textContent.startsWith('Error'))",
            timeout=INTERACTIVE_TIMEOUT_MS,
        )
        message = self.page.evaluate(
            "() => [...document.querySelectorAll('.pn-loading-msg')].map(e => e.textContent).join(' ')")
        assert not message.startswith("Error"), f"the worker failed: {message}\n" + "\n".join(self.console[-20:])
        self.timings["interactive"] = time.monotonic() - started
        return self.timings["interactive"]

    def external_requests(self) -> list[str]:
        return [url for url in self.requests
                if not url.startswith(("data:", "blob:")) and urlsplit(url).hostname != "127.0.0.1"]

    def screenshot(self, name: str) -> Path:
        OUTPUT.mkdir(exist_ok=True)
        path = OUTPUT / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


SNAPSHOT_SAID = ("[bpe] kept a snapshot", "[bpe] Python and the app started from the snapshot")


@pytest.fixture(scope="session")
def profile(browser, site_url):
    """A browser profile that has visited the site once: the files are in its Cache API and Python's
    snapshot is kept, as for anyone coming back. The site keeps nothing else (no cookies, no local
    storage), so its pages share nothing but that."""
    context = browser.new_context()
    page = context.new_page()
    with page.expect_console_message(lambda message: message.text.startswith(SNAPSHOT_SAID),
                                     timeout=INTERACTIVE_TIMEOUT_MS):
        page.goto(site_url)
    page.close()
    yield context
    context.close()


def new_page(profile, *, viewport: dict | None = None, color_scheme: str | None = None, script: str = DEEP_HELPERS):
    """A page in the session's profile, sized and coloured as asked, with `script` run in every document."""
    page = profile.new_page()
    page.set_viewport_size(viewport or {"width": 1280, "height": 720})  # Playwright's default
    if color_scheme:
        page.emulate_media(color_scheme=color_scheme)
    if script:
        page.add_init_script(script)
    return page


@pytest.fixture
def app(profile, site_url):
    """A page opened in the session's profile (a second visit)."""
    page = new_page(profile, script="")
    yield recording(page, site_url)
    page.close()


@pytest.fixture
def cold_app(page, site_url):
    """A page in a context of its own (a first visit: every file fetched, no snapshot)."""
    yield recording(page, site_url)


@pytest.fixture(scope="module")
def module_app(profile, site_url):
    """One page for a whole module, opened once: for tests that each drive the page on from where the
    last left it."""
    recorder = recording(new_page(profile, script=""), site_url)
    recorder.open()
    yield recorder
    recorder.page.close()


def recording(page, url: str) -> AppPage:
    """An AppPage for `page` that records its requests, HTTP errors, page errors and console."""
    recorder = AppPage(page=page, url=url)
    page.on("request", lambda request: recorder.requests.append(request.url))
    page.on("response", lambda response: response.status >= 400
            and recorder.errors.append(f"HTTP {response.status} {response.url}"))
    page.on("pageerror", lambda error: recorder.errors.append(f"page error: {error}"))

    def on_console(message):
        recorder.console.append(f"{message.type}: {message.text}")
        if message.type == "error":
            recorder.errors.append(f"console error: {message.text[:2000]}")

    page.on("console", on_console)
    page.set_default_timeout(30_000)
    return recorder


def pytest_configure(config):
    # pytest-playwright's base_url fixture trips a pytest 9 deprecation; not ours to fix.
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods:pytest.PytestRemovedIn10Warning")

