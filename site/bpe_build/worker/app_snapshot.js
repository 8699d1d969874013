// The build's snapshot of the whole app: Python's memory once Panel is imported and the app built,
// made by the build in Chromium (app_snapshot.py), one per theme, and shipped like any file.
//
// A first visit answers from the build's start snapshot (snapshot.js), then needs Panel: importing
// it and building the app took 3 s of the worker's thread on 2 cores. Instead, once the first
// screen has answered, this snapshot comes, and Python starts again from it beside the first
// screen's, as a second visit's does from the one its browser kept: the visitor's events so far
// are done again on its own first screen, which the app's state then takes over (`hand_over`).
// - Not over a slow link: it is 14.6 MB as shipped. The file worker judges the link (as for the
//   start snapshot) and the app is built as before.
// - It is what the browser keeps for the next visit, as if this visit had made it.
// - Panel's address for its own files is in it: the build's Chromium served the page from a port
//   of its own, so the snapshot is made with a stand-in address (CDN_STAND_IN), which the worker
//   puts right in what it sends the page (`atThisAddress`).
// - If anything goes wrong, the first screen's Python goes on and imports Panel itself.
const MAKE_APP_SNAPSHOT = new URL(self.location.href).searchParams.has("make-app-snapshot");
const CDN_STAND_IN = "https://snapshot.bpe.invalid/";
const APP = (!MAKE_APP_SNAPSHOT && CONFIG.app_snapshots && CONFIG.app_snapshots[THEME || "light"]) || null;
let appAsked;  // told by the file worker (files.js): {asked} or {asked: false, why}
const APP_ASKED = new Promise((resolve) => { appAsked = resolve; });

// The app restored from the build's snapshot, its first screen where the visitor's is, its files
// written and its state handed over; null (said why) if the link is slow or it could not be used.
async function appFromSnapshot() {
  if (!APP) return null;
  fetcher.postMessage({ base: BASE, app: { entry: SHIPPED[APP.path] } });
  const { asked, why } = await APP_ASKED;
  if (!asked) console.log(`[bpe] Panel is imported here, without the build's snapshot of the app: ${why}`);
  // The rest of the files come after it, and are kept in the Cache API once the page is linked
  // (start_app.js): the file worker's thread inflates it first. numpy's libraries must be loaded
  // before its Python starts (without them it cannot restore), so they are waited for too.
  await (asked ? Promise.all([LOADS[APP.path], LOADS[CONFIG.libraries_bundle]]).catch(() => {}) : null);
  loadLater();
  if (!asked) {
    keepFiles();
    return null;
  }
  try {
    const heap = new Uint8Array(APP.size);
    fillHeap(heap, await LOADS[APP.path], APP.runs);
    LOADS[APP.path] = Promise.reject(new Error("read once"));  // its 47 MB are not held on to
    LOADS[APP.path].catch(() => {});
    mark("app-snapshot-here");
    await firstPause();
    const { pyodide } = await startPython({ bytes: heap, table: APP.table });
    mark("app-restored");
    takeOverFirstScreen(pyodide);
    mark("app-first-screen");
    madeSnapshot = { bytes: heap, table: APP.table };  // kept once the page is linked (messages.js)
    mark("snapshot-made");  // (as where this visit makes one: the benchmark waits for it to be kept)
    await handOverRestored(pyodide);
    return pyodide;
  } catch (error) {
    console.warn("[bpe] the build's snapshot of the app could not be used; Panel is imported here:", error);
    return null;
  }
}

// The restored app's own first screen, opened at the page's address, is given every event the
// first screen has answered, in order, and answers from now on. Nothing here waits, so no event
// comes between the two.
function takeOverFirstScreen(pyodide) {
  pyodide.globals.set("ADDRESS", first.address ?? "");
  restoredView(pyodide);
  pyodide.runPython(`if "random" in sys.modules:\n    sys.modules["random"].seed()`);
  const answer = pyodide.globals.get("_first_answer");
  for (const event of first.done) answer(JSON.stringify(event));
  first.answer = answer;
  console.log(`${APP_RESTORED} (events done again: ${first.done.length})`);
}
const APP_RESTORED = "[bpe] the app started from the build's snapshot of it";

// What the worker sends the page, with Panel's address for its files as this page has it. Only a
// Python started from the build's snapshot of the app (or a kept copy of it) has the stand-in.
let standIn = false;
function atThisAddress(text) {
  return text.includes(CDN_STAND_IN) ? text.replaceAll(CDN_STAND_IN, BASE) : text;
}

// A patch is an object: only one that holds the stand-in is made again (most hold none: a new
// model's stylesheets do).
function patchAtThisAddress(patch) {
  const text = JSON.stringify(patch);
  return text.includes(CDN_STAND_IN) ? JSON.parse(atThisAddress(text)) : patch;
}
