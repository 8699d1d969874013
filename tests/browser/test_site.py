"""The built site in a real browser: it becomes interactive, offline, with nothing but local requests."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def test_page_becomes_interactive_with_only_local_requests(cold_app):
    app = cold_app
    seconds = app.open()
    page = app.page

    # Prerendered content was replaced by the worker's live document, and a widget round trip works:
    # typing into the encoder re-renders its token chips (Python in the worker answers the edit).
    encoded = page.locator(".bpe-encoded").first
    expect(encoded).to_be_visible()
    before = encoded.inner_text()
    page.locator(".encode-input input").first.fill("hug pug")
    expect(encoded).not_to_have_text(before, timeout=30_000)
    expect(encoded.locator(".bpe-chip").first).to_be_visible()
    app.screenshot("site-interactive")

    # The worker's requests are seen too (Pyodide itself is fetched by the worker), each file once,
    # with gzip or brotli as the link's pace chose (test_site_shipping.py).
    wasm = [url for url in app.requests if re.search(r"/pyodide/pyodide\.asm\.wasm\.[0-9a-f]{16}\.(gzip|brotli)$", url)]
    assert len(wasm) == 1, app.requests
    assert app.external_requests() == []
    assert app.errors == [], "\n".join(app.errors)
    print(f"interactive after {seconds:.1f} s")


def test_while_python_starts_the_page_says_so_and_takes_no_clicks(cold_app):
    app = cold_app
    page = app.page
    page.goto(app.url)
    page.wait_for_selector(".pn-loading-msg")
    # The page shown: the still page (see test_still_page.py) once it is drawn, or Bokeh's drawing.
    shown = "() => document.querySelector('body.bpe-still > #bpe-still, body > [data-root-id] > *')"
    page.wait_for_function(shown)
    # What a click in the middle of the page would reach: the cover over it (the body's ::after) or the page.
    loading = """() => {
      const message = document.querySelector('.pn-loading-msg');
      const root = document.querySelector('body.bpe-still > #bpe-still, body > [data-root-id] > *');
      const box = root.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, Math.min(box.top + box.height / 2, innerHeight / 3));
      return [document.body.classList.contains('pn-loading'), message && getComputedStyle(message).fontFamily,
              hit === document.body ? "cover" : root.contains(hit) || hit === root ? "page" : hit && hit.tagName,
              getComputedStyle(document.body, '::after').cursor];
    }"""
    busy, font, clicks, cursor = page.evaluate(loading)
    assert busy and clicks == "cover" and cursor == "progress"
    assert "system-ui" in font and "serif" not in font.replace("sans-serif", "")
    page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=120_000)
    assert page.evaluate(loading)[2] == "page"
