// The first screen's side: its Python, its events while Panel loads, Panel's imports in steps.
//
// Start-up does a burst of allocation (imports, building the app); the cyclic garbage collector
// would walk the growing heap again and again, so it is off until the document is written and then
// everything that survived start-up is frozen out of later collections.
// The first screen (bpe_app/first_screen.py) answers the page from the bpe core while Panel loads;
// each answer is JSON, so no Python object crosses to JavaScript.
const FIRST_SCREEN = `
import gc, json, os, sys
gc.disable()
os.makedirs(APP_DIR, exist_ok=True)
os.chdir(APP_DIR)
if APP_DIR not in sys.path:
    sys.path.insert(0, APP_DIR)
from bpe_app import first_screen
`;
// From the build's snapshot the first screen is imported already; the file system and the
// environment are this visit's.
const FIRST_SCREEN_RESTORED = `
import json, os, sys
os.chdir(APP_DIR)
os.environ.update(json.loads(ENV))
if "random" in sys.modules:
    sys.modules["random"].seed()
`;
// The page's first screen, made by `made` (Python), and its first view.
const firstView = (made) => `
_first = ${made}
def _first_answer(event):
    return json.dumps(_first.answer(json.loads(event)))
json.dumps(_first.view())
`;
const FIRST_VIEW = firstView("first_screen.start(ADDRESS)");

// Panel's imports, a package at a time: between two, the first screen answers the page. (A
// package's __init__ imports the rest of it, so these are the steps there can be.)
const PANEL_STEPS = [...CONFIG.import_first, "bokeh.core.properties", "bokeh.models", "bokeh.document", "panel",
                     "panel.io.pyodide", "bpe_app.app"];

const BUILD_APP = `
import os, runpy
import panel
from panel.io.pyodide import init_doc
from bokeh.settings import settings as bokeh_settings
init_doc()
bokeh_settings.simple_ids.set_value(True)  # the prerendered document's ids (adopt.js)
if THEME:  # Panel's dark widgets, as the system asks (the page's own CSS follows it too); per document
    panel.config.theme = THEME
runpy.run_path(os.path.join(APP_DIR, "app.py"), run_name="__main__")
`;

// Callbacks Python has handed to setTimeout and that have not run: a snapshot would keep them
// waiting for a timer the next visit does not have.
const PENDING_CALLBACKS = `getattr(__import__("asyncio").get_event_loop(), "_in_progress", None)`;

// The document as JSON, for the page (in a worker write_doc only serializes it); kept in
// `_written`, so that a snapshot made after it holds it too. Its changes from then on are kept
// apart (bpe_app/page_patch.py), for the page as a patch on top of it (HAND_OVER).
const WRITE_DOC = `
import gc
from panel.io.pyodide import write_doc
from panel.io.state import state as _panel_state
from bpe_app import page_patch
_written = await write_doc()
page_patch.written(_panel_state.curdoc)
gc.freeze()
gc.enable()
`;

// The app's state takes over what the visitor did on the first screen (`_handed`); the page gets
// `_written` and the changes since as a patch (`_patch`, or None). Writing the whole document again
// took 0.4-0.7 s on 2 cores; it is done only for a document written without page_patch.
const HAND_OVER = `
from panel.io.pyodide import write_doc
from panel.io.state import state as _panel_state
from bpe_app import page_patch
_apart = page_patch.kept_apart()
_handed = first_screen.hand_over()
_patch = page_patch.since_written(_panel_state.curdoc) if _apart else None
if _handed and not _apart:
    _written = await write_doc()
_handed
`;

let madeSnapshot = null;  // {bytes, table}: kept once the page is linked

// The first screen's events: answered as they come while Panel loads (after any that came before
// Python was up); from the moment the app is being built, kept until the page is linked and then
// done to the app's state (through the first screen, which answers on it by then). A test can hold Panel back (the page's
// `bpeHoldPanel`), so that only the first screen runs; or until the page says {type: "release-app"}
// (`bpeHoldApp`), so that what it does on the first screen comes before the full page, however soon
// that would come.
const HOLD_PANEL = new URL(self.location.href).searchParams.has("hold-panel");
const HOLD_APP = new URL(self.location.href).searchParams.has("hold-app");
let releaseApp;
const APP_RELEASED = new Promise((resolve) => { releaseApp = resolve; });
// `done`: every event the first screen has answered, in order (app_snapshot.js does them again).
const first = { answer: null, waiting: [], later: null, last: 0, address: null, done: [] };
first.addressGiven = new Promise((resolve) => { first.giveAddress = resolve; });
// Panel's next step waits for a pause in the visitor's typing and scrubbing of this long, so that
// a step (up to a second or two) does not fall between two keys.
const FIRST_PAUSE = 400;

// An event is {event, seq}: the page numbers its events, and each answer says which it answers.
function firstEvent(msg) {
  first.last = performance.now();
  if (first.later) first.later.push(msg);
  else if (first.answer) answerFirst(msg);
  else first.waiting.push(msg);
}

function answerFirst({ event, seq }) {
  let view;
  try {
    view = first.answer(JSON.stringify(event));
    first.done.push(event);
  } catch (error) {
    console.error("[bpe] the first screen could not answer", event, error);
    return;
  }
  self.postMessage({ type: "first-view", view: JSON.parse(view), seq });
}

async function startFirstScreen(pyodide, { restored, table }) {
  pyodide.globals.set("APP_DIR", CONFIG.app_dir);
  pyodide.globals.set("ENV", JSON.stringify(PYTHON_ENV));
  pyodide.runPython(restored ? FIRST_SCREEN_RESTORED : FIRST_SCREEN);
  mark("first-screen-imported");
  if (MAKE_START_SNAPSHOT) {
    pyodide.runPython("first_screen.prepare()");  // the snapshot holds the first screen made and drawn
    await makeStartSnapshot(pyodide, table);
  }
  pyodide.globals.set("ADDRESS", await first.addressGiven);
  // The page's events sent while Python started are still in this thread's queue (nothing above
  // let it run): taken in now, they are answered in the first answer, not in a second one.
  await new Promise((resolve) => setTimeout(resolve, 0));
  firstAnswer(pyodide, pyodide.runPython(FIRST_VIEW));
  if (!APP) {  // (otherwise once the app's snapshot is here, or is not coming: app_snapshot.js)
    loadLater();
    keepFiles();
  }
}

// The first answer, from the first screen's `view` (JSON) and what the visitor did before Python was
// up, answered at once: the page draws only the last view.
function firstAnswer(pyodide, view) {
  first.answer = pyodide.globals.get("_first_answer");
  let seq = 0;
  for (const event of first.waiting.splice(0)) {
    try {
      view = first.answer(JSON.stringify(event.event));
      first.done.push(event.event);
      seq = event.seq;
    } catch (error) {
      console.error("[bpe] the first screen could not answer", event.event, error);
    }
  }
  // Said before the answer: once the first screen answers, the page keeps its card as it is, which
  // would go on saying "Loading Python" while Python answers.
  status("Starting the full page");
  self.postMessage({ type: "first-view", view: JSON.parse(view), ready: true, seq });
  mark("first-screen");
  // Who typed before it answered goes on typing: what comes next (Panel's steps, a kept snapshot's
  // hand-over) waits for a pause from now. Without it, a restored page handed over at once and a
  // key pressed just after the first answer waited for Bokeh.
  if (first.used) first.last = performance.now();
}

// After the first screen's last event, once the visitor has paused (see FIRST_PAUSE).
async function firstPause() {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 0));  // the page's events in
    const wait = first.last + FIRST_PAUSE - performance.now();
    if (wait <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function importPanel(pyodide) {
  for (const [done, name] of PANEL_STEPS.entries()) {
    await firstPause();
    self.postMessage({ type: "first-step", done: done + 1, of: PANEL_STEPS.length + 1 });
    pyodide.runPython(`import ${name}`);
    mark(`imported:${name}`);
  }
  self.postMessage({ type: "first-step", done: PANEL_STEPS.length + 1, of: PANEL_STEPS.length + 1 });
  await firstPause();
  first.later = [];  // from here on the app owns the state: events wait until the page is linked
}

