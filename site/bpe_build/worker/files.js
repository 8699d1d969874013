// The file cache: every shipped file fetched at once, inflated and checked by shipped.js's own worker.
//
// Every file Pyodide and the app need at start-up is fetched right away, from the page's start, by
// a worker of its own running shipped.js (so inflating and checking them use the other core), in
// the order they are needed (CONFIG.first_files, worker_config.py): Pyodide's own small files (lock, JS), whose pace picks the codec of
// the big ones (shipped.js, codecFor); its wasm and the stdlib Python's start needs (the wasm
// first: over a slow link, where the files come one at a time, it is compiled while the stdlib
// comes); the first screen's bundles (wanted once Python has started); numpy's libraries (loaded
// before Python starts if they come in time, for the snapshot: see startPython; over a slow link,
// where they do not, the file worker holds them back until they are wanted: `releaseLibraries`).
// The rest (the stdlib's other modules, Panel, Bokeh: 23 MB to inflate and check) is asked for
// once the first screen has answered, or Python has started from a snapshot (`loadLater`): on 2
// cores, inflating it while Python starts put the first answer 0.1-0.2 s later, and it is not
// wanted before then.
// Pyodide asks for its files with fetch(), which is routed here for the shipped ones, so it gets
// them inflated and checked.
const SHIPPED = CONFIG.shipped;  // path Pyodide or the worker asks for -> shipped entry
const SHIPPED_JS = URL.createObjectURL(new Blob([__SHIPPED_JS__], { type: "text/javascript" }));
importScripts(SHIPPED_JS);  // bpeShipped here too, for the site's cache (see the snapshot below)

// The file worker's port. The page starts the file worker, with the first files to load
// (CONFIG.first_files), before this script has even arrived, and gives the port in its first
// message to this worker (`?files` in this worker's address; messages.js); elsewhere (a test's
// own page) the file worker is started here. Until the port comes, what is said to it waits.
class FilePort {
  constructor() {
    this.port = null;
    this.waiting = [];
    this.onmessage = null;
  }

  give(port) {
    this.port = port;
    port.onmessage = (event) => this.onmessage(event);
    for (const args of this.waiting.splice(0)) port.postMessage(...args);
  }

  postMessage(...args) {
    if (this.port) this.port.postMessage(...args);
    else this.waiting.push(args);
  }
}
const fetcher = new FilePort();
if (!new URL(self.location.href).searchParams.has("files")) {
  const channel = new MessageChannel();
  new Worker(SHIPPED_JS, { name: "bpe-shipped" }).postMessage(
    { base: BASE, ...CONFIG.first_files, port: channel.port1 }, [channel.port1]);
  fetcher.give(channel.port2);
}
const arrived = {};  // file -> {resolve, reject}
const sources = {};  // file -> "cache" | "network"
const LOADS = Object.fromEntries(Object.entries(SHIPPED).map(([path, entry]) =>
  [path, new Promise((resolve, reject) => { arrived[entry.file] = { resolve, reject }; })]));
Object.entries(LOADS).forEach(([path, promise]) => promise.then(() => mark(`loaded:${path.split("/").pop()}`), () => {}));
// How fast the link brings the files, to judge whether numpy's libraries are worth waiting for
// (libraries.js): each file from the server, once all its bytes are here, as [asked, here, its
// size as shipped] (in the codec the file worker took), in the file worker's clock, as the browser's
// network stack timed it (shipped.js, `timed`), so that a busy machine is not taken for a slow link.
const wire = { spans: [], here: new Set() };
const PATH_OF = Object.fromEntries(Object.entries(SHIPPED).map(([path, entry]) => [entry.file, path]));
fetcher.onmessage = ({ data }) => {
  if (data.pruned) console.log(`[bpe] forgot ${data.pruned} files of earlier builds`);
  if (data.startAsked !== undefined) startAsked({ asked: data.startAsked, why: data.why });  // snapshot.js
  if (data.appAsked !== undefined) appAsked({ asked: data.appAsked, why: data.why });  // app_snapshot.js
  if (data.wired) {
    const path = PATH_OF[data.wired];
    wire.spans.push([data.start, data.end, data.packed]);
    wire.here.add(path);
  }
  if (!data.file) return;
  // The page draws its still page once the files come (still_page.js): drawing it at once held the
  // page's thread, which this worker and the file worker need to start, for 0.25 s.
  if (Object.keys(sources).length === 0) self.postMessage({ type: "files-coming" });
  sources[data.file] = data.source;
  const { resolve, reject } = arrived[data.file];
  delete arrived[data.file];  // (a file comes once; LOADS alone holds it then, see app_snapshot.js)
  if (data.error) reject(new Error(data.error));
  else resolve(new Uint8Array(data.buffer));
};
let laterAsked = false;
function loadLater() {
  if (!laterAsked) fetcher.postMessage({ base: BASE, release: true, load: [CONFIG.bundles.map((path) => SHIPPED[path])] });
  laterAsked = true;
}

// What the file worker fetched is kept in the Cache API from the first answer on (or once the page
// has its document), not while Python starts (shipped_worker.js, `keepNow`).
function keepFiles() {
  fetcher.postMessage({ base: BASE, keep: true });
}

// numpy's libraries, asked for now if the file worker held them back (a slow link): over 20 Mbit/s
// + 40 ms, inflating, checking and keeping their 4 MB while Python started made Pyodide's own
// imports 0.1-0.25 s slower (measured with V8's tiering off; docs/benchmarks.md), for files that
// Python starts without there anyway. They are wanted before Panel is imported (loadLater asks for
// them first), or before Python starts if startPython waits for them after all.
function releaseLibraries() {
  fetcher.postMessage({ base: BASE, release: true });
}

const fetchAnything = self.fetch.bind(self);
self.fetch = (resource, options) => {
  const url = new URL(resource instanceof Request ? resource.url : resource, BASE).href;
  const path = url.startsWith(BASE) ? url.slice(BASE.length) : null;
  if (path === null || !(path in SHIPPED)) return fetchAnything(resource, options);
  return LOADS[path].then((bytes) => {
    // Its body is the bytes themselves, read only if asked for: a Response made from the bytes
    // copies them at once, and on the worker's thread, which Python's start waits for (the wasm's
    // 10 MB, which instantiateStreaming below never reads).
    const body = new ReadableStream({ start(controller) { controller.enqueue(bytes); controller.close(); } });
    const response = new Response(body, { headers: { "Content-Type": SHIPPED[path].type } });
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

