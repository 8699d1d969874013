// The hand-over: Panel's document takes the page over from the prerendered one (first_screen.js).
//
// The worker's "render" comes once the app's state has taken over; until Panel's document is set
// on the page, what the visitor does still goes to the worker as events, which it does to the app's
// state once the page is linked. At that moment (`closing`), what has focus, with its text and
// caret, and the scroll are kept; once the new document is linked, they come back, and the clicks
// the first screen kept are done (`linked`). The app's document is set on the prerendered one in
// place (adopt.js, `adopt`), or else drawn beside it, and the two change places in one step
// (`container`, `swap`). `still()` is the still page (still_page.js), `drawn()` the prerendered
// document once Bokeh has drawn it.
"use strict";
window.bpeHandOver = (state, { still, drawn }) => {
  const { where, find } = window.bpePlaces;  // places.js

  // What has focus (on the still page or Bokeh's document), with its text and caret, or null.
  function focused() {
    const onStill = still().focused();
    if (onStill) return onStill;
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return active && active !== document.body ? {
      at: where(active), value: active.value, start: active.selectionStart, end: active.selectionEnd,
    } : null;
  }
  // The worker's "render": the app's state has taken over (a test can hold the page here:
  // `window.bpeHoldAdopt`, until it calls `bpeReleaseAdopt()`). `patch` is what changed in the app's
  // document since its JSON was written (bpe_app/page_patch.py), or null.
  function rendered(patch) {
    state.rendered = true;
    state.patch = patch ? JSON.parse(patch) : null;
  }
  // Panel's document is set on the page now: from here on nothing goes to the first screen, and the
  // focus, its text (with what was typed since "render") and the scroll are kept.
  function closing() {
    state.over = true;
    state.scroll = [window.scrollX, window.scrollY];
    state.focus = focused();
  }
  // `then(element)` once the element at `steps` is drawn: Panel's views draw some of their parts
  // after the document is linked.
  function whenDrawn(place, then, tries = 100) {
    const element = find(place);
    if (element) then(element);
    else if (place && tries > 0) setTimeout(() => whenDrawn(place, then, tries - 1), 50);
  }
  // The focus, the caret and the text kept at `closing`, on the same element of the new document.
  function refocus(kept) {
    whenDrawn(kept.at, (element) => {
      if (typeof kept.value === "string" && element.value !== kept.value) {
        element.value = kept.value;  // typed while the new document was drawn: it reaches Python as typing does
        element.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      }
      element.focus({ preventScroll: true });
      if (typeof kept.start === "number" && element.setSelectionRange) element.setSelectionRange(kept.start, kept.end);
    });
  }
  // Once it is linked (convert.py calls this): the focus, the caret, the scroll and the kept clicks.
  // A document set in place never moved the page, and the scroll set again would undo one made
  // since by the app's own code (a tour's step brings its pane into view as soon as it is drawn).
  state.linked = () => {
    if (!state.inPlace) window.scrollTo(...state.scroll);
    if (state.focus) refocus(state.focus);
    for (const place of state.queued.splice(0)) whenDrawn(place, (control) => { control.focus(); control.click(); });
  };

  // The app's document, set on the prerendered one in place (adopt.js): what Panel's page takes for
  // the views it drew, or null if it must draw them.
  // A snapshot's Python can be up before Bokeh has drawn the prerendered document: finishing that
  // drawing is sooner than drawing the app's anew (unless it takes longer than DRAWN_WAIT ms).
  const DRAWN_WAIT = 3000;
  state.adopt = async (json) => {
    const doc = await Promise.race([drawn(), new Promise((resolve) => setTimeout(() => resolve(null), DRAWN_WAIT))]);
    if (window.bpeHoldAdopt) await new Promise((resolve) => { window.bpeReleaseAdopt = resolve; });
    console.log(`[bpe-timing] page:adopting ${Math.round(performance.now())} ms`);
    closing();
    if (!window.bpeAdopt(doc, json, state.touched, state.patch)) {
      state.over = false;  // the old document takes events until the new one is drawn (`swap`)
      return null;
    }
    state.inPlace = true;
    console.log(`[bpe-timing] page:adopted ${Math.round(performance.now())} ms`);
    return { roots: new Map(doc.roots().map((model) => [model.id, { model }])) };
  };

  // Otherwise Panel's page draws its document into new containers, hidden beside the prerendered ones
  // (convert.py patches it to), and the two change places in one step once it is drawn: no frame
  // is painted without a page, and the page keeps its height (and so its scroll). The new one is
  // drawn from the app's JSON as written: the changes since (`state.patch`) are set on it first.
  state.containers = [];
  state.container = (old) => {
    const next = old.cloneNode(false);  // its attributes, no content
    next.id = `${old.id}-live`;
    next.style.cssText = "display: block; position: absolute; left: 0; top: 0; width: 100%; visibility: hidden;";
    old.after(next);
    state.containers.push([old, next]);
    return next;
  };
  state.swap = (prerendered, drawnAnew) => {
    if (state.patch) [...drawnAnew.roots.values()][0].model.document.apply_json_patch(state.patch, new Map());
    closing();
    still().leave();
    for (const view of prerendered) view.remove();
    for (const [old, next] of state.containers.splice(0)) {
      old.remove();
      next.style.cssText = "display: contents;";
    }
  };
  return { rendered, refocus };
};
