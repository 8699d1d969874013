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

importScripts(BASE + CONFIG.pyodide_dir + "pyodide.js");

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
runpy.run_path(os.path.join(APP_DIR, "app.py"), run_name="__main__")
mark("app-built")
_result = await write_doc()
gc.freeze()
gc.enable()
_result
`;

async function startApplication() {
  status("Loading Python");
  const appArchive = fetch(BASE + CONFIG.app_archive).then((response) => {
    if (!response.ok) throw new Error(`${CONFIG.app_archive}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
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
  await pyodide.loadPackage(CONFIG.packages, {
    messageCallback: () => {},
    errorCallback: (message) => console.warn(message),
  });
  mark("packages");
  pyodide.unpackArchive(await appArchive, "zip", { extractDir: CONFIG.app_dir });
  status("Starting the app");
  pyodide.globals.set("APP_DIR", CONFIG.app_dir);
  const [docs_json, render_items, root_ids] = await pyodide.runPythonAsync(RUN_APP);
  mark("app");
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
