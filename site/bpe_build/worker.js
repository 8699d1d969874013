// Web worker that runs the Panel app in Pyodide, self-hosted (template: build.py fills in CONFIG).
// It speaks the same protocol as the worker of `panel convert --to pyodide-worker`, so the page
// Panel generated works unchanged: status / render / patch / idle messages to the page,
// rendered / patch / location messages from it.
"use strict";
const CONFIG = __CONFIG__;
const BASE = new URL(".", self.location.href).href;
// Marks are timed from the page's start (its time origin, which the page gives in the address), so
// that they compare with the page's own times.
const PAGE_START = Number(new URL(self.location.href).searchParams.get("t0")) || performance.timeOrigin;

function mark(what) {
  console.log(`[bpe-timing] ${what} ${Math.round(performance.timeOrigin + performance.now() - PAGE_START)} ms`);
}

function status(msg) {
  self.postMessage({ type: "status", msg: msg });
}

function sendPatch(patch, buffers, msg_id) {
  self.postMessage({ type: "patch", patch: patch, buffers: buffers });
}

// Every file Pyodide and the app need at start-up is fetched right away, while pyodide.js loads, by
// a worker of its own running shipped.js (so inflating and checking them use the other core), in
// the order they are needed: Pyodide's own files (wasm, JS, the stdlib Python's start and the first
// screen need, lock); numpy's libraries (wanted before Python starts, see startPython); the first
// screen's bundles (wanted once it has started, a second later); then the rest (the stdlib's other
// modules, Panel, Bokeh). Pyodide asks for its files with fetch(), which is routed here for
// the shipped ones, so it gets them inflated and checked.
const SHIPPED = CONFIG.shipped;  // path Pyodide or the worker asks for -> shipped entry
const SHIPPED_JS = URL.createObjectURL(new Blob([__SHIPPED_JS__], { type: "text/javascript" }));
const fetcher = new Worker(SHIPPED_JS, { name: "bpe-shipped" });
importScripts(SHIPPED_JS);  // bpeShipped here too, for the site's cache (see the snapshot below)
const arrived = {};  // file -> {resolve, reject}
const sources = {};  // file -> "cache" | "network"
const LOADS = Object.fromEntries(Object.entries(SHIPPED).map(([path, entry]) =>
  [path, new Promise((resolve, reject) => { arrived[entry.file] = { resolve, reject }; })]));
Object.entries(LOADS).forEach(([path, promise]) => promise.then(() => mark(`loaded:${path.split("/").pop()}`), () => {}));
fetcher.onmessage = ({ data }) => {
  if (data.pruned) console.log(`[bpe] forgot ${data.pruned} files of earlier builds`);
  if (!data.file) return;
  sources[data.file] = data.source;
  if (data.error) arrived[data.file].reject(new Error(data.error));
  else arrived[data.file].resolve(new Uint8Array(data.buffer));
};
const BUNDLES = [...CONFIG.first_bundles, ...CONFIG.bundles];
fetcher.postMessage({ base: BASE, load: [
  Object.entries(SHIPPED).filter(([path]) => !BUNDLES.includes(path) && path !== CONFIG.libraries_bundle)
    .map(([, entry]) => entry),
  [SHIPPED[CONFIG.libraries_bundle]],
  CONFIG.first_bundles.map((path) => SHIPPED[path]),
  CONFIG.bundles.map((path) => SHIPPED[path]),
] });

const fetchAnything = self.fetch.bind(self);
self.fetch = (resource, options) => {
  const url = new URL(resource instanceof Request ? resource.url : resource, BASE).href;
  const path = url.startsWith(BASE) ? url.slice(BASE.length) : null;
  if (path === null || !(path in SHIPPED)) return fetchAnything(resource, options);
  return LOADS[path].then((bytes) => {
    const response = new Response(bytes, { headers: { "Content-Type": SHIPPED[path].type } });
    if (path === WASM_PATH) COMPILING.add(response);
    return response;
  });
};

// Pyodide's wasm is compiled as soon as its bytes are here, while pyodide.asm.js runs and a kept
// snapshot is read; Pyodide's instantiateStreaming of it then only instantiates the module.
const WASM_PATH = CONFIG.pyodide_dir + "pyodide.asm.wasm";
const WASM_MODULE = LOADS[WASM_PATH].then((bytes) => WebAssembly.compile(bytes));
WASM_MODULE.then(() => mark("compiled"), () => {});  // a failure is reported where it is used
const COMPILING = new WeakSet();  // the Responses self.fetch gave for the wasm
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (source, imports) => {
  const response = await source;
  if (!COMPILING.has(response)) return instantiateStreaming(response, imports);
  const module = await WASM_MODULE;
  return { module, instance: await WebAssembly.instantiate(module, imports) };
};

// A bundle (see make_bundle in bundles.py) is [4-byte length][JSON [[path, size], ...]][file contents].
// Written a file at a time (a generator), so that a long write can let the first screen's events in.
function* writingBundle(FS, bytes) {
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const entries = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)));
  const directories = new Set();
  let offset = 4 + headerLength;
  for (const [path, size] of entries) {
    const directory = path.slice(0, path.lastIndexOf("/"));
    if (!directories.has(directory)) {
      FS.mkdirTree(directory);
      directories.add(directory);
    }
    // The file's contents are a view into the bundle: no copy, and none of FS.writeFile's
    // open/write/close, which costs about twice as much for ~2,000 files. MEMFS's own fields (as
    // MEMFS.write sets them for a new file), fine with a pinned Pyodide; S_IFREG | 0666 as writeFile.
    let node = null;
    try {
      node = FS.mknod(path, 0o100666, 0);
    } catch (error) {  // the file exists already: replace its contents the ordinary way
      FS.writeFile(path, bytes.subarray(offset, offset + size));
    }
    if (node) {
      node.contents = bytes.subarray(offset, offset + size);
      node.usedBytes = size;
    }
    offset += size;
    yield;
  }
}

function writeBundle(FS, bytes) {
  let files = 0;
  for (const _ of writingBundle(FS, bytes)) files += 1;
  return files;
}

importScripts(BASE + CONFIG.pyodide_js);

// pyodide.asm.js comes shipped too; run it here, so that loadPyodide finds _createPyodideModule
// defined and does not fetch it again.
async function loadPyodideModule() {
  const code = await LOADS[CONFIG.pyodide_dir + "pyodide.asm.js"];
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  try {
    importScripts(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}

// A memory snapshot of Python once the app is built and its document written: made by this browser
// on its first visit of this build (one per theme) and kept in the Cache API under a name that
// holds this worker's content-hashed file name, so a new build never starts from an old one's. A
// later visit starts from it, which skips Python's own start, `import panel` and building the app.
// Pyodide 0.27's snapshots cannot hold shared libraries, so numpy's are loaded before Python
// starts, on every visit in the same order: they get the same addresses and function-table slots
// each time, and Python finds them loaded.
const THEME = new URL(self.location.href).searchParams.get("theme") === "dark" ? "dark" : null;
const SNAPSHOT_FILES = ["light", "dark"].map(
  (theme) => `python-snapshot-of-${self.location.pathname.split("/").pop()}-${theme}`);
const SNAPSHOT_FILE = SNAPSHOT_FILES[THEME ? 1 : 0];  // no such file on the server
const SNAPSHOT_URL = BASE + SNAPSHOT_FILE;
// A kept snapshot is checked before Pyodide sees it: given a truncated heap, Pyodide's start
// waits forever.
const SNAPSHOT_MAGIC = 1886286592;  // the first word of a Pyodide 0.27 snapshot
const SNAPSHOT_LEAST = 20971520;  // Pyodide's initial memory: a heap with Python in it is bigger
const KEPT_SNAPSHOT = keptSnapshot();  // read while Pyodide's files arrive
KEPT_SNAPSHOT.catch(() => {});  // a damaged one is reported where it is used

async function keptSnapshot() {
  const cache = await bpeShipped.openCache(BASE);
  const kept = cache && await cache.match(SNAPSHOT_URL).catch(() => undefined);
  if (!kept) return null;
  const bytes = new Uint8Array(await kept.arrayBuffer());
  const [length, table] = ["X-Bpe-Length", "X-Bpe-Table"].map((name) => Number(kept.headers.get(name)));
  const magic = bytes.length >= 4 ? new DataView(bytes.buffer).getUint32(0, true) : 0;
  if (bytes.length !== length || bytes.length < SNAPSHOT_LEAST || magic !== SNAPSHOT_MAGIC) {
    throw new Error(`the kept snapshot is damaged (${bytes.length} bytes)`);
  }
  return { bytes, table };
}

async function keepSnapshot(bytes, table) {
  const cache = await bpeShipped.openCache(BASE);
  if (cache) {
    const headers = { "X-Bpe-Length": String(bytes.length), "X-Bpe-Table": String(table) };
    await cache.put(SNAPSHOT_URL, new Response(bytes, { headers }));
  }
}

async function forgetSnapshot() {
  const cache = await bpeShipped.openCache(BASE);
  if (cache) await cache.delete(SNAPSHOT_URL).catch(() => {});
}

// Python keeps a few JavaScript objects from its imports, and a snapshot must name each so that
// the next visit can hand it back: a global by its name; a function Python made with run_js by
// its source, one of the sources the build listed (snapshot.py), the only ones ever evaluated again.
function globalPath(object) {
  if (object === self) return [];
  for (let scope = self; scope; scope = Object.getPrototypeOf(scope)) {
    for (const name of Object.getOwnPropertyNames(scope)) {
      let value;
      try { value = self[name]; } catch { continue; }
      if (value === object) return [name];
    }
  }
  return null;
}

function nameObject(object) {
  const path = globalPath(object);
  if (path) return { global: path };
  if (typeof object === "function" && CONFIG.snapshot_functions.includes(object.toString())) {
    return { source: object.toString() };
  }
  throw new Error(`Python holds a JavaScript object a snapshot cannot name: ${String(object).slice(0, 80)}`);
}

function findObject(named) {
  if (named.global) return named.global.reduce((scope, name) => scope[name], self);
  if (!CONFIG.snapshot_functions.includes(named.source)) {
    throw new Error("a snapshot names a function this build does not know");
  }
  return (0, eval)(`(${named.source})`);
}

function makeSnapshot(pyodide) {
  // Pyodide compares the object behind loadedPackages with {} when it makes a snapshot.
  const loaded = pyodide.loadedPackages;
  const names = Object.assign({}, loaded);
  for (const name of Object.keys(loaded)) delete loaded[name];
  pyodide._api.config._makeSnapshot = true;  // set only now: at load it would wrap every global in a Proxy
  try {
    return pyodide.makeMemorySnapshot({ serializer: nameObject });
  } finally {
    pyodide._api.config._makeSnapshot = false;
    Object.assign(loaded, names);
  }
}

// Emscripten runs the functions in `preRun` before Python starts (the last one given first); this
// one loads numpy's shared libraries. (_createPyodideModule is the Emscripten module's factory,
// which loadPyodide calls with its settings; wrapped here, fine with a pinned Pyodide.)
let beforePython = null;  // (Module) => Promise, for the next start
function runBeforePython() {
  const create = self._createPyodideModule;
  self._createPyodideModule = (settings) => {
    const prepare = beforePython;
    settings.preRun.push((Module) => {
      mark("before-python");
      Module.addRunDependency("bpe-files");
      prepare(Module).then(() => Module.removeRunDependency("bpe-files"), () => {});
    });
    return create(settings);
  };
}

// numpy's libraries, loaded as Pyodide's loadDynlib loads a package's libraries. Before Python
// starts, Emscripten takes their memory from the top of the static data (not from malloc) and
// their table slots in order, so both are the same on every visit (which a snapshot needs).
async function loadLibraries(Module) {
  writeBundle(Module.FS, await LOADS[CONFIG.libraries_bundle]);
  mark("libraries-fetched");
  for (const library of CONFIG.preload_libraries) {
    const flags = { loadAsync: true, nodelete: true, allowUndefined: true, global: false, fs: Module.FS };
    await Module.loadDynamicLibrary(library, flags, {});
  }
  Module.reportUndefinedSymbols();
  mark("libraries");
  return Module.wasmTable.length;
}

// Everything else the app needs, written once Python has started (the bundles arrive meanwhile):
// the first screen's bundles, and later the rest, in slices of WRITE_SLICE ms while the first
// screen answers (writing the rest takes 0.1-0.2 s). Then FileFinders re-read their folders
// (importlib.invalidate_caches() would also import importlib.metadata, 0.4 s here). Permissions
// are not checked while writing, as before Python starts.
const WRITE_SLICE = 15;
async function writeBundles(pyodide, paths, what) {
  const bundles = await Promise.all(paths.map((path) => LOADS[path]));
  mark(`${what}-fetched`);
  let files = 0;
  const { FS } = pyodide;
  let slice = performance.now();
  FS.ignorePermissions = true;  // as before Python starts
  try {
    for (const bundle of bundles) {
      for (const _ of writingBundle(FS, bundle)) {
        files += 1;
        if (first.answer && performance.now() - slice > WRITE_SLICE) {  // the first screen's events in
          await new Promise((resolve) => setTimeout(resolve, 0));
          slice = performance.now();
        }
      }
    }
  } finally {
    FS.ignorePermissions = false;
  }
  pyodide.runPython(`
import importlib.machinery, sys
for finder in sys.path_importer_cache.values():
    if isinstance(finder, importlib.machinery.FileFinder):
        finder.invalidate_caches()
`);
  console.log(`[bpe] wrote ${files} files`);
  mark(`${what}-written`);
}

// Python starts (afresh, or from a snapshot), then gets its files. numpy's libraries are loaded
// before it starts if they are here by then, or within LIBRARIES_GRACE ms (on localhost they are),
// or a snapshot needs them. Over a slow link Python starts without them, the first screen answers,
// and they are loaded before Panel is imported; that visit makes no snapshot (see librariesLate).
const LIBRARIES_GRACE = 300;

function librariesInTime(snapshot) {
  if (snapshot) return Promise.resolve(true);
  const late = new Promise((resolve) => setTimeout(() => resolve(false), LIBRARIES_GRACE));
  return Promise.race([LOADS[CONFIG.libraries_bundle].then(() => true, () => true), late]);  // a failure: loadLibraries says it
}

async function startPython(snapshot) {
  let table = null;
  const preparing = new Promise((resolve, reject) => {
    beforePython = async (Module) => {
      if (!await librariesInTime(snapshot)) {
        console.log("[bpe] Python starts before numpy's libraries have arrived");
        resolve();
        return;
      }
      const done = loadLibraries(Module).then((length) => { table = length; });
      done.then(resolve, reject);
      return done;
    };
  });
  const options = {
    indexURL: BASE + CONFIG.pyodide_dir,
    lockFileURL: BASE + CONFIG.pyodide_dir + "pyodide-lock.json",
    env: { HOME: "/home/pyodide", PANEL_CDN_ROOT: BASE + CONFIG.panel_cdn_root },
  };
  if (snapshot) Object.assign(options, { _loadSnapshot: snapshot.bytes, _snapshotDeserializer: findObject });
  const pyodide = await Promise.race([loadPyodide(options), preparing.then(() => new Promise(() => {}))]);
  if (snapshot && table !== snapshot.table) {
    throw new Error(`numpy's libraries took table slots up to ${table}, not ${snapshot.table} as when ` +
                    "the snapshot was made");
  }
  mark("python-started");  // then its files: measured, the bundles arrive about now, so nothing waits long
  // From the snapshot, Python has imported everything already: only the app's folder is needed
  // before the page renders (the working directory), and the rest is written while it does.
  await writeBundles(pyodide, snapshot ? [CONFIG.app_bundle] : CONFIG.first_bundles, snapshot ? "app-bundle" : "first-bundles");
  for (const [name, version] of Object.entries(CONFIG.bundled_packages)) {
    pyodide.loadedPackages[name] = "bundle";
  }
  return { pyodide, table };
}

// numpy's libraries, if Python started without them: loaded now, before Panel (Bokeh imports
// numpy). Emscripten then takes their memory from malloc, so this visit's heap cannot be the next
// one's snapshot.
async function librariesLate(pyodide) {
  await loadLibraries(pyodide._module);
  console.log("[bpe] numpy's libraries were loaded after Python started: no snapshot this visit");
}

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
const FIRST_VIEW = `
_first = first_screen.start(ADDRESS)
def _first_answer(event):
    return json.dumps(_first.answer(json.loads(event)))
json.dumps(_first.view())
`;

// Panel's imports, a package at a time: between two, the first screen answers the page. (A
// package's __init__ imports the rest of it, so these are the steps there can be.)
const PANEL_STEPS = [...CONFIG.import_first, "bokeh.core.properties", "bokeh.models", "bokeh.document", "panel",
                     "panel.io.pyodide", "bpe_app.app"];

const BUILD_APP = `
import os, runpy
import panel
from panel.io.pyodide import init_doc
init_doc()
if THEME:  # Panel's dark widgets, as the system asks (the page's own CSS follows it too); per document
    panel.config.theme = THEME
runpy.run_path(os.path.join(APP_DIR, "app.py"), run_name="__main__")
`;

// Callbacks Python has handed to setTimeout and that have not run: a snapshot would keep them
// waiting for a timer the next visit does not have.
const PENDING_CALLBACKS = `getattr(__import__("asyncio").get_event_loop(), "_in_progress", None)`;

// The document as JSON, for the page (in a worker write_doc only serializes it); kept in
// `_written`, so that a snapshot made after it holds it too.
const WRITE_DOC = `
import gc
from panel.io.pyodide import write_doc
_written = await write_doc()
gc.freeze()
gc.enable()
`;

const REWRITE_DOC = `
from panel.io.pyodide import write_doc
_written = await write_doc()
`;

let madeSnapshot = null;  // {bytes, table}: kept once the page is linked

// The first screen's events: answered as they come while Panel loads (after any that came before
// Python was up); from the moment the app is being built, kept until the page is linked and then
// done to the app's state (through the first screen, which answers on it by then). A test can hold Panel back (the page's
// `bpeHoldPanel`), so that only the first screen runs.
const HOLD_PANEL = new URL(self.location.href).searchParams.has("hold-panel");
const first = { answer: null, waiting: [], later: null, last: 0, address: null };
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
  } catch (error) {
    console.error("[bpe] the first screen could not answer", event, error);
    return;
  }
  self.postMessage({ type: "first-view", view: JSON.parse(view), seq });
}

async function startFirstScreen(pyodide) {
  pyodide.globals.set("APP_DIR", CONFIG.app_dir);
  pyodide.globals.set("ADDRESS", await first.addressGiven);
  pyodide.runPython(FIRST_SCREEN);
  mark("first-screen-imported");
  let view = pyodide.runPython(FIRST_VIEW);
  first.answer = pyodide.globals.get("_first_answer");
  // What the visitor did before Python was up, answered at once: the page draws only the last view.
  let seq = 0;
  for (const event of first.waiting.splice(0)) {
    try {
      view = first.answer(JSON.stringify(event.event));
      seq = event.seq;
    } catch (error) {
      console.error("[bpe] the first screen could not answer", event.event, error);
    }
  }
  self.postMessage({ type: "first-view", view: JSON.parse(view), ready: true, seq });
  mark("first-screen");
  if (first.used) first.last = performance.now();  // who typed before it answered goes on typing: a pause first
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

// The app built and its document written afresh; then, if nothing waits on a timer, a snapshot for
// the next visit.
async function builtAfresh() {
  const { pyodide, table } = await startPython(null);
  mark("pyodide");
  self.pyodide = pyodide;
  await startFirstScreen(pyodide);
  if (HOLD_PANEL) await new Promise(() => {});
  status("Starting the full page");
  await writeBundles(pyodide, CONFIG.bundles, "bundles");
  if (table === null) await librariesLate(pyodide);
  await importPanel(pyodide);
  pyodide.globals.set("THEME", THEME);
  pyodide.runPython(BUILD_APP);
  mark("app-built");
  await pyodide.runPythonAsync(WRITE_DOC);
  mark("written-doc");
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
  // The app was built on a state of its own if the visitor used the first screen (a link, an
  // event), so that the snapshot is of the page as everyone opens it: now it takes over theirs.
  if (pyodide.runPython("first_screen.hand_over()")) {
    await pyodide.runPythonAsync(REWRITE_DOC);
    mark("handed-over");
  }
  return pyodide;
}

// The app as this browser built it on its first visit of this build, if it kept a snapshot of it
// (its bundles other than the app's are written once its document is posted: startApplication).
async function builtBefore() {
  const snapshot = await KEPT_SNAPSHOT;
  mark("snapshot-read");
  if (!snapshot) return null;
  const { pyodide } = await startPython(snapshot);
  mark("pyodide");
  console.log("[bpe] Python and the app started from the snapshot this browser kept");
  pyodide.runPython("first_screen.restored()");  // the snapshot's app is the page as everyone opens it
  return pyodide;
}

// What the page renders: the document's JSON, its render items and its roots.
function written(pyodide) {
  self.pyodide = pyodide;
  pyodide.globals.set("sendPatch", sendPatch);
  pyodide.globals.set("APP_DIR", CONFIG.app_dir);
  // The working directory is the file system's, which is new on every visit, a snapshot's too.
  pyodide.runPython("import os; os.chdir(APP_DIR)");
  const serialized = pyodide.globals.get("_written");
  try {
    return serialized.toJs();
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
    if (restored) doc = written(restored);
  } catch (error) {
    console.warn("[bpe] the kept snapshot could not be used; starting Python afresh:", error);
    await forgetSnapshot();
    restored = null;
  }
  if (!doc) doc = written(await builtAfresh());
  const [docs_json, render_items, root_ids] = doc;
  mark("app");
  self.postMessage({ type: "render", docs_json: docs_json, render_items: render_items, root_ids: root_ids });
  // Before the page's answer (its "rendered" waits in the queue): the files a later import needs.
  if (restored) await writeBundles(restored, BUNDLES.filter((path) => path !== CONFIG.app_bundle), "bundles");
  const from = Object.values(sources);
  console.log(`[bpe] shipped files: ${from.filter((s) => s === "cache").length} from the cache, ` +
              `${from.filter((s) => s === "network").length} from the network`);
}

async function handle(msg) {
  const pyodide = self.pyodide;
  if (msg.type === "rendered") {
    await pyodide.runPythonAsync(`
from panel.io.state import state
from panel.io.pyodide import _link_docs_worker
_link_docs_worker(state.curdoc, sendPatch, setter='js')
`);
    mark("linked");
    // What the visitor did since the app was built (or, from a snapshot, since the page opened),
    // done to the app's state now, through the first screen the snapshot holds too.
    const events = [...(first.later || []), ...first.waiting.splice(0)];
    first.later = null;
    first.answer = pyodide.globals.get("_first_answer");
    for (const { event } of events) first.answer(JSON.stringify(event));
    if (madeSnapshot) {
      const { bytes, table } = madeSnapshot;
      madeSnapshot = null;
      keepSnapshot(bytes, table).then(
        () => console.log(`[bpe] kept a snapshot of Python for the next visit (${bytes.length} bytes)`),
        (error) => console.warn("[bpe] could not keep the snapshot", error));
    }
    // Only now, with this build's files all loaded, forget those of earlier builds.
    fetcher.postMessage({ prune: [...CONFIG.keep, ...SNAPSHOT_FILES], base: BASE });
  } else if (msg.type === "patch") {
    try {
      pyodide.globals.set("patch", msg.patch);
      await pyodide.runPythonAsync(`
from panel.io.state import state
from panel.io.pyodide import _convert_json_patch
state.curdoc.apply_json_patch(_convert_json_patch(patch), setter='js')
`);
    } finally {
      self.postMessage({ type: "idle" });
    }
  } else if (msg.type === "location") {
    pyodide.globals.set("location", msg.location);
    await pyodide.runPythonAsync(`
import json
from panel.io.state import state
from panel.util import edit_readonly
if state.location:
    loc_data = json.loads(location)
    with edit_readonly(state.location):
        state.location.param.update({k: v for k, v in loc_data.items() if k in state.location.param})
`);
  }
}

// Messages are handled one at a time, in order, after start-up has finished.
const started = startApplication().catch((error) => {
  const lines = `${error}`.trim().split("\n");
  status(`Error: ${lines[lines.length - 1]}`);
  console.error(error);
  throw error;
});
let queue = started;
self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "first") {  // the first screen's, not queued behind the start
    if ("address" in msg) {
      first.address = msg.address.replace(/^\?/, "");
      first.giveAddress(first.address);
    } else {
      first.used = true;
      firstEvent(msg);
    }
    return;
  }
  queue = queue.then(() => handle(msg)).catch((error) => console.error(error));
};
