// Runs a Python file inside the pinned Pyodide under Node, with this repository at /repo.
//   node tests/pyodide_run.js <pyodide package dir> <repo dir> <script.py>
// Exits non-zero if the script raises. Used by tests/test_pyodide_core.py.
"use strict";
const path = require("path");

async function main() {
  const [pyodideDir, repo, script] = process.argv.slice(2);
  const { loadPyodide } = require(path.resolve(pyodideDir, "pyodide.js"));
  const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
  pyodide.FS.mkdir("/repo");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(repo) }, "/repo");
  pyodide.runPython("import sys; sys.path.insert(0, '/repo')");
  pyodide.runPython(require("fs").readFileSync(script, "utf8"));
}

main().catch((error) => {
  console.error(String(error));
  process.exit(1);
});
