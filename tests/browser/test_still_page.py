"""The still page in a real browser: the prerendered document as HTML (site/bpe_build/still.py),
shown before any of Bokeh's scripts has run, answered from Python on its own elements, and then
replaced by Bokeh's drawing with the focus, the caret and the text kept.

`window.bpeHoldBokeh` (set before the page's scripts run) holds Bokeh's scripts back until the test
calls `window.bpeReleaseBokeh()`; `window.bpeHoldPanel` holds the full page back.
"""
from __future__ import annotations

import pytest
from bpe_app.first_screen import FirstScreen
from conftest import DEEP_HELPERS, INTERACTIVE_TIMEOUT_MS, SECOND_VISIT, recording

pytestmark = pytest.mark.skipif(SECOND_VISIT, reason="holds Panel back (only a cold start can), or makes its own second visits")

FIRST = "() => document.body.classList.contains('bpe-first')"
STILL = "() => Boolean(window.bpeFirstScreen.still.root())"
BOKEH_DRAWN = "() => document.body.classList.contains('bpe-first') && !document.getElementById('bpe-still')"
#: The still page's element: the first host with class `host` in it (its closed shadow root), or
#: `inner` in that host's own shadow root.
STILL_ELEMENT = """([host, inner]) => {
  const found = window.bpePlaces.deepAll(host, window.bpeFirstScreen.still.root())[0];
  return inner ? found.shadowRoot.querySelector(inner) : found;
}"""
#: Each of our panes on the still page: its HTML, and the HTML the browser makes of `panes[name]`
#: (Python's string), so that the two are compared as the same parser wrote them.
STILL_PANES = """(panes) => Object.fromEntries(Object.entries(panes).map(([name, html]) => {
  const host = window.bpePlaces.deepAll('.' + name, window.bpeFirstScreen.still.root())[0];
  const box = host && [...host.shadowRoot.children].find((node) => node.tagName === 'DIV');
  const parsed = document.createElement('div');
  parsed.innerHTML = html;
  return [name, [box ? box.innerHTML : null, parsed.innerHTML]];
}))"""
#: Marks the first element in pane `name` on the still page (`mark`), or says whether it is still there.
PANE_MARK = """([name, mark]) => {
  const host = window.bpePlaces.deepAll('.' + name, window.bpeFirstScreen.still.root())[0];
  const node = [...host.shadowRoot.children].find((child) => child.tagName === 'DIV').firstElementChild;
  if (mark) node.bpeMarked = true;
  return Boolean(node.bpeMarked);
}"""
STILL_TEXT = "(css) => window.bpePlaces.deepAll(css, window.bpeFirstScreen.still.root()).map((e) => e.textContent).join(' ')"


def still_element(page, host: str, inner: str = ""):
    return page.evaluate_handle(STILL_ELEMENT, [host, inner]).as_element()


def still_text(page, css: str) -> str:
    return page.evaluate(STILL_TEXT, css)


def wait_still_text(page, css: str, start: str) -> None:
    page.wait_for_function(f"(start) => ({STILL_TEXT})({css!r}).replace(/\\s/g, '').startsWith(start)", arg=start,
                           timeout=30_000)


def still_page(browser, url: str, scheme: str = "light"):
    """A fresh page at `url` with Bokeh and Panel held back, once the still page shows."""
    context = browser.new_context(color_scheme=scheme)
    context.add_init_script(DEEP_HELPERS + "\nwindow.bpeHoldBokeh = true; window.bpeHoldPanel = true;")
    recorder = recording(context.new_page(), url)
    recorder.page.goto(url)
    recorder.page.wait_for_function(STILL, timeout=INTERACTIVE_TIMEOUT_MS)
    return context, recorder


@pytest.fixture(scope="module")
def held(browser, site_url):
    context, recorder = still_page(browser, site_url)
    yield recorder
    context.close()


def test_the_still_page_is_the_prerendered_page_before_bokeh_runs(held):
    """Before any of Bokeh's scripts has run, the page holds every pane of ours, each the HTML its
    Python renderer writes for the page as everyone opens it, and the widgets' values; none of it
    is in reach of the page's own scripts (a closed shadow root)."""
    page = held.page
    assert page.evaluate("() => typeof window.Bokeh") == "undefined"
    panes = FirstScreen().view()["panes"]
    shown = page.evaluate(STILL_PANES, panes)
    assert set(shown) == set(panes)
    for name, (on_page, from_python) in shown.items():
        assert on_page == from_python, name
    assert still_element(page, ".encode-input", "input").input_value() == "walkable"
    assert still_element(page, ".preset-select", "select").input_value() == "explainer"
    assert "Round 0 of 10" in still_text(page, ".bpe-caption")
    assert page.evaluate("() => window.bpeDeepAll('.bpe-caption').length") == 0  # out of the page's scripts' reach


def test_the_still_page_answers_from_python(held):
    """Typing, the keys, the buttons and the preset menu on the still page are answered by the first
    screen, on the still page's own elements: what is set there is Python's HTML."""
    page = held.page
    page.wait_for_function(FIRST, timeout=INTERACTIVE_TIMEOUT_MS)
    for name in ("bpe-corpus-pane", "bpe-candidates-pane", "bpe-encoding-pane"):
        page.evaluate(PANE_MARK, [name, True])
    still_element(page, ".encode-input", "input").fill("strawberry")
    wait_still_text(page, ".bpe-encoded", "strawberry")
    # Only the panes the text changes are drawn again: the corpus and the table keep their elements.
    assert [page.evaluate(PANE_MARK, [name, False]) for name in ("bpe-corpus-pane", "bpe-candidates-pane",
                                                                  "bpe-encoding-pane")] == [True, True, False]
    still_element(page, ".bpe-corpus-pane").click()  # off the box, so that → moves the round
    page.keyboard.press("ArrowRight")
    wait_still_text(page, ".bpe-caption", "Round1of10")
    still_element(page, ".next-round", "button").click()
    wait_still_text(page, ".bpe-caption", "Round2of10")
    assert still_text(page, ".round-slider") == ""  # the slider's parts are in its own shadow root
    slider = still_element(page, ".round-slider", ".bk-slider-value")
    assert slider.text_content() == "2"
    still_element(page, ".preset-select", "select").select_option("course")
    page.wait_for_function(f"() => ({STILL_TEXT})('.bpe-caption').includes('of 2')", timeout=30_000)
    screen = FirstScreen()  # the same events, in the same order
    for event in ({"text": "strawberry"}, {"step": 1}, {"step": 1}):
        screen.answer(event)
    want = screen.answer({"preset": "course"})["panes"]
    shown = page.evaluate(STILL_PANES, want)
    assert all(on_page == from_python for on_page, from_python in shown.values()), \
        [name for name, (a, b) in shown.items() if a != b]
    assert page.evaluate("() => typeof window.Bokeh") == "undefined"  # all of it on the still page
    assert held.errors == [], "\n".join(held.errors)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bokeh_takes_its_place_with_the_focus_the_caret_and_the_text(browser, site_url, scheme):
    """Typed on the still page, then Bokeh draws: the same text box, now Bokeh's, has the focus, the
    text (its model too) and the caret, and what is typed next is answered as before."""
    context, app = still_page(browser, site_url, scheme)
    page = app.page
    try:
        page.wait_for_function(FIRST, timeout=INTERACTIVE_TIMEOUT_MS)
        box = still_element(page, ".encode-input", "input")
        box.fill("walk")
        box.press("ArrowLeft")  # the caret between "wal" and "k"
        page.evaluate("() => window.bpeReleaseBokeh()")
        page.wait_for_function(BOKEH_DRAWN, timeout=INTERACTIVE_TIMEOUT_MS)
        focused = page.evaluate("""() => {
          let active = document.activeElement;
          while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
          const model = [...window.Bokeh.documents[0].all_models].find((m) => (m.css_classes || []).includes('encode-input'));
          return [active.value, active.selectionStart, model.value_input];
        }""")
        assert focused == ["walk", 3, "walk"]
        page.keyboard.type("x")
        page.wait_for_function("() => window.bpeText('.bpe-encoded').replace(/\\s/g, '').startsWith('walxk')")
        assert page.evaluate("() => window.bpeDeepAll('.bpe-caption').length") == 1  # one page, not two
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


def test_the_arrow_keys_are_the_apps_own():
    """The still page takes ← and → as the app's ArrowKeys do, off the same parts (OWN_KEYS)."""
    import re

    from bpe_app.token_clicks import OWN_KEYS
    from bpe_build.paths import BUILD_ASSETS

    source = (BUILD_ASSETS / "still_page.js").read_text()
    listed = re.search(r"const OWN_KEYS = (\[[^\]]*\]);", source).group(1)
    assert re.findall(r'"([^"]+)"', listed) == list(OWN_KEYS)


def kept(browser, site_url, scheme: str = "light"):
    """A browser context whose first visit has kept its snapshot of Python with the app built."""
    context = browser.new_context(color_scheme=scheme)
    context.add_init_script(DEEP_HELPERS)
    first = context.new_page()
    with first.expect_console_message(lambda message: message.text.startswith("[bpe] kept a snapshot"),
                                      timeout=INTERACTIVE_TIMEOUT_MS):
        first.goto(site_url)
    first.close()
    return context


def second_visit(context, url: str):
    """The next visit, with Bokeh held back, once the still page shows."""
    app = recording(context.new_page(), url)
    app.page.add_init_script("window.bpeHoldBokeh = true;")
    app.page.goto(url)
    app.page.wait_for_function(STILL, timeout=INTERACTIVE_TIMEOUT_MS)
    return app


def test_a_second_visit_answers_on_the_still_page_from_the_kept_snapshot(browser, site_url):
    """Started from the snapshot it kept, the next visit's first screen answers on the still page
    before Bokeh has run (not after Bokeh has drawn the page and it is linked, 0.7 s later); the
    full app then holds what was typed, and answers the next key."""
    context = kept(browser, site_url)
    try:
        app = second_visit(context, site_url)
        page = app.page
        still_element(page, ".encode-input", "input").fill("abab")
        wait_still_text(page, ".bpe-encoded", "abab")
        still_element(page, ".bpe-corpus-pane").click()
        page.keyboard.press("ArrowRight")
        wait_still_text(page, ".bpe-caption", "Round1of10")
        said = " ".join(app.console)
        assert "page:from-snapshot" in said and "started from the snapshot this browser kept" in said
        assert page.evaluate("() => typeof window.Bokeh") == "undefined"
        page.evaluate("() => window.bpeReleaseBokeh()")
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=INTERACTIVE_TIMEOUT_MS)
        page.wait_for_function("() => window.bpeText('.bpe-caption').replace(/\\s/g, '').startsWith('Round1of10')")
        assert page.evaluate("() => window.bpeText('.bpe-encoded').replace(/\\s/g, '')").startswith("abab")
        page.locator(".encode-input input").first.fill("abcd")
        page.wait_for_function("() => window.bpeText('.bpe-encoded').replace(/\\s/g, '').startsWith('abcd')")
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


def test_a_second_visit_at_a_link_shows_the_links_view_on_the_still_page(browser, site_url):
    """A link opened from the kept snapshot is shown by the first screen before Bokeh runs, and the
    full app opens at it, its address as the link's."""
    context = kept(browser, site_url)
    try:
        app = second_visit(context, site_url + "?preset=course&round=2&text=abab")
        page = app.page
        wait_still_text(page, ".bpe-caption", "Round2of")
        wait_still_text(page, ".bpe-encoded", "abab")
        page.evaluate("() => window.bpeReleaseBokeh()")
        page.wait_for_function("() => !document.body.classList.contains('pn-loading')", timeout=INTERACTIVE_TIMEOUT_MS)
        page.wait_for_function("() => window.bpeText('.bpe-caption').replace(/\\s/g, '').startsWith('Round2of')")
        assert page.evaluate("() => window.bpeText('.bpe-encoded').replace(/\\s/g, '')").startswith("abab")
        assert page.evaluate("() => location.search") == "?preset=course&round=2&text=abab"
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


def test_a_second_visit_answers_every_key_while_the_visitor_types(browser, site_url):
    """The app's state takes over the first screen's only once the visitor pauses (as Bokeh's
    drawing waits for): keys typed while the page's files are written, and after, are answered on
    the still page, not held until the full app is linked (with Bokeh held, never)."""
    context = kept(browser, site_url)
    try:
        app = second_visit(context, site_url)
        page = app.page
        typed = "abcdefghijklmnopqrstuvwxyzabcd"
        still_element(page, ".encode-input", "input").type(typed, delay=150)  # 4.5 s of typing
        wait_still_text(page, ".bpe-encoded", typed)
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()
