// The page's side of the first screen (bpe_app/first_screen.py), run at the top of <head>.
//
// The prerendered page is a Bokeh document drawn in this thread. While Python starts Panel in the
// worker, the changes the visitor makes to that document (the encoder's text, the slider, the
// arrow keys' counters, the preset menu, the "special tokens in text" box, the chat box's tokenizer,
// roles and texts) and the clicks on previous, next and the examples go to
// the worker as events, and its answers are set on the document's own models: each pane's HTML,
// as the app's views render it, and the widgets' values. Nothing is rendered here.
//
// A control that needs the full page says so, and its click is done again once the page is there.
// When Panel's document replaces this one, the focus, the caret and the scroll come back.
//
// Before Bokeh has drawn the prerendered document, the page shows it still (still_page.js: the same
// document as HTML, answered the same way); Bokeh's scripts come after the first answer, and its
// document then takes the still page's place. The hand-over to Panel's document is hand_over.js.
"use strict";
(() => {
  const worker = window.bpeWorker;
  const state = { doc: null, live: false, over: false, setting: 0, queued: [], focus: null, step: "", message: "", seq: 0,
                  keys: {}, touched: new Set() };  // keys: the arrow keys' counters as last seen; touched: "id attr" set here
  window.bpeFirstScreen = state;
  worker.postMessage({ type: "first", address: window.location.search });
  // Each event is numbered: only the answer to the latest one is shown (an earlier one, say to a
  // key typed since, would put the text box back).
  const send = (event) => {
    clearTimeout(state.quiet);  // Bokeh's scripts wait for the visitor's next pause (see `show`)
    worker.postMessage({ type: "first", event, seq: ++state.seq });
  };

  // CSS class -> the document's model that has it (a pane or a widget).
  const byClass = () => {
    const models = {};
    for (const model of state.doc.all_models) {
      for (const name of model.css_classes || []) models[name] = model;
    }
    return models;
  };
  const has = (node, name) => node && node.classList && node.classList.contains(name);
  // A chat box row's index, from the class that names it (chat-role-2 is message 3's role).
  const row = (classes, kind) => Number((classes.find((name) => /-\d+$/.test(name) && name.startsWith(kind)) || "-1")
    .slice(kind.length + 1));
  const within = (path, name) => path.some((node) => has(node, name));

  // An answer: the panes' HTML (a Panel HTML model holds its text escaped), the round and the widgets.
  const escape = (html) => html.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  function show(view, ready, seq) {
    if (state.over) return;
    if (ready) {
      state.live = true;
      document.body.classList.add("bpe-first");
      fetchMay();  // Bokeh's scripts come meanwhile: they run after the pause (see `bokehMay`)
    }
    if (state.live) {
      // Once every change sent is answered and the visitor has paused for QUIET ms: Bokeh's scripts
      // hold the page's thread for up to half a second at a time.
      clearTimeout(state.quiet);
      const run = () => requestAnimationFrame(() => setTimeout(bokehMay, 0));  // after that answer is painted
      if ((seq || 0) >= state.seq) state.quiet = setTimeout(run, QUIET);
    }
    if (!state.doc) {  // before Bokeh has drawn the page: on the still page, and on Bokeh's once it has drawn
      state.early = { view, seq, ready: ready || Boolean(state.early && state.early.ready) };
      if (!(seq < state.seq) && still.page()) {
        still.show(view);
        shown();
      }
      return;
    }
    if (seq < state.seq) return;
    shown();
    const models = byClass();
    state.setting += 1;
    try {
      for (const [name, html] of Object.entries(view.panes)) {
        const model = models[name];
        if (model && model.text !== escape(html)) model.text = escape(html);
      }
      const slider = models["round-slider"];
      if (slider) slider.setv({ end: Math.max(view.rounds, 1), value: view.round, disabled: view.rounds === 0 });
      for (const [name, value] of Object.entries(view.widgets)) {
        const model = models[name];
        // A text box that already holds the value is left alone: its caret stays where the visitor is typing.
        if (!model || "value_input" in model.properties && model.value_input === value) continue;
        if ("value_input" in model.properties) model.setv({ value, value_input: value });
        else if ("active" in model.properties && typeof value === "boolean") {  // a checkbox
          if (model.active !== value) model.active = value;
        } else if (model.value !== value) model.value = value;
      }
    } finally {
      state.setting -= 1;
    }
    if (view.message) say(view.message);
  }
  function shown() {
    // For the benchmark (benchmarks/site_load.py), as the worker's marks: when the first answer was set.
    if (!state.shown) console.log(`[bpe-timing] page:first-shown ${Math.round(performance.now())} ms`);
    state.shown = true;
  }

  // The status card at the bottom says what the full page is doing, and what waits for it.
  function say(text) {
    state.message = text;
    let card = document.querySelector(".pn-loading-msg");
    if (!card && document.body.classList.contains("pn-loading")) {
      card = document.createElement("div");
      card.classList.add("pn-loading-msg");
      document.body.appendChild(card);
    }
    if (card) card.textContent = text;
  }
  const waits = () => say(`The full page is starting${state.step}; this opens then.`);

  // The document's changes that the first screen answers; the rest wait for the full page.
  function changed(event) {
    if (state.setting && event.kind === "ModelChanged") state.touched.add(`${event.model.id} ${event.attr}`);
    if (state.setting || state.over || event.kind !== "ModelChanged") return;
    const { model, attr, value } = event;
    const classes = model.css_classes || [];
    if (classes.includes("encode-input") && attr === "value_input") send({ text: value });
    else if (classes.includes("round-slider") && attr === "value") send({ round: value });
    else if (classes.includes("preset-select") && attr === "value") send({ preset: value });
    else if (classes.includes("specials-in-text") && attr === "active") send({ specials: value });
    else if (classes.includes("chat-tokenizer") && attr === "value") send({ chat_with: value });
    else if (classes.includes("chat-role") && attr === "value") send({ message: [row(classes, "chat-role"), "role", value] });
    else if (classes.includes("chat-content") && attr === "value_input") {
      send({ message: [row(classes, "chat-content"), "content", value] });
    }
    else if (["left", "right", "home", "end"].includes(attr) && "home" in model.properties) {
      const old = state.keys[attr] || 0;
      state.keys[attr] = value;
      const step = { left: -(value - old), right: value - old, home: -1e9, end: 1e9 }[attr];
      send({ step });
    } else if (attr === "event" && Array.isArray(value) && value[1] === "inspect") {
      send({ inspect: [value[3] || "", Number(value[2])] });
      waits();
    }
  }

  // Clicks: previous, next, the examples and moving a chat message are answered; another control's
  // click (adding or removing a message among them) is kept.
  const CONTROLS = "button, select, input, textarea, a[href], [role=button], [role=slider], label";
  function clicked(event, placeOf = where) {
    if (state.over || !state.live) return;
    const path = event.composedPath();
    const button = path.find((node) => node.tagName === "BUTTON");
    const click = event.type === "click";  // a key on a button clicks it too
    if (within(path, "prev-round") || within(path, "next-round")) {
      if (button && click) send({ step: within(path, "prev-round") ? -1 : 1 });
      return;
    }
    const moved = path.find((node) => has(node, "chat-up") || has(node, "chat-down"));
    if (moved) {
      const kind = has(moved, "chat-up") ? "chat-up" : "chat-down";
      if (button && click) send({ move: [row([...moved.classList], kind), kind === "chat-up" ? -1 : 1] });
      return;
    }
    if (within(path, "bpe-example")) {
      if (button && click) send({ example: button.textContent.trim() });
      return;
    }
    if (["encode-input", "specials-in-text", "chat-tokenizer", "chat-role", "chat-content", "bpe-chat-pane",
         "round-slider", "preset-select", "bpe-corpus-pane", "bpe-encoding-pane",
         "bpe-encoding-b-pane", "bpe-candidates-pane", "bpe-caption-pane"].some((name) => within(path, name))) return;
    const control = path.find((node) => node.matches && node.matches(CONTROLS));
    if (!control) return;
    event.preventDefault();
    event.stopPropagation();
    const place = placeOf(control);
    if (click && place && !state.queued.some((kept) => JSON.stringify(kept) === JSON.stringify(place))) {
      state.queued.push(place);
    }
    waits();
  }
  for (const type of ["pointerdown", "mousedown", "click"]) document.addEventListener(type, clicked, true);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") clicked(event);
  }, true);

  const { where, deepAll } = window.bpePlaces;  // places.js

  // The hand-over to Panel's document (hand_over.js), and the still page (still_page.js) until Bokeh
  // has drawn the prerendered document.
  const handOver = window.bpeHandOver(state, { still: () => still, drawn: () => drawn });
  const still = window.bpeStillPage({
    send, row, within, clicked, refocus: handOver.refocus, over: () => state.over,
    drawn: () => { if (state.early && !(state.early.seq < state.seq)) still.show(state.early.view); },  // an answer before
    failed: () => bokehMay(),
  });
  state.still = still;

  // Bokeh's scripts are fetched (unless kept) once the first answer is here, and run once the
  // visitor has paused after it; or both once the page is parsed with no still page, or after
  // HOLD_BOKEH ms (no answer: Panel's page says why). Fetched and inflated before the first answer,
  // they slowed Python's start on 2 cores; fetched only at the pause, they ran 0.4 s later than
  // they could (docs/benchmarks.md, "Issue 40, one document write").
  // A test holds their run with `window.bpeHoldBokeh` (set first) until it calls `bpeReleaseBokeh()`.
  const HOLD_BOKEH = 15000, QUIET = 400;
  let bokehMay, fetchMay;
  state.fetchMay = new Promise((resolve) => { fetchMay = resolve; });
  state.bokehMay = new Promise((resolve) => {
    if (window.bpeHoldBokeh) window.bpeReleaseBokeh = () => { fetchMay(); resolve(); };  // the test alone lets go
    bokehMay = () => { fetchMay(); if (!window.bpeHoldBokeh) resolve(); };
  });
  document.addEventListener("DOMContentLoaded", () => { if (!still.page()) bokehMay(); });
  setTimeout(bokehMay, HOLD_BOKEH);

  // Before Panel's own handler of the worker's messages (this listener is added first).
  worker.addEventListener("message", ({ data }) => {
    if (data.type === "first-view") show(data.view, data.ready, data.seq);
    else if (data.type === "files-coming") still.filesCome();
    else if (data.type === "status" && !state.live) say(data.msg);  // Panel's page says it once Bokeh runs
    else if (data.type === "first-step") {
      state.step = ` (step ${data.done} of ${data.of})`;
      if (state.message.startsWith("The full page is starting")) waits();
    } else if (data.type === "from-snapshot") {  // (the restored app's first screen answers as a new one does)
      console.log(`[bpe-timing] page:from-snapshot ${Math.round(performance.now())} ms`);
    }
    else if (data.type === "render") {
      handOver.rendered(data.patch);
      bokehMay();
    }
  });

  // The prerendered document, once Bokeh has drawn it.
  let found;
  const drawn = new Promise((resolve) => { found = resolve; });
  // With a still page, "drawn" is when its views are and every pane of ours shows its HTML (Panel's
  // HTML views show it a frame after they have drawn it): the still page shows until then. The build
  // records the still page at that moment too (still.py).
  const viewsDrawn = () => {
    const views = window.Bokeh && window.Bokeh.index ? [...window.Bokeh.index.roots] : [];
    const panes = deepAll('.bk-panel-models-markup-HTML[class*="bpe-"][class$="-pane"]');
    return views.length > 0 && views.every((view) => view.has_finished()) && panes.length > 0
      && panes.every((pane) => [...pane.shadowRoot.children].every((node) => node.style.visibility !== "hidden"));
  };
  state.viewsDrawn = viewsDrawn;
  const watch = setInterval(() => {
    const doc = window.Bokeh && window.Bokeh.documents && window.Bokeh.documents[0];
    if (!doc || still.page() && !viewsDrawn()) return;
    clearInterval(watch);
    console.log(`[bpe-timing] page:first-doc ${Math.round(performance.now())} ms`);
    found(doc);
    if (!state.over) {
      state.doc = doc;
      doc.on_change(changed, false);
      if (state.early) show(state.early.view, state.early.ready, state.early.seq);
    }
    still.leave();
  }, 20);
})();
