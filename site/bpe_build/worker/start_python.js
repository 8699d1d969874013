// Python's start: numpy's libraries before it, then the files it imports.
//
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
    markBootstrap(settings.API);
    return create(settings);
  };
}

// Python's start in two parts, for the benchmarks: CPython's own (until "python-initialized"),
// then Pyodide's imports of its own modules (finalizeBootstrap, which the Emscripten module sets on
// its API object once it has run; until "python-started").
function markBootstrap(api) {
  let finalize;
  Object.defineProperty(api, "finalizeBootstrap", {
    configurable: true,
    get: () => finalize,
    set(given) {
      finalize = (...args) => {
        mark("python-initialized");
        return given(...args);
      };
    },
  });
}

// numpy's libraries, loaded as Pyodide's loadDynlib loads a package's libraries. Before Python
// starts, Emscripten takes their memory from the top of the static data (not from malloc) and
// their table slots in order, so both are the same on every visit (which a snapshot needs). Where
// it put each is kept in `libraryPlaces` ([memory base, memory size, table base]; the build records
// them with its snapshot). `handles` (see librariesInPlace) give it the places instead.
let libraryPlaces = null;
async function loadLibraries(Module, handles = null) {
  releaseLibraries();
  writeBundle(Module.FS, await LOADS[CONFIG.libraries_bundle]);
  mark("libraries-fetched");
  const places = [];
  // Emscripten's loadWebAssemblyModule instantiates each with an `env` that says where it goes.
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = (binary, imports) => {
    if (binary instanceof Uint8Array && imports && imports.env) {
      places.push([imports.env.__memory_base, Module.getDylinkMetadata(binary).memorySize, imports.env.__table_base]);
    }
    return instantiate(binary, imports);
  };
  try {
    for (const [i, library] of CONFIG.preload_libraries.entries()) {
      const flags = { loadAsync: true, nodelete: true, allowUndefined: true, global: false, fs: Module.FS };
      await Module.loadDynamicLibrary(library, flags, {}, handles ? handles[i] : undefined);
    }
  } finally {
    WebAssembly.instantiate = instantiate;
  }
  Module.reportUndefinedSymbols();
  libraryPlaces = places;
  mark("libraries");
  return Module.wasmTable.length;
}

// numpy's libraries after a start from the build's snapshot, at the places they had when the build
// made it (START.libraries). Their memory is in the snapshot, as loading them left it, and nothing
// uses it before numpy is imported; so the first answer need not wait for them. Emscripten takes a
// library's places from its handle where the handle says it has them (as when a thread loads a
// library again), instead of new memory from malloc. Loaded in the same order from the same table
// length, they get the same table slots too. The bytes at their places must come out as the
// snapshot had them: then this visit's heap is the one a start with them gives, and its snapshot
// restores on the next visit (which loads them before Python starts). Otherwise, or where
// something took a table slot first, they are loaded as late ones are: null, no snapshot.
async function librariesInPlace(pyodide) {
  const Module = pyodide._module;
  const places = START.libraries;
  await LOADS[CONFIG.libraries_bundle].catch(() => {});  // (a failure: loadLibraries says it)
  if (Module.wasmTable.length !== places[0][2]) {
    console.warn(`[bpe] the function table grew to ${Module.wasmTable.length} before numpy's libraries ` +
                 `(${places[0][2]} when the build made its snapshot)`);
    return librariesLate(pyodide);
  }
  const before = places.map(([at, size]) => Module.HEAPU8.slice(at, at + size));
  const handles = places.map(([memory, , table]) => {
    const handle = Module._calloc(40, 1);  // Emscripten's struct dso, up to its name
    Module.HEAPU8[handle + 8] = 1;  // its memory is there already
    Module.HEAPU32[(handle + 12) >> 2] = memory;
    Module.HEAPU32[(handle + 20) >> 2] = table;
    return handle;
  });
  let table;
  try {
    table = await loadLibraries(Module, handles);
  } finally {
    handles.forEach((handle) => Module._free(handle));
  }
  const moved = places.findIndex(([at, size], i) => !sameBytes(Module.HEAPU8.subarray(at, at + size), before[i]));
  if (table !== START.table || moved >= 0) {
    console.warn(`[bpe] numpy's libraries were loaded, but not as the build's snapshot has them ` +
                 `(table ${table}, not ${START.table}; changed bytes: ${CONFIG.preload_libraries[moved] || "none"}): ` +
                 "no snapshot this visit");
    return null;
  }
  console.log(LIBRARIES_IN_PLACE);
  return table;
}
const LIBRARIES_IN_PLACE = "[bpe] numpy's libraries were loaded where the build's snapshot has them";

function sameBytes(a, b) {  // (a word at a time where both are aligned: numpy's 2 MB in a few ms)
  if (a.length !== b.length) return false;
  const words = a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 ? a.length >> 2 : 0;
  if (words) {
    const [a4, b4] = [a, b].map((bytes) => new Uint32Array(bytes.buffer, bytes.byteOffset, words));
    for (let i = 0; i < words; i++) if (a4[i] !== b4[i]) return false;
  }
  for (let i = words * 4; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Everything else the app needs, written once Python has started (the bundles arrive meanwhile):
// the first screen's bundles, and later the rest, in slices of WRITE_SLICE ms while the first
// screen answers (writing the rest takes 0.1-0.2 s). Then FileFinders re-read their folders
// (importlib.invalidate_caches() would also import importlib.metadata, 0.4 s here). Permissions
// are not checked while writing, as before Python starts.
const WRITE_SLICE = 15;
async function writeBundles(pyodide, paths, what) {
  if (paths.some((path) => CONFIG.bundles.includes(path))) loadLater();  // asked for by now, but never waited on unasked
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
// Whether waiting is worth it is judged from the link's pace so far (files.js, `wire`): where the
// libraries (and the first screen's bundles before them) cannot all be here within the grace,
// Python starts at once rather than after it. The pace counts only the time some file was on its
// way (a group of files is asked for once the one before it is here; shipped.js, `pace`), so that
// a busy machine is not taken for a slow link. The grace is above what this judges on a busy 2-core
// machine over localhost (0-0.06 s with four processes busy, by the network stack's clock; 0.1-0.4 s
// by JavaScript's), because missing the libraries costs the next visit its snapshot (about 1 s) and
// waiting for them at most 0.6 s of this one; over 20 Mbit/s + 40 ms they are judged 0.8 s away
// (the first screen's bundles with brotli), and not waited for.
const LIBRARIES_GRACE = 600;

function librariesExpectedIn() {
  const pace = bpeShipped.pace(wire.spans);  // shipped bytes per ms; 0: not known
  const waiting = [...CONFIG.first_bundles, CONFIG.libraries_bundle].filter((path) => !wire.here.has(path));
  // About the codec the file worker takes (it times the bodies alone, without their latency).
  const packed = (path) => bpeShipped.codecFor(SHIPPED[path], pace).packed;
  return pace > 0 ? waiting.reduce((sum, path) => sum + packed(path), 0) / pace : 0;
}

function librariesInTime(snapshot) {
  if (snapshot) return Promise.resolve(true);
  const expected = librariesExpectedIn();
  const away = `[bpe] numpy's libraries are ${Math.round(expected)} ms away at this link's pace`;
  if (expected > LIBRARIES_GRACE) {
    console.log(`${away}: not waited for`);
    return Promise.resolve(false);
  }
  console.log(`${away}: waited for, up to ${LIBRARIES_GRACE} ms`);
  releaseLibraries();  // (the file worker judges a slow link from the first files alone)
  const late = new Promise((resolve) => setTimeout(() => resolve(false), LIBRARIES_GRACE));
  return Promise.race([LOADS[CONFIG.libraries_bundle].then(() => true, () => true), late]);  // a failure: loadLibraries says it
}

// Python's environment: given at its start, and again after the build's snapshot (made elsewhere).
const PYTHON_ENV = { HOME: "/home/pyodide", PANEL_CDN_ROOT: BASE + CONFIG.panel_cdn_root };

// The build's snapshot's heap from its bytes: its pages with data, in runs of [offset, length],
// the rest left zeros (start_snapshot.py, `pack`).
function fillHeap(heap, bytes, runs) {
  let from = 0;
  for (const [at, length] of runs) {
    heap.set(bytes.subarray(from, from + length), at);
    from += length;
  }
  if (from !== bytes.length) throw new Error(`the snapshot's runs take ${from} of its ${bytes.length} bytes`);
}

// A snapshot is {bytes, table} (kept by this browser), or the build's {bytes: a promise, size,
// runs, table, start: true}: Pyodide is given a heap of its size to fill, and the Emscripten module
// is made (0.3 s) while the bytes come; they are written in before Python starts. A kept snapshot
// needs numpy's libraries loaded before Python starts; the build's has their memory, and they are
// loaded at its places after the first answer (librariesInPlace; `inPlace` in what this gives).
async function startPython(snapshot) {
  let table = null;
  const start = Boolean(snapshot && snapshot.start);
  const heap = snapshot && (start ? new Uint8Array(snapshot.size) : snapshot.bytes);
  const preparing = new Promise((resolve, reject) => {
    beforePython = async (Module) => {
      try {
        if (start) fillHeap(heap, await snapshot.bytes, snapshot.runs);
        else if (await librariesInTime(snapshot)) table = await loadLibraries(Module);
        else console.log("[bpe] Python starts before numpy's libraries have arrived");
        resolve();
      } catch (error) {
        reject(error);
      }
    };
  });
  const options = {
    indexURL: BASE + CONFIG.pyodide_dir,
    lockFileURL: BASE + CONFIG.pyodide_dir + "pyodide-lock.json",
    env: PYTHON_ENV,
  };
  if (snapshot) Object.assign(options, { _loadSnapshot: heap, _snapshotDeserializer: findObject });
  const pyodide = await Promise.race([loadPyodide(options), preparing.then(() => new Promise(() => {}))]);
  if (snapshot && !start && table !== snapshot.table) {
    throw new Error(`numpy's libraries took table slots up to ${table}, not ${snapshot.table} as when ` +
                    "the snapshot was made");
  }
  const kept = snapshot && !start;
  if (kept) loadLater();  // (otherwise once the first screen has answered: startFirstScreen)
  mark("python-started");  // then its files: measured, the bundles arrive about now, so nothing waits long
  // From a kept snapshot, Python has imported everything already: only the app's folder is needed
  // before the page renders (the working directory), and the rest is written while it does. From
  // the build's, the first screen's files are (a share link's code is imported from them).
  await writeBundles(pyodide, kept ? [CONFIG.app_bundle] : CONFIG.first_bundles, kept ? "app-bundle" : "first-bundles");
  for (const [name, version] of Object.entries(CONFIG.bundled_packages)) {
    pyodide.loadedPackages[name] = "bundle";
  }
  return { pyodide, table, inPlace: start };
}

// numpy's libraries, if Python started without them: loaded now, before Panel (Bokeh imports
// numpy). Emscripten then takes their memory from malloc, so this visit's heap cannot be the next
// one's snapshot.
async function librariesLate(pyodide) {
  await loadLibraries(pyodide._module);
  console.log("[bpe] numpy's libraries were loaded after Python started: no snapshot this visit");
  return null;
}

