// numpy's shared libraries: loaded before Python starts where they come in time (a kept snapshot
// needs them), after the first answer at the build's snapshot's places, or late, before Panel.
//
// Each is loaded as Pyodide's loadDynlib loads a package's libraries. Before Python
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

// numpy's libraries, if Python started without them: loaded now, before Panel (Bokeh imports
// numpy). Emscripten then takes their memory from malloc, so this visit's heap cannot be the next
// one's snapshot.
async function librariesLate(pyodide) {
  await loadLibraries(pyodide._module);
  console.log("[bpe] numpy's libraries were loaded after Python started: no snapshot this visit");
  return null;
}

