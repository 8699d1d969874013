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
  if (standIn) patch = patchAtThisAddress(patch);  // (app_snapshot.js)
  self.postMessage({ type: "patch", patch: patch, buffers: buffers });
}

