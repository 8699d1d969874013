// The still page (site/bpe_build/still.py): the prerendered document as Bokeh draws it, recorded at
// build time as HTML, shown from the moment the worker's files come until Bokeh has drawn that
// document (first_screen.js). Its text boxes, menus and buttons are the browser's own; what the
// visitor does there goes to the worker as the same events, and each answer (each pane's HTML, as
// Python renders it, and the widgets' values) is set on it. When Bokeh has drawn, it takes the
// still page's place, with the focus, the caret and what was typed.
//
// It lives in a closed shadow root: the page's own scripts (Bokeh's, Panel's, the app's) look for
// their elements from the document through open shadow roots, and never find its copies of them.
// (The benchmark and the tests reach it through `window.bpeFirstScreen.still.root()`.)
"use strict";
window.bpeStillPage = (screen) => {
  const { deepAll, where } = window.bpePlaces;  // places.js
  const element = () => document.getElementById("bpe-still");
  let root = null, gone = false, index = null;
  const page = () => (gone ? null : element());
  let set = {};  // pane -> the HTML it shows (from the start, Python's: still_capture.js)

  // Drawn: its data inflated, the style sheets put back in, and parsed into a closed shadow root.
  async function draw() {
    const packed = Uint8Array.from(atob(document.getElementById("bpe-still-data").textContent), (c) => c.charCodeAt(0));
    const data = JSON.parse(await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).text());
    const style = (text, attributes = "") => `<style${attributes}>${text}</style>`;
    const html = data.html.replace(/<style([^>]*) data-still="(\d+)"><\/style>/g, (_, attributes, k) => style(data.styles[k], attributes));
    const shadow = element().attachShadow({ mode: "closed" });
    // Bokeh's styles for the document (its <head>) apply in here too: the roots' elements were the document's.
    shadow.setHTMLUnsafe(data.head.map((text) => style(text)).join("") + html);
    root = shadow;
    set = { ...data.panes };  // an answer draws again only the panes it changes (a key: the encoder's)
    listen(shadow);
    document.body.classList.add("bpe-still");
  }

  // Its panes and widgets by class: each is a host whose own elements are in its shadow root (found
  // once: an answer changes what is inside the panes, not which they are).
  function hosts(name) {
    if (!root || gone) return [];
    if (!index) {
      index = {};
      for (const host of deepAll("*", root)) {
        if (host.shadowRoot) for (const kind of host.classList) (index[kind] ||= []).push(host);
      }
    }
    return index[name] || [];
  }
  const field = (host) => host.shadowRoot.querySelector("input, select, textarea");

  // An answer: the panes' HTML (Python's, as the worker sent it), the widgets' values and the round.
  function show(view) {
    for (const [name, html] of Object.entries(view.panes)) {
      const host = hosts(name)[0];
      const box = host && [...host.shadowRoot.children].find((node) => node.tagName === "DIV");
      if (box && set[name] !== html) box.innerHTML = set[name] = html;
    }
    for (const [name, value] of Object.entries(view.widgets)) {
      const box = hosts(name).map(field)[0];
      if (!box) continue;
      if (box.type === "checkbox") box.checked = value;
      else if (box.value !== String(value)) box.value = value;  // one that holds it keeps its caret
    }
    const slider = hosts("round-slider")[0];
    if (slider) {
      const parts = slider.shadowRoot, share = view.rounds ? (100 * view.round) / view.rounds : 0;
      parts.querySelector(".bk-slider-value").textContent = String(view.round);
      parts.querySelector(".noUi-origin").style.transform = `translate(${share - 100}%, 0px)`;
      parts.querySelector(".noUi-connect").style.transform = `translate(0%, 0px) scale(${share / 100}, 1)`;
    }
  }

  // What the visitor does on it, sent as the same changes of Bokeh's document are (first_screen.js,
  // `changed`). Listened to inside the closed root, where events show their whole path.
  const FIELDS = ["encode-input", "preset-select", "specials-in-text", "chat-tokenizer", "chat-role", "chat-content"];
  function typed(event) {
    if (screen.over()) return;
    const box = event.composedPath()[0];
    const classes = box.getRootNode().host ? [...box.getRootNode().host.classList] : [];
    const kind = FIELDS.find((name) => classes.includes(name));
    const value = box.value;
    if (kind === "encode-input") screen.send({ text: value });
    else if (kind === "preset-select") screen.send({ preset: value });
    else if (kind === "specials-in-text") screen.send({ specials: box.checked });
    else if (kind === "chat-tokenizer") screen.send({ chat_with: value });
    else if (kind === "chat-role") screen.send({ message: [screen.row(classes, "chat-role"), "role", value] });
    else if (kind === "chat-content") screen.send({ message: [screen.row(classes, "chat-content"), "content", value] });
  }
  // ← and → off the text boxes, as the app's ArrowKeys (bpe_app/scrubber.py) take them; OWN_KEYS
  // are token_clicks.OWN_KEYS, the parts with keys of their own (a test holds the two the same).
  const OWN_KEYS = ["bpe-chip", "bpe-vrow", "bpe-stepper", "bpe-tour"];
  function arrow(event) {
    if (screen.over() || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const path = event.composedPath(), target = path[0];
    if (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)
        || (target.getAttribute && target.getAttribute("role") === "slider")) return;
    if (OWN_KEYS.some((name) => screen.within(path, name))) return;
    event.preventDefault();
    screen.send({ step: event.key === "ArrowRight" ? 1 : -1 });
  }
  function listen(shadow) {
    shadow.addEventListener("input", typed, true);  // "input" fires on every control here ("change" is not composed)
    shadow.addEventListener("keydown", arrow);
    for (const type of ["pointerdown", "mousedown", "click"]) shadow.addEventListener(type, (event) => screen.clicked(event, place), true);
    shadow.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") screen.clicked(event, place);
    }, true);
  }
  // The page's own keys, with nothing focused (on the still page, its root hears them).
  document.addEventListener("keydown", (event) => {
    if (root && !gone && event.composedPath()[0] === document.body) arrow(event);
  });

  // Where an element of it is, as Bokeh's document will have it (places.js, counted inside it).
  const place = (node) => where(node, root);
  // What has focus in it, with its text and caret, or null.
  function focused() {
    if (!root || gone || document.activeElement !== element()) return null;
    let active = root.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return active ? { at: place(active), value: active.value, start: active.selectionStart, end: active.selectionEnd } : null;
  }
  // Bokeh's document takes its place: what had focus, with what was typed there, goes over to the
  // same element of Bokeh's document, and the scroll stays.
  function leave() {
    if (!page()) return;
    const kept = focused();
    const scroll = [window.scrollX, window.scrollY];
    gone = true;
    element().remove();
    document.body.classList.remove("bpe-still");
    window.scrollTo(...scroll);
    if (kept) screen.refocus(kept);
    console.log(`[bpe-timing] page:still-left ${Math.round(performance.now())} ms`);
  }

  // Drawn once the worker says its files come (`filesCome`: drawing takes the page's thread for
  // about 0.2 s, and both workers need that thread to start), or after WAIT ms.
  const WAIT = 1500;
  let parsed = false, coming = false, started = false;
  async function start() {
    if (started || !parsed) return;
    started = true;
    try {
      await draw();
    } catch (error) {  // the page goes on without it: Bokeh draws the document once the first answer is here
      console.error(`[bpe] the still page could not be drawn: ${error.message}`);
      leave();
      screen.failed();
      return;
    }
    screen.drawn();
    console.log(`[bpe-timing] page:still-shown ${Math.round(performance.now())} ms`);
  }
  return {
    page, show, leave, focused, root: () => (gone ? null : root),
    parsed() {  // the page's inline script, right after the still page's data
      parsed = true;
      if (coming) start();
      else setTimeout(start, WAIT);
    },
    filesCome() {
      coming = true;
      start();
    },
  };
};
