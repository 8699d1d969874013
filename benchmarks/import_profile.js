// Where the worker's imports spend their time, by package: the built site's own files (dist/) in
// the pinned Pyodide under Node, imported in the worker's order (the first screen, then Bokeh's
// models, Panel and the app), each module timed without the modules it imports (self time).
//
//   node benchmarks/import_profile.js [dist] [pyodide package dir]
//
// Defaults: dist/ and .cache/pyodide-<version>/ (both made by `python3 build.py build`). Node's V8
// runs the same wasm as Chromium's, alone on a core; in the page the same imports take longer
// (the page's own scripts and the file worker share the 2 cores): compare shares, not seconds.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const ROOT = path.resolve(__dirname, "..");
const dist = path.resolve(process.argv[2] || path.join(ROOT, "dist"));
const worker = fs.readdirSync(dist).find((name) => /^app\.[0-9a-f]+\.js$/.test(name));
const source = fs.readFileSync(path.join(dist, worker), "utf8");
const start = source.indexOf("const CONFIG = ") + "const CONFIG = ".length;
const CONFIG = JSON.parse(source.slice(start, source.indexOf("\n};", start) + 2));
const pyodideDir = path.resolve(process.argv[3] ||
  path.join(ROOT, ".cache", fs.readdirSync(path.join(ROOT, ".cache")).find((name) => /^pyodide-[0-9.]+$/.test(name))));

function shipped(name) {  // a shipped file of dist/, inflated (gzip, or brotli if that is all it was shipped as)
  const entry = CONFIG.shipped[name];
  const inflate = entry.codec === "brotli" ? zlib.brotliDecompressSync : zlib.gunzipSync;
  return new Uint8Array(inflate(fs.readFileSync(path.join(dist, entry.file))));
}

function writeBundle(FS, bytes) {  // as the worker does (see writingBundle there)
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const entries = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  let offset = 4 + length;
  for (const [file, size] of entries) {
    FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    FS.writeFile(file, bytes.subarray(offset, offset + size));
    offset += size;
  }
}

const PROFILE = `
import collections, gc, importlib._bootstrap as bootstrap, importlib.machinery, os, sys, time
gc.disable()  # as in the worker
for finder in sys.path_importer_cache.values():
    if isinstance(finder, importlib.machinery.FileFinder):
        finder.invalidate_caches()
os.chdir(APP_DIR)
sys.path.insert(0, APP_DIR)
load, stack, rows = bootstrap._load_unlocked, [], []
def timed(spec):
    started = time.perf_counter()
    stack.append(0.0)
    try:
        return load(spec)
    finally:
        spent = time.perf_counter() - started
        inner = stack.pop()
        if stack:
            stack[-1] += spent
        rows.append((spent - inner, spec.name))
bootstrap._load_unlocked = timed
steps = []
for name in ("bpe_app.first_screen", "bokeh.models", "panel", "bpe_app.app"):
    started = time.perf_counter()
    __import__(name)
    steps.append(f"{name} {time.perf_counter() - started:.3f} s")
bootstrap._load_unlocked = load
by_package = collections.Counter()
for spent, name in rows:
    parts = name.split(".")
    by_package[".".join(parts[:2]) if parts[0] in ("panel", "bokeh", "bpe_app") else parts[0]] += spent
total = sum(by_package.values())
print("import, step by step: " + ", ".join(steps))
print(f"self time by package ({total:.2f} s in all):")
for package, spent in by_package.most_common(25):
    print(f"  {spent:6.3f} s {100 * spent / total:5.1f} %  {package}")
`;

(async () => {
  globalThis.XMLHttpRequest = class {};  // Panel's Pyodide module imports it; never called here
  const { loadPyodide } = require(path.join(pyodideDir, "pyodide.js"));
  const started = performance.now();
  const stdlib = shipped(CONFIG.pyodide_dir + "python_stdlib.zip");
  fs.writeFileSync(path.join(require("os").tmpdir(), "bpe-start-stdlib.zip"), stdlib);
  const pyodide = await loadPyodide({
    indexURL: pyodideDir + "/", stdLibURL: path.join(require("os").tmpdir(), "bpe-start-stdlib.zip"),
    env: { HOME: "/home/pyodide" }, stdout: (line) => console.log(line),
  });
  console.log(`loadPyodide with the site's start stdlib: ${((performance.now() - started) / 1000).toFixed(2)} s`);
  writeBundle(pyodide.FS, shipped(CONFIG.libraries_bundle));
  for (const library of CONFIG.preload_libraries) {
    await pyodide._module.loadDynamicLibrary(library, { loadAsync: true, nodelete: true, allowUndefined: true, global: false, fs: pyodide.FS }, {});
  }
  for (const bundle of [...CONFIG.first_bundles, ...CONFIG.bundles]) writeBundle(pyodide.FS, shipped(bundle));
  pyodide.globals.set("APP_DIR", CONFIG.app_dir);
  pyodide.runPython(PROFILE);
})().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
