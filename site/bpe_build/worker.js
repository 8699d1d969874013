// Web worker that runs the Panel app in Pyodide, self-hosted (template: build.py fills in CONFIG).
// It speaks the same protocol as the worker of `panel convert --to pyodide-worker`, so the page
// Panel generated works unchanged: status / render / patch / idle messages to the page,
// rendered / patch / location messages from it.
"use strict";
const CONFIG = __CONFIG__;
const BASE = new URL(".", self.location.href).href;
const T0 = performance.now();

function mark(what) {
  console.log(`[bpe-timing] ${what} ${Math.round(performance.now() - T0)} ms`);
}

function status(msg) {
  self.postMessage({ type: "status", msg: msg });
}

function sendPatch(patch, buffers, msg_id) {
  self.postMessage({ type: "patch", patch: patch, buffers: buffers });
}

// Every file Pyodide and the app need at start-up is fetched right away, while pyodide.js loads, by
// a worker of its own running shipped.js (so inflating and checking them use the other core):
// Pyodide's own files (wasm, JS, stdlib, lock) together, then the bundles. Pyodide asks for its
// files with fetch(), which is routed here for the shipped ones, so it gets them inflated and checked.
const SHIPPED = CONFIG.shipped;  // path Pyodide or the worker asks for -> shipped entry
const SHIPPED_JS = __SHIPPED_JS__;
const fetcher = new Worker(URL.createObjectURL(new Blob([SHIPPED_JS], { type: "text/javascript" })),
                           { name: "bpe-shipped" });
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
fetcher.postMessage({ base: BASE, load: [  // Pyodide's own files first, then the bundles
  Object.entries(SHIPPED).filter(([path]) => !CONFIG.bundles.includes(path)).map(([, entry]) => entry),
  CONFIG.bundles.map((path) => SHIPPED[path]),
] });

const fetchAnything = self.fetch.bind(self);
self.fetch = (resource, options) => {
  const url = new URL(resource instanceof Request ? resource.url : resource, BASE).href;
  const path = url.startsWith(BASE) ? url.slice(BASE.length) : null;
  if (path === null || !(path in SHIPPED)) return fetchAnything(resource, options);
  return LOADS[path].then((bytes) => new Response(bytes, { headers: { "Content-Type": SHIPPED[path].type } }));
};

// A bundle (see make_bundle in bundles.py) is [4-byte length][JSON [[path, size], ...]][file contents].
function writeBundle(FS, bytes) {
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
  }
  return entries.length;
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

// Start-up does a burst of allocation (imports, building the app); the cyclic garbage collector
// would walk the growing heap again and again, so it is off until the document is written and then
// everything that survived start-up is frozen out of later collections.
const RUN_APP = `
import gc, os, runpy, sys
gc.disable()
os.makedirs(APP_DIR, exist_ok=True)
os.chdir(APP_DIR)
if APP_DIR not in sys.path:
    sys.path.insert(0, APP_DIR)

import panel
mark("import-panel")
from panel.io.pyodide import init_doc, write_doc
init_doc()
if THEME:  # Panel's dark widgets, as the system asks (the page's own CSS follows it too); per document
    panel.config.theme = THEME
runpy.run_path(os.path.join(APP_DIR, "app.py"), run_name="__main__")
mark("app-built")
_result = await write_doc()
gc.freeze()
gc.enable()
_result
`;

async function startApplication() {
  status("Loading Python");
  await loadPyodideModule();
  const pyodide = await loadPyodide({
    indexURL: BASE + CONFIG.pyodide_dir,
    lockFileURL: BASE + CONFIG.pyodide_dir + "pyodide-lock.json",
    env: { HOME: "/home/pyodide", PANEL_CDN_ROOT: BASE + CONFIG.panel_cdn_root },
  });
  self.pyodide = pyodide;
  mark("pyodide");
  pyodide.globals.set("sendPatch", sendPatch);
  pyodide.globals.set("mark", mark);
  status("Loading packages");
  // No pyodide.loadPackage: its bookkeeping costs ~0.2 s per package, and numpy's shared libraries
  // load on import anyway (synchronous compiling is allowed in a worker).
  const bundles = await Promise.all(CONFIG.bundles.map((path) => LOADS[path]));
  mark("bundles-fetched");
  let files = 0;
  for (const bundle of bundles) {
    files += writeBundle(pyodide.FS, bundle);
  }
  for (const [name, version] of Object.entries(CONFIG.bundled_packages)) {
    pyodide.loadedPackages[name] = "bundle";
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  console.log(`[bpe] wrote ${files} files`);
  mark("written");
  // numpy's shared libraries are compiled asynchronously (off this thread) while Python imports
  // modules that do not need them; otherwise `import numpy` compiles them synchronously.
  // loadDynlib is Pyodide's internal API (the one loadPackage uses), fine with a pinned Pyodide.
  const preloading = (async () => {
    for (const library of CONFIG.preload_libraries) {
      await pyodide._api.loadDynlib(library, false);
    }
  })().catch((error) => console.warn("preloading shared libraries failed; numpy will load them itself", error));
  pyodide.runPython(`import ${CONFIG.import_first.join(", ")}`);
  mark("imported-first");
  await preloading;
  mark("packages");
  status("Starting the app");
  pyodide.globals.set("APP_DIR", CONFIG.app_dir);
  pyodide.globals.set("THEME", new URL(self.location.href).searchParams.get("theme") === "dark" ? "dark" : null);
  const [docs_json, render_items, root_ids] = await pyodide.runPythonAsync(RUN_APP);
  mark("app");
  const from = Object.values(sources);
  console.log(`[bpe] shipped files: ${from.filter((s) => s === "cache").length} from the cache, ` +
              `${from.filter((s) => s === "network").length} from the network`);
  self.postMessage({ type: "render", docs_json: docs_json, render_items: render_items, root_ids: root_ids });
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
    // Only now, with this build's files all loaded, forget those of earlier builds.
    fetcher.postMessage({ prune: CONFIG.keep, base: BASE });
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
  queue = queue.then(() => handle(event.data)).catch((error) => console.error(error));
};
