// Python's start, afresh or from a snapshot, then the files it imports (numpy's libraries: libraries.js).
//
// Emscripten runs the functions in `preRun` before Python starts (the last one given first); this
// one writes the build's snapshot's heap in, or loads numpy's shared libraries. (_createPyodideModule is the Emscripten module's factory,
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

// Python's environment: given at its start, and again after the build's snapshot (made elsewhere).
// Panel's address for its files is a stand-in in the build's snapshot of the app (app_snapshot.js).
const PYTHON_ENV = {
  HOME: "/home/pyodide", PANEL_CDN_ROOT: (MAKE_APP_SNAPSHOT ? CDN_STAND_IN : BASE) + CONFIG.panel_cdn_root,
};

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

// A snapshot is {bytes, table[, read]} (kept by this browser: `read` says when `bytes` are all
// there, see keptSnapshot), or the build's {bytes: a promise, size, runs, table, start: true}:
// Pyodide is given a heap of its size to fill. Either way the Emscripten module is made (0.2-0.3 s)
// while the bytes come; they are written in before Python starts. A kept snapshot
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
        if (snapshot && snapshot.read) await snapshot.read;  // a kept one, read meanwhile
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
