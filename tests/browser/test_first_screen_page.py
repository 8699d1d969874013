"""The first screen in a real browser: the page answers from the bpe core before Panel has started,
and the full page takes over without losing what the visitor did.

`window.bpeHoldPanel` (set before the page's scripts run) holds Panel's start back, so that only the
first screen runs; without it, the same page goes on to the full app.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import DEEP_HELPERS, INTERACTIVE_TIMEOUT_MS, SECOND_VISIT, recording

FIRST = "() => document.body.classList.contains('bpe-first')"
FULL = "() => !document.body.classList.contains('pn-loading')"
#: Bokeh has drawn the prerendered document, which took the still page's place (first_screen.js).
BOKEH_DRAWN = "() => document.body.classList.contains('bpe-first') && !document.getElementById('bpe-still')"

pytestmark = pytest.mark.skipif(SECOND_VISIT, reason="holds Panel back, which only a cold start can")


def opened(browser, url: str, *scripts: str, scheme: str = "light"):
    """A fresh context (for the test to close) and page at `url`, `scripts` run before the page's own."""
    context = browser.new_context(color_scheme=scheme)
    for script in (DEEP_HELPERS, *scripts):
        context.add_init_script(script)
    recorder = recording(context.new_page(), url)
    recorder.page.goto(url)
    return context, recorder


def first_screen(browser, url: str, hold: bool | str = True):
    """A fresh page at `url`, once the first screen answers (Panel held back unless `hold` is false;
    with hold="app", until the test calls `window.bpeReleaseApp()`: the full page can come within a
    second of the first answer, before a test has done its part on the first screen)."""
    holds = {True: ["window.bpeHoldPanel = true"], "app": ["window.bpeHoldApp = true"], False: []}[hold]
    context, recorder = opened(browser, url, *holds)
    recorder.page.wait_for_function(FIRST, timeout=INTERACTIVE_TIMEOUT_MS)
    return context, recorder


def wait_chips(page, want: str) -> None:
    """Wait until the encoder's chips (A's, the first) read `want` (chip texts joined by |)."""
    page.wait_for_function(
        "(want) => { const box = window.bpeDeepAll('.bpe-encoded')[0];"
        " return box && [...box.querySelectorAll('.bpe-chip')].map((c) => c.textContent).join('|') === want }",
        arg=want, timeout=30_000)


def caption(page):
    return page.locator(".bpe-caption").first


@pytest.fixture(scope="module")
def held(browser, site_url):
    context, recorder = first_screen(browser, site_url)
    yield recorder
    context.close()


def test_before_panel_the_encoder_answers_walkable_at_round_six(held):
    page = held.page
    assert page.evaluate("() => document.body.classList.contains('pn-loading')")  # Panel has not started
    box = page.locator(".encode-input input").first
    box.fill("")
    box.press_sequentially("walkable", delay=20)
    page.locator(".bpe-corpus").first.click()  # off the box, so that → moves the round
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    expect(caption(held.page)).to_contain_text("Round 6 of 10")
    wait_chips(page, "walk|a|b|l|e")
    assert held.errors == [], "\n".join(held.errors)


def test_before_panel_the_keys_buttons_and_slider_move_the_rounds(held):
    page = held.page
    page.locator(".prev-round button").first.click()
    expect(caption(page)).to_contain_text("Round 5 of 10")
    page.locator(".next-round button").first.click()
    page.locator(".next-round button").first.click()
    expect(caption(page)).to_contain_text("Round 7 of 10")
    page.keyboard.press("ArrowLeft")
    expect(caption(page)).to_contain_text("Round 6 of 10")
    # The winner of round 6 is starred in the table: in + g → ing, the training's sixth merge.
    winner = page.locator(".bpe-candidates tr.bpe-winner").first
    expect(winner).to_contain_text("★")
    expect(winner).to_contain_text("ing")
    handle = page.locator(".round-slider .noUi-handle").first
    handle.focus()
    page.keyboard.press("ArrowLeft")  # the slider's own key: one round down
    expect(caption(page)).to_contain_text("Round 5 of 10")
    expect(page.locator(".bpe-corpus-summary").first).to_contain_text("after 5 merges")


def test_before_panel_choosing_course_retrains_and_shows_its_round_two_tie(held):
    page = held.page
    page.locator(".preset-select select").first.select_option("course")
    expect(caption(page)).to_contain_text("Round 0 of 2")  # a preset starts at round 0
    page.locator(".bpe-corpus").first.click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(caption(page)).to_contain_text("Round 2 of 2")
    expect(page.locator(".bpe-tie").first).to_contain_text("3 pairs tied at 1")
    expect(page.locator(".tie-select select").first).to_have_value("smallest")
    expect(page.locator(".corpus-input textarea").first).to_have_value("aaa\naba")


def test_once_python_answers_the_card_says_the_full_page_is_starting(browser, site_url):
    """Not "Loading Python", which it said until then: Python is up and answering."""
    context, app = first_screen(browser, site_url)
    try:
        expect(app.page.locator(".pn-loading-msg")).to_have_text("Starting the full page")
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


def test_before_panel_a_control_that_needs_the_full_page_says_so(held):
    page = held.page
    page.locator(".budget-select select").first.click()
    expect(page.locator(".pn-loading-msg")).to_contain_text("The full page is starting")
    assert held.errors == [], "\n".join(held.errors)


def test_the_full_page_takes_over_with_the_text_round_preset_and_focus(browser, site_url):
    context, app = first_screen(browser, site_url, hold="app")
    page = app.page
    try:
        page.locator(".preset-select select").first.select_option("course")
        expect(caption(page)).to_contain_text("Round 0 of 2")
        page.locator(".next-round button").first.click()
        expect(caption(page)).to_contain_text("Round 1 of 2")
        page.locator(".bpe-corpus .bpe-chip").first.click()  # the inspector: it opens once the page is there
        page.locator(".compare-b input").first.click()  # B needs the full page: the click is kept
        expect(page.locator(".pn-loading-msg")).to_contain_text("The full page is starting")
        expect(page.locator(".compare-b input").first).not_to_be_checked()
        box = page.locator(".encode-input input").first
        box.fill("")
        box.press_sequentially("abab", delay=20)
        wait_chips(page, "a|b|a|b")
        page.evaluate("() => window.bpeReleaseApp()")
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        expect(page.locator(".bpe-inspector").first).to_be_visible(timeout=30_000)
        expect(page.locator(".compare-b input").first).to_be_checked()  # the kept click, done
        expect(page.locator(".bpe-encoded-b").first).to_contain_text("B, after round 1")
        expect(caption(page)).to_contain_text("Round 1 of 2")
        expect(page.locator(".preset-select select").first).to_have_value("course")
        expect(box).to_have_value("abab")
        assert page.evaluate("() => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement)"
                             " a = a.shadowRoot.activeElement; return a && a.tagName }") == "INPUT"
        box.press("End")
        box.press_sequentially("a", delay=20)  # the full page answers now
        wait_chips(page, "a|b|a|b|a")
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


@pytest.fixture
def held_at(browser, site_url):
    """Opens a fresh first screen, Panel held back, at `site_url` + a query; closed after the test."""
    contexts = []

    def open_at(query: str):
        context, recorder = first_screen(browser, site_url + query)
        contexts.append(context)
        return recorder.page

    yield open_at
    for context in contexts:
        context.close()


def test_a_share_link_opens_on_the_first_screen(held_at):
    page = held_at("?preset=course&round=2&text=aaa")
    expect(caption(page)).to_contain_text("Round 2 of 2")
    wait_chips(page, "aa|a")
    expect(page.locator(".bpe-tie").first).to_contain_text("3 pairs tied at 1")


def test_a_tour_link_shows_its_step_before_panel_and_says_the_box_comes_with_the_full_page(held_at):
    page = held_at("?tour=explainer&step=6")
    expect(caption(page)).to_contain_text("Round 6 of 10")
    wait_chips(page, "walk|a|b|l|e")
    expect(page.locator(".pn-loading-msg")).to_contain_text("The tour opens with the full page")
    page.locator(".tour-open button").first.click()  # a control of the full page: it says so
    expect(page.locator(".pn-loading-msg")).to_contain_text("The full page is starting")


OCTLM_EOS = "?preset=octlm&text=x%20%3C%7Ceos%7C%3E"  # x <|eos|>


def test_before_panel_special_tokens_in_text_follow_the_toggle(held_at):
    """octlm's `<|eos|>` typed in the encoder is plain text with a line saying so; the toggle makes it
    the special (id 258), answered by the first screen."""
    page = held_at(OCTLM_EOS)
    expect(page.locator(".bpe-specials-note").first).to_contain_text(
        "'<|eos|>' at character 2: it is encoded as plain text")
    page.locator(".specials-in-text input").first.click()
    expect(page.locator('.bpe-encoding-pane .bpe-special[data-id="258"]').first).to_be_visible()
    assert page.locator(".bpe-encoding-pane .bpe-specials-note").count() == 0
    assert page.evaluate("() => document.body.classList.contains('pn-loading')")  # Panel has not started


def test_the_full_page_keeps_the_special_tokens_toggle(browser, site_url):
    context, app = first_screen(browser, site_url + OCTLM_EOS, hold="app")
    page = app.page
    try:
        page.locator(".specials-in-text input").first.click()
        expect(page.locator('.bpe-encoding-pane .bpe-special[data-id="258"]').first).to_be_visible()
        page.evaluate("() => window.bpeReleaseApp()")
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        expect(page.locator(".specials-in-text input").first).to_be_checked()
        expect(page.locator('.bpe-encoding-pane .bpe-special[data-id="258"]').first).to_be_visible()
        page.locator(".specials-in-text input").first.click()  # the full page answers it now
        expect(page.locator(".bpe-specials-note").first).to_be_visible()
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


#: Two messages: the rows the page opens with, so that the first screen has every widget it needs.
FIRST_CHAT = [{"role": "system", "content": "Be terse. 😀"}, {"role": "user", "content": "How many tokens?\nSay it."}]


def write_two_messages(page) -> None:
    from bpe import real

    page.locator(".chat-tokenizer select").first.select_option(label=real.LABELS["o200k_base"])
    for k, message in enumerate(FIRST_CHAT):
        page.locator(".chat-role select").nth(k).select_option(message["role"])
        box = page.locator(".chat-content textarea").nth(k)
        box.fill("")
        box.press_sequentially(message["content"], delay=5)


def test_before_panel_the_chat_box_counts_as_bpe_chat_does(held_at, tmp_path):
    """The tokenizer, each message's role and text, and moving a message: answered by the first
    screen with the chat pane's own renderer; adding a message waits for the full page."""
    from test_chat_page import bpe_chat, page_chat

    page = held_at("")
    write_two_messages(page)
    expected = bpe_chat("o200k_base", FIRST_CHAT, tmp_path)
    expect(page.locator(".bpe-chat-count").first).to_have_text(f"{expected['count']:,} tokens", timeout=30_000)
    assert page_chat(page) == (expected["count"], expected["ids"])
    page.locator(".chat-up button").nth(1).click()  # the user's message first now
    moved = bpe_chat("o200k_base", FIRST_CHAT[::-1], tmp_path)
    expect(page.locator(".bpe-chat-count").first).to_have_text(f"{moved['count']:,} tokens", timeout=30_000)
    assert page_chat(page) == (moved["count"], moved["ids"])
    expect(page.locator(".chat-content textarea").first).to_have_value(FIRST_CHAT[1]["content"])
    page.locator(".chat-add button").first.click()
    expect(page.locator(".pn-loading-msg")).to_contain_text("The full page is starting")
    assert page.evaluate("() => document.body.classList.contains('pn-loading')")  # Panel has not started


def test_the_full_page_keeps_the_conversation_written_before_it(browser, site_url, tmp_path):
    from test_chat_page import bpe_chat, page_chat

    context, app = first_screen(browser, site_url, hold="app")
    page = app.page
    try:
        write_two_messages(page)
        page.locator(".chat-add button").first.click()  # kept, and done by the full page
        page.evaluate("() => window.bpeReleaseApp()")
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        expect(page.locator(".chat-message")).to_have_count(3, timeout=30_000)
        expected = bpe_chat("o200k_base", [*FIRST_CHAT, {"role": "assistant", "content": ""}], tmp_path)
        expect(page.locator(".bpe-chat-count").first).to_have_text(f"{expected['count']:,} tokens", timeout=30_000)
        assert page_chat(page) == (expected["count"], expected["ids"])
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


#: Every animation frame, whether the encoder's chips and the caption were on the page (or on its
#: still page, in its closed shadow root, while that shows), and its height.
FRAMES = """() => {
  window.bpeFrames = [];
  const count = (selector) => {
    const still = window.bpeFirstScreen.still.root();
    return [document, ...(still ? [still] : [])].flatMap((root) => window.bpeDeepAll(selector, root)).length;
  };
  const look = () => {
    const chips = count('.bpe-encoded .bpe-chip');
    const caption = count('.bpe-caption');
    window.bpeFrames.push([chips, caption, document.documentElement.scrollHeight]);
    if (document.body.classList.contains('pn-loading') || window.bpeFrames.length < 5) requestAnimationFrame(look);
    else setTimeout(() => requestAnimationFrame(() => window.bpeFrames.push(['done'])), 500);
  };
  requestAnimationFrame(look);
}"""


def test_the_hand_over_shows_the_page_in_every_frame(browser, site_url):
    """Nothing visibly redraws: while Bokeh's drawing replaces the still page and Panel's document
    replaces the first screen's, every frame the browser paints has the chips and the caption, and
    the page never collapses to nothing."""
    context, app = first_screen(browser, site_url, hold=False)
    page = app.page
    try:
        page.evaluate(FRAMES)
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        page.wait_for_function("() => window.bpeFrames.some((frame) => frame[0] === 'done')", timeout=10_000)
        frames = page.evaluate("() => window.bpeFrames.filter((frame) => frame[0] !== 'done')")
        empty = [frame for frame in frames if not (frame[0] and frame[1])]
        assert not empty, f"{len(empty)} of {len(frames)} frames without the page: {empty[:5]}"
        tallest = max(height for *_, height in frames)
        assert min(height for *_, height in frames) > tallest / 2, frames
    finally:
        context.close()


ADOPTED = "[bpe] the prerendered document became the app's, in place"
#: The elements the page drew first: the encoder (its view and its text box), the slider, the corpus pane.
DRAWN_FIRST = """() => {
  const [encoder] = window.bpeDeepAll('.encode-input');
  return [encoder, encoder && encoder.shadowRoot && encoder.shadowRoot.querySelector('input'),
          window.bpeDeepAll('.round-slider')[0], window.bpeDeepAll('.bpe-corpus-pane')[0]];
}"""
MARK_VIEWS = f"() => ({DRAWN_FIRST})().map((element) => {{ element.bpeDrawnFirst = true; return true; }})"
#: Each text box's shown text beside its model's value (its typed text if it has one).
TEXT_BOXES = """() => [...window.Bokeh.documents[0].all_models]
  .filter((model) => 'value_input' in model.properties && typeof model.value === 'string' && (model.css_classes || []).length)
  .map((model) => {
    const host = window.bpeDeepAll('.' + model.css_classes.join('.'))[0];
    const box = host && host.shadowRoot && host.shadowRoot.querySelector('input, textarea');
    return box ? [box.value, model.value_input || model.value] : null;
  })
  .filter((pair) => pair !== null)"""
#: Which of them are no longer the ones drawn first.
STILL_MARKED = f"() => ({DRAWN_FIRST})().map((element, index) => element && element.bpeDrawnFirst ? -1 : index).filter((i) => i >= 0)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_full_page_takes_over_the_drawn_page_in_place(browser, site_url, scheme):
    """The app's document is set on the prerendered one (adopt.js): the elements the visitor sees
    before the hand-over are the app's after it, none drawn again, and the app answers on them."""
    context, app = opened(browser, site_url, scheme=scheme)
    page = app.page
    try:
        page.wait_for_function(BOKEH_DRAWN, timeout=INTERACTIVE_TIMEOUT_MS)
        page.evaluate(MARK_VIEWS)
        box = page.locator(".encode-input input").first
        box.fill("abab")
        wait_chips(page, "a|b|a|b")
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        assert any(line.endswith(ADOPTED) for line in app.console), app.console[-10:]
        assert page.evaluate(STILL_MARKED) == []
        # Every text box shows what its model holds (the corpus box its preset's text, not nothing).
        shown = page.evaluate(TEXT_BOXES)
        assert shown and all(box == held for box, held in shown), [pair for pair in shown if pair[0] != pair[1]]
        assert any(box.startswith("walk\nwalk") for box, _ in shown)
        assert page.evaluate("() => window.bpeDeepAll('.bpe-caption').length") == 1  # one page, not two
        box.press("End")
        box.press_sequentially("a", delay=20)  # answered by the full app, on the same elements
        wait_chips(page, "a|b|a|b|a")
        page.locator(".next-round button").first.click()
        expect(caption(page)).to_contain_text("Round 1 of 10")
        assert page.evaluate(STILL_MARKED) == []
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


#: The page's own models (the address, the browser's settings): what they hold on the page.
BROWSER_MODELS = """() => Object.fromEntries([...window.Bokeh.documents[0].all_models]
  .filter((model) => model.type.endsWith('.Location') || model.type.endsWith('.BrowserInfo'))
  .map((model) => [model.type.split('.').pop(), model.type.endsWith('.Location') ? model.search : model.dark_mode]))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_taking_over_in_place_keeps_what_the_browser_told_the_page(browser, site_url, scheme):
    """The address and the browser's settings are the page's, not the app's JSON (where Python holds
    their defaults until the page reports them): a share link's address and the dark mode stay."""
    query = "?preset=course&round=2&text=aab"
    context, app = opened(browser, site_url + query, scheme=scheme)
    page = app.page
    try:
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        assert any(line.endswith(ADOPTED) for line in app.console), app.console[-10:]
        assert page.evaluate(BROWSER_MODELS) == {"Location": query, "BrowserInfo": scheme == "dark"}
        assert "preset=course" in page.url and "round=2" in page.url
        expect(caption(page)).to_contain_text("Round 2 of 2")
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


def test_what_the_visitor_does_while_the_full_page_is_set_on_the_page_is_kept(browser, site_url):
    """Between the worker's "render" (the app's state has taken over) and the page taking Panel's
    document, the visitor goes on typing and clicking: the text typed then stays in the box and
    reaches the app, and a click on "next" moves the app's round. The page is held in that window
    (`bpeHoldAdopt`) for the test."""
    context, app = opened(browser, site_url, "window.bpeHoldAdopt = true")
    page = app.page
    try:
        page.wait_for_function(BOKEH_DRAWN, timeout=INTERACTIVE_TIMEOUT_MS)
        page.wait_for_function("() => window.bpeFirstScreen.rendered && window.bpeReleaseAdopt",
                               timeout=INTERACTIVE_TIMEOUT_MS)
        box = page.locator(".encode-input input").first
        box.fill("ab")
        box.press("End")
        box.press_sequentially("ab", delay=20)
        page.locator(".next-round button").first.click()
        page.evaluate("() => window.bpeReleaseAdopt()")
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        assert any(line.endswith(ADOPTED) for line in app.console), app.console[-10:]
        expect(box).to_have_value("abab")
        expect(caption(page)).to_contain_text("Round 1 of 10")
        wait_chips(page, "a|b|a|b")
        box.press("End")
        box.press_sequentially("a", delay=20)  # the app holds "abab": one more key is "ababa"
        wait_chips(page, "a|b|a|b|a")
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


#: The page refuses to take the app's document in place, as it does when the two differ (adopt.js).
NEVER_ADOPT = """Object.defineProperty(window, 'bpeAdopt', { configurable: true, set() {},
  get: () => (doc, json) => { console.log("[bpe] the app's document is drawn anew: (the test)"); return false; } });"""


#: The caption's first words in every frame the browser paints, from now on.
CAPTIONS = """() => {
  window.bpeCaptions = [];
  const tick = () => {
    const caption = window.bpeDeepAll('.bpe-caption')[0];
    window.bpeCaptions.push(caption ? caption.textContent.slice(0, 13) : null);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


@pytest.mark.parametrize("adopted", [True, False], ids=["in place", "drawn anew"])
def test_the_app_s_document_shows_what_the_visitor_did_from_its_first_frame(browser, site_url, adopted):
    """The app's document comes as its JSON as written (before the hand-over) and a patch of what
    changed since: set on the drawn document in place, or drawn anew when it cannot be (adopt.js),
    no frame shows the app as written (round 0) between the first screen's round and the app's."""
    context, app = opened(browser, site_url, "window.bpeHoldApp = true", *([] if adopted else [NEVER_ADOPT]))
    page = app.page
    try:
        page.wait_for_function(FIRST, timeout=INTERACTIVE_TIMEOUT_MS)
        box = page.locator(".encode-input input").first
        box.fill("abab")
        wait_chips(page, "a|b|a|b")
        page.locator(".next-round button").first.click()
        expect(caption(page)).to_contain_text("Round 1 of 10")
        page.evaluate(CAPTIONS)
        page.evaluate("() => window.bpeReleaseApp()")
        page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        page.wait_for_timeout(1000)  # the worker's patches once linked
        assert any(line.endswith(ADOPTED) for line in app.console) == adopted
        if not adopted:
            assert "log: [bpe] the app's document is drawn anew: (the test)" in app.console
        captions = page.evaluate("() => window.bpeCaptions")
        assert captions and set(captions) == {"Round 1 of 10"}, sorted(set(map(str, captions)))
        expect(box).to_have_value("abab")
        wait_chips(page, "a|b|a|b")
        assert page.evaluate("() => window.bpeDeepAll('.bpe-caption').length") == 1  # one page, not two
        page.locator(".next-round button").first.click()  # the app answers
        expect(caption(page)).to_contain_text("Round 2 of 10")
        assert app.errors == [], "\n".join(app.errors)
    finally:
        context.close()


def test_documents_that_differ_are_not_adopted_and_the_page_is_left_as_it_was(held):
    """adopt.js refuses an app document whose models are not the prerendered one's (other roots, a
    model of another type): it says so, changes nothing, and the page draws the app's anew."""
    page = held.page
    before = page.evaluate("() => window.bpeDeepAll('.bpe-caption')[0].textContent")
    refused = page.evaluate("""() => {
      const doc = window.Bokeh.documents[0];
      const json = doc.to_json(false);
      const otherRoots = { d: { ...json, roots: json.roots.slice(1) } };
      const otherType = JSON.parse(JSON.stringify({ d: json }));
      otherType.d.roots[0].name = 'bokeh.models.widgets.inputs.TextInput';
      const said = [];
      const log = console.log;
      console.log = (line) => said.push(line);
      try {
        return [window.bpeAdopt(doc, otherRoots), window.bpeAdopt(doc, otherType), window.bpeAdopt(null, otherRoots), said];
      } finally {
        console.log = log;
      }
    }""")
    assert refused[:3] == [False, False, False]
    assert refused[3] and all(line.startswith("[bpe] the app's document is drawn anew: ") for line in refused[3])
    assert page.evaluate("() => window.bpeDeepAll('.bpe-caption')[0].textContent") == before


def test_a_second_visit_opens_as_everyone_does_after_a_first_visit_that_used_the_first_screen(browser, site_url):
    """The first visit opened a link and typed on the first screen; the snapshot it kept holds that
    state, and the next visit, at the bare address, still opens at the default view (and a link on
    top of it still opens its own)."""
    context = browser.new_context()
    context.add_init_script(DEEP_HELPERS)
    try:
        first = recording(context.new_page(), site_url + "?preset=course&round=2&text=aaa")
        kept = []
        first.page.on("console", lambda message: kept.append(message.text))
        first.page.goto(first.url)
        first.page.wait_for_function(FIRST, timeout=INTERACTIVE_TIMEOUT_MS)
        box = first.page.locator(".encode-input input").first
        box.fill("abab")
        wait_chips(first.page, "ab|ab")
        first.page.wait_for_function(FULL, timeout=INTERACTIVE_TIMEOUT_MS)
        deadline = 120
        while not any(line.startswith("[bpe] kept a snapshot") for line in kept) and deadline:
            first.page.wait_for_timeout(500)
            deadline -= 0.5
        assert any(line.startswith("[bpe] kept a snapshot") for line in kept), kept[-10:]
        first.page.close()

        second = recording(context.new_page(), site_url)
        said = []
        second.page.on("console", lambda message: said.append(message.text))
        second.open()
        page = second.page
        assert any(line.startswith("[bpe] Python and the app started from the snapshot") for line in said)
        assert ADOPTED in said  # a second visit too takes the drawn page over in place
        expect(caption(page)).to_contain_text("Round 0 of 10")
        expect(page.locator(".preset-select select").first).to_have_value("explainer")
        expect(page.locator(".encode-input input").first).to_have_value("walkable")
        assert second.errors == [], "\n".join(second.errors)
    finally:
        context.close()
