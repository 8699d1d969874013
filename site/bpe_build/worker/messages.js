// The page's messages, handled in order once the app has started.
//
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
  if (msg.type === "files") {  // the page's port to the file worker (files.js), its first message
    fetcher.give(msg.port);
    return;
  }
  if (msg.type === "release-app") {  // (a test's: first_screen.js, HOLD_APP)
    releaseApp();
    return;
  }
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
