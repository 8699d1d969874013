// Python's main module as Emscripten linked it, under Node: the table, the GOT and the imports,
// as JSON (tests/test_pyodide_link.py compares the pinned pyodide.asm.js's with the build's).
//   node tests/pyodide_link_dump.js <pyodide dir> <names.json> [<numpy wheel>]
// names.json lists the symbols to read from the GOT and the imports (reading makes a lazy GOT
// entry; none: all the GOT's); with a wheel, numpy's libraries are loaded and used first.
"use strict";
const fs = require("fs");
const path = require("path");

// A table entry or an import, comparable between two runs: a wasm function's name is its index
// (in its own module), a JavaScript function's is its own.
const describe = (f) => f == null ? String(f)
  : typeof f === "function" ? `function ${f.name}/${f.length}`
  : typeof f === "number" ? `number ${f}` : typeof f;

function dump(module, names) {
  const imports = module.LDSO.loadedLibsByName.__main__.exports;
  // A JavaScript function's slot holds a wasm function made for it (named by its index in the
  // module that made it): said as the function it calls.
  const wraps = {};
  for (const [name, entry] of Object.entries(module.GOT)) {
    const f = imports[name];
    if (typeof f === "function" && !/^\d+$/.test(f.name)) wraps[entry.value] = `calls ${name}/${f.length}`;
  }
  const table = [];
  for (let i = 0; i < module.wasmTable.length; i++) table.push(wraps[i] || describe(module.wasmTable.get(i)));
  const got = {}, given = {};
  for (const name of names) {
    got[name] = module.GOT[name] ? module.GOT[name].value : null;
    given[name] = describe(imports[name]);
  }
  return { table, got, imports: given };
}

async function main() {
  const [dir, namesFile, wheel] = process.argv.slice(2);
  const { loadPyodide } = require(path.resolve(dir, "pyodide.js"));
  const pyodide = await loadPyodide({ indexURL: path.resolve(dir) + "/" });
  const names = JSON.parse(fs.readFileSync(namesFile, "utf8"));
  const out = {};
  if (wheel) {
    await pyodide.loadPackage(path.resolve(wheel));
    out.numpy = pyodide.runPython("import numpy; str(numpy.arange(12).reshape(3, 4).sum(axis=0))");
  }
  out.dump = dump(pyodide._module, names.length ? names : Object.keys(pyodide._module.GOT));
  console.log("DUMP " + JSON.stringify(out));
}

main().catch((error) => {
  console.error(String(error && error.stack || error));
  process.exit(1);
});
