// The snapshot: Python's memory kept by this browser, so that a second visit skips the start.
//
// A memory snapshot of Python once the app is built and its document written: made by this browser
// on its first visit of this build (one per theme), or the build's own that the visit started the
// app from (app_snapshot.js), and kept in the Cache API under a name that
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
// A kept snapshot is checked before Python restores it (startPython's preRun waits for `read`):
// given a truncated heap, Pyodide's start waits forever.
const SNAPSHOT_MAGIC = 1886286592;  // the first word of a Pyodide 0.27 snapshot
const SNAPSHOT_LEAST = 20971520;  // Pyodide's initial memory: a heap with Python in it is bigger
const KEPT_SNAPSHOT = keptSnapshot();  // read while Pyodide's files arrive
KEPT_SNAPSHOT.catch(() => {});  // a damaged one is reported where it is used

// The kept snapshot as startPython takes it, {bytes, read, table}, as soon as its length is known:
// `bytes` (of that length) fills as it is read, and `read` says when it is all there and checked.
// Pyodide's Emscripten module is made meanwhile (0.2 s of this thread), which waited for the
// 63 MB before; they are written into Python's memory only once `read` has come (startPython).
async function keptSnapshot() {
  const cache = await bpeShipped.openCache(BASE);
  const kept = cache && await cache.match(SNAPSHOT_URL).catch(() => undefined);
  if (!kept) return null;
  // Said to the page, which marks it for the benchmark (its first screen answers as on a cold start).
  self.postMessage({ type: "from-snapshot" });
  const [length, table] = ["X-Bpe-Length", "X-Bpe-Table"].map((name) => Number(kept.headers.get(name)));
  if (!(length >= SNAPSHOT_LEAST)) throw new Error(`the kept snapshot is damaged (its length: ${length})`);
  const bytes = new Uint8Array(length);
  const read = readKept(kept.body, bytes);
  read.catch(() => {});  // reported where it is waited for
  return { bytes, read, table };
}

// Its body into `bytes` chunk by chunk; a body of another length or with another first word is
// damaged (a heap cut short is one whose top Pyodide would take for zeros).
async function readKept(body, bytes) {
  const reader = body.getReader();
  let at = 0;
  for (let chunk; !(chunk = await reader.read()).done; at += chunk.value.length) {
    if (at + chunk.value.length > bytes.length) {
      await reader.cancel();
      throw new Error(`the kept snapshot is damaged (more than ${bytes.length} bytes)`);
    }
    bytes.set(chunk.value, at);
  }
  const magic = new DataView(bytes.buffer).getUint32(0, true);
  if (at !== bytes.length || magic !== SNAPSHOT_MAGIC) throw new Error(`the kept snapshot is damaged (${at} bytes)`);
  mark("snapshot-read");
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

// The build's snapshot: Python's memory with the first screen imported, made once by the build in
// Chromium (start_snapshot.py) and shipped like any file. A visit that keeps no snapshot of its own
// starts from it, which skips CPython's start, Pyodide's own imports and the first screen's import
// (about 1 s on 2 cores).
// - Not over a slow link: it is 5 MB with gzip, more than Python's start saves over 20 Mbit/s. The
//   file worker judges the link from the first files (shipped_worker.js, `sendSnapshot`) and says so
//   at once, so that Pyodide's Emscripten module is made while the snapshot comes.
// - It is asked for once the first screen's bundles are inflated, which come after the wasm. Asked
//   for beside the wasm, inflating it held the file worker's thread and the wasm's request went
//   0.5 s later. numpy's libraries come after it (shipped_worker.js, `sendSnapshot`).
// - It holds numpy's libraries' memory, as loading them left it: Python starts without them, and
//   they are loaded at the same places after the first answer (libraries.js, librariesInPlace),
//   so that the first answer waits neither for them nor for Emscripten's linking of them.
// - Every visitor shares the build's string hash seed; `random` is seeded again (first_screen.js).
// - Its pages of zeros are not shipped: `runs` says where the rest go (start_snapshot.py, `pack`).
const MAKE_START_SNAPSHOT = new URL(self.location.href).searchParams.has("make-start-snapshot");
const STARTED_FROM_BUILD = "[bpe] Python started from the build's snapshot of the first screen";
const START = CONFIG.start_snapshot && !MAKE_START_SNAPSHOT ? CONFIG.start_snapshot : null;
let startAsked;  // told by the file worker (files.js): {asked} or {asked: false, why}
const START_ASKED = new Promise((resolve) => { startAsked = resolve; });

// The build's snapshot as startPython takes it, its bytes to come; null if the file worker did not
// ask for it.
async function startSnapshot() {
  if (!START) return null;
  const after = SHIPPED[CONFIG.first_bundles[CONFIG.first_bundles.length - 1]].file;
  fetcher.postMessage({ base: BASE, start: { entry: SHIPPED[START.path], after } });
  const { asked, why } = await START_ASKED;
  if (!asked) {
    console.log(`[bpe] Python starts afresh, without the build's snapshot: ${why}`);
    return null;
  }
  return { bytes: LOADS[START.path], size: START.size, runs: START.runs, table: START.table, start: true };
}

// For the build (start_snapshot.py): the snapshot once the first screen is imported, kept in
// `self.madeStartSnapshot` for it to read ({bytes, table, libraries: where numpy's libraries are,
// libraryPlaces} or {error}); the worker goes no further.
async function makeStartSnapshot(pyodide, table) {
  try {
    if (table === null) throw new Error("numpy's libraries were loaded after Python started");
    const pending = pyodide.runPython(PENDING_CALLBACKS);
    if (pending !== 0) throw new Error(`${pending} callbacks are waiting for a timer`);
    self.madeStartSnapshot = { bytes: makeSnapshot(pyodide), table, libraries: libraryPlaces };
  } catch (error) {
    self.madeStartSnapshot = { error: String(error.message || error) };
  }
  await new Promise(() => {});
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

