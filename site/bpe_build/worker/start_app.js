// The app: built afresh (and its snapshot made) or restored from a snapshot, then its document posted.
//
// The first screen's Python (from the build's start snapshot, or afresh), then the app: from the
// build's snapshot of it (app_snapshot.js), or built and its document written here, with a snapshot
// for the next visit if nothing waits on a timer.
async function builtAfresh() {
  const start = await startSnapshot();
  const started = start && await startPython(start).catch((error) => {
    console.warn("[bpe] the build's snapshot could not be used; Python starts afresh:", error.message || error);
    return null;
  });
  if (started) console.log(STARTED_FROM_BUILD);
  const { pyodide, table: loaded, inPlace } = started || await startPython(null);
  mark("pyodide");
  self.pyodide = pyodide;
  await startFirstScreen(pyodide, { restored: Boolean(started), table: loaded });
  if (HOLD_PANEL) await new Promise(() => {});
  if (HOLD_APP) await APP_RELEASED;
  const app = await appFromSnapshot();
  if (app) return app;
  await writeBundles(pyodide, CONFIG.bundles, "bundles");
  // From the build's snapshot, numpy's libraries are loaded now, in a pause of the visitor's (loaded
  // at the first answer, they held this thread while the keys typed right after it waited).
  if (inPlace) await firstPause();
  const table = inPlace ? await librariesInPlace(pyodide) : loaded ?? await librariesLate(pyodide);
  await importPanel(pyodide);
  pyodide.globals.set("THEME", THEME);
  pyodide.runPython(BUILD_APP);
  mark("app-built");
  await pyodide.runPythonAsync(WRITE_DOC);
  mark("written-doc");
  // The build's snapshot of the app holds the first screen a restored page without a link opens,
  // made and drawn (first_screen.prepare), so that a visit from it answers sooner (`restoredView`).
  // Not in a snapshot a visit makes: the visit's document would wait for it.
  if (MAKE_APP_SNAPSHOT) pyodide.runPython("first_screen.prepare()");
  const pending = pyodide.runPython(PENDING_CALLBACKS);
  try {
    if (table === null) throw new Error("numpy's libraries were loaded after Python started");
    if (pending === undefined) throw new Error("this Pyodide's event loop does not count its callbacks");
    if (pending !== 0) throw new Error(`${pending} callbacks are waiting for a timer`);
    madeSnapshot = { bytes: makeSnapshot(pyodide), table };
    mark("snapshot-made");
  } catch (error) {
    console.warn("[bpe] no snapshot for the next visit:", error);
  }
  if (MAKE_APP_SNAPSHOT) {  // for the build (app_snapshot.py), which reads it; the worker goes no further
    self.madeAppSnapshot = madeSnapshot || { error: "no snapshot was made (see the console)" };
    await new Promise(() => {});
  }
  // The app was built on a state of its own if the visitor used the first screen (a link, an
  // event), so that the snapshot is of the page as everyone opens it: now it takes over theirs.
  await handOver(pyodide);
  return pyodide;
}

// The app as this browser built it on its first visit of this build, if it kept a snapshot of it
// (its bundles other than the app's are written while its first screen answers: handOverRestored).
async function builtBefore() {
  const snapshot = await KEPT_SNAPSHOT;  // (its bytes still coming: keptSnapshot)
  if (!snapshot) return null;
  const { pyodide } = await startPython(snapshot);
  mark("pyodide");
  console.log("[bpe] Python and the app started from the snapshot this browser kept");
  await answerRestored(pyodide);
  return pyodide;
}

// From a kept snapshot, the first screen answers at once, on a state of its own opened at the
// page's address (first_screen.restored), on the still page, while the page's files are written and
// before Bokeh has drawn.
const RESTORED_VIEW = firstView("first_screen.restored(ADDRESS)");

// The restored first screen's view (RESTORED_VIEW), saying whether the screen was the one made
// ahead in the snapshot (`prepare`).
function restoredView(pyodide) {
  const ahead = () => pyodide.runPython("first_screen._prepared is not None");
  const had = ahead();
  const view = pyodide.runPython(RESTORED_VIEW);
  if (had && !ahead()) console.log(MADE_AHEAD);
  return view;
}
const MADE_AHEAD = "[bpe] the first screen was made ahead in the snapshot";

async function answerRestored(pyodide) {
  pyodide.globals.set("ADDRESS", await first.addressGiven);
  await new Promise((resolve) => setTimeout(resolve, 0));  // the page's events in
  firstAnswer(pyodide, restoredView(pyodide));
}

// Then the app's state takes over what the visitor did on the first screen, and the page gets the
// changes as a patch (HAND_OVER): Panel's models read the page's files (its themes' CSS), so the bundles
// are written first, while the first screen goes on answering, and the hand-over waits for a pause
// in the visitor's typing, as Bokeh's drawing of the page does (first_screen.js): events from
// then on wait until the page is linked (`first.later`).
async function handOverRestored(pyodide) {
  await writeBundles(pyodide, RESTORED_BUNDLES, "bundles");
  await firstPause();
  mark("paused");
  first.later = [];
  await handOver(pyodide);
}

// The app's state takes over the first screen's (HAND_OVER); the patch on the written document
// that this gives goes to the page with it (`written`).
async function handOver(pyodide) {
  if (await pyodide.runPythonAsync(HAND_OVER)) mark("handed-over");
}

// The files a restored app writes: all but the app's, whose modules the snapshot holds imported.
const RESTORED_BUNDLES = [...CONFIG.first_bundles, ...CONFIG.bundles].filter((path) => path !== CONFIG.app_bundle);

// What the page renders: the document's JSON, its render items and its roots, and the patch to
// apply on top (HAND_OVER) or null.
function written(pyodide) {
  self.pyodide = pyodide;
  pyodide.globals.set("sendPatch", sendPatch);
  pyodide.globals.set("APP_DIR", CONFIG.app_dir);
  // The working directory is the file system's, which is new on every visit, a snapshot's too; and
  // the environment is this visit's (a snapshot may have been made at another address).
  pyodide.globals.set("ENV", JSON.stringify(PYTHON_ENV));
  pyodide.runPython("import json, os; os.chdir(APP_DIR); os.environ.update(json.loads(ENV))");
  standIn = pyodide.runPython("import panel.io.resources; panel.io.resources.CDN_ROOT").startsWith(CDN_STAND_IN);
  const serialized = pyodide.globals.get("_written");
  const patch = pyodide.globals.get("_patch");
  try {
    return [...serialized.toJs(), typeof patch === "string" ? patch : null]
      .map((part) => (typeof part === "string" ? atThisAddress(part) : part));
  } finally {
    serialized.destroy();
  }
}

async function startApplication() {
  status("Loading Python");
  await loadPyodideModule();
  runBeforePython();
  let doc = null;
  let restored = null;
  try {
    restored = await builtBefore();
    if (restored) {
      await handOverRestored(restored);
      doc = written(restored);
    }
  } catch (error) {
    console.warn("[bpe] the kept snapshot could not be used; starting Python afresh:", error);
    await forgetSnapshot();
    restored = null;
    first.later = null;  // the new first screen answers (what it answered so far is lost)
  }
  if (!doc) doc = written(await builtAfresh());
  const [docs_json, render_items, root_ids, patch] = doc;
  mark("app");
  self.postMessage({ type: "render", docs_json, render_items, root_ids, patch });
  keepFiles();  // (on a start from a kept snapshot its files came from the cache)
  const from = Object.values(sources);
  console.log(`[bpe] shipped files: ${from.filter((s) => s === "cache").length} from the cache, ` +
              `${from.filter((s) => s === "network").length} from the network`);
}

