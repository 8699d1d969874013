// Pyodide's loader and its Emscripten module, from the shipped files.
//
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

