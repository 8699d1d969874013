// Linking Python's main module as Emscripten does, in less time (pyodide_link.py puts it into the
// pinned pyodide.asm.js).
//
// Emscripten links the main module on every visit before Python starts: a GOT entry (a
// WebAssembly.Global) for each of its 9,837 exports, a table slot for each exported function not
// already in the table (grown one slot at a time), each export copied into the imports, then a
// small wasm module compiled for each of the 169 JavaScript functions whose address is taken.
// That is about 0.1 s on 2 cores. Here the result is the same, slot for slot (every snapshot
// depends on the table's layout):
// - the table slots are given in the same order, after one grow;
// - a GOT entry is made when it is first asked for (a side module's import, dlsym); the entries
//   the main module imports itself are set at once, as before;
// - the imports find the exports through their prototype (an import defined in JavaScript still
//   comes first);
// - the JavaScript functions are wrapped by one module.
// tests/test_pyodide_link.py compares the table, the GOT and the imports with Emscripten's own.

// relocateExports(exports, memoryBase) for the main module.
var bpeLinkMain = (exports, memoryBase) => {
  var relocated = {}, linked = Object.create(null);
  for (var e in exports) {
    var value = exports[e];
    if (typeof value == "object") value = value.value;
    if (typeof value == "number") value += memoryBase;
    relocated[e] = value;
  }
  // The slots addFunction would give, in the order updateGOT asks for them.
  if (!functionsInTableMap) {
    functionsInTableMap = new WeakMap;
    updateTableMap(0, wasmTable.length);
  }
  var start = wasmTable.length, added = [];
  for (var sym in relocated) {
    if (sym[0] == "_" && isInternalSym(sym)) continue;  // (each internal name starts with _)
    var value = relocated[sym];
    if (typeof value == "function") {
      var slot = functionsInTableMap.get(value);
      if (!slot) {
        slot = start + added.length;
        functionsInTableMap.set(value, slot);
        added.push(value);
      }
      linked[sym] = slot;
    } else if (typeof value == "number") {
      linked[sym] = value;
    } else {
      err(`unhandled export type for '${sym}': ${typeof value}`);
    }
  }
  if (added.length) {
    wasmTable.grow(added.length);
    for (var i = 0; i < added.length; i++) setWasmTableEntry(start + i, added[i]);
  }
  for (var sym of Object.keys(GOT)) {  // the main module's own GOT imports
    if (sym in linked && GOT[sym].value == 0) GOT[sym].value = linked[sym];
  }
  // Any other entry, when first read (`GOT[sym]`): made then, with the value it would have had.
  Object.setPrototypeOf(GOT, new Proxy(linked, {
    get(target, sym, receiver) {
      if (typeof sym == "string" && Object.hasOwn(target, sym)) {
        var entry = new WebAssembly.Global({ "value": "i32", "mutable": true });
        entry.value = target[sym];
        Object.defineProperty(receiver, sym, { value: entry, writable: true, enumerable: true, configurable: true });
        return entry;
      }
      return Reflect.get(Object.prototype, sym, receiver);
    },
  }));
  return relocated;
};

// mergeLibSymbols(exports, "main"): an import not defined in JavaScript is the export.
var bpeMergeMain = (exports) => {
  for (var sym of Object.keys(wasmImports)) {  // a stub or an empty value gives way, as there
    if (sym in exports && !isSymbolDefined(sym)) wasmImports[sym] = exports[sym];
  }
  Object.setPrototypeOf(wasmImports, exports);
  var main_alias = "__main_argc_argv";
  if ("main" in exports && !isSymbolDefined(main_alias)) wasmImports[main_alias] = exports["main"];
  if (main_alias in exports && !isSymbolDefined("main")) wasmImports["main"] = exports[main_alias];
  for (var sym in exports) {
    if (sym.startsWith("dynCall_") && !Module.hasOwnProperty(sym)) Module[sym] = exports[sym];
  }
};

// The JavaScript functions reportUndefinedSymbols is about to put in the table, each wrapped as
// convertJsFunctionToWasm would (an import re-exported with the function's signature), all in
// one module: it then finds them in bpeWrapped.
var bpeWrapped = new WeakMap;
var bpeWrapJs = () => {
  var list = [], seen = new Set;
  for (var [sym, entry] of Object.entries(GOT)) {
    if (entry.value != 0) continue;
    var func = resolveGlobalSymbol(sym, true).sym;
    // (a wasm function is put in the table as it is: its name is its index)
    if (typeof func == "function" && typeof func.sig == "string" && !/^\d+$/.test(func.name) && !seen.has(func)) {
      seen.add(func);
      list.push(func);
    }
  }
  if (list.length < 2 || typeof WebAssembly.Function == "function") return;
  var uleb = (n, bytes) => {  // (uleb128Encode takes numbers below 2 ** 14 only)
    do {
      var low = n & 127;
      n >>>= 7;
      bytes.push(n ? low | 128 : low);
    } while (n);
  };
  var name = (text, bytes) => {
    uleb(text.length, bytes);
    for (var c of text) bytes.push(c.charCodeAt(0));
  };
  var section = (id, body, bytes) => {
    bytes.push(id);
    uleb(body.length, bytes);
    bytes.push(...body);
  };
  var types = [], typeOf = {}, given = {};
  for (var func of list) {
    if (!(func.sig in typeOf)) {
      typeOf[func.sig] = types.length;
      types.push(func.sig);
    }
  }
  var typeBody = [], importBody = [], exportBody = [];
  uleb(types.length, typeBody);
  for (var sig of types) generateFuncType(sig, typeBody);
  uleb(list.length, importBody);
  uleb(list.length, exportBody);
  for (var i = 0; i < list.length; i++) {
    name("e", importBody);
    name(String(i), importBody);
    importBody.push(0);
    uleb(typeOf[list[i].sig], importBody);
    name(String(i), exportBody);
    exportBody.push(0);
    uleb(i, exportBody);
    given[i] = list[i];
  }
  var bytes = [0, 97, 115, 109, 1, 0, 0, 0];
  section(1, typeBody, bytes);
  section(2, importBody, bytes);
  section(7, exportBody, bytes);
  try {
    var instance = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(bytes)), { "e": given });
  } catch (error) {
    return;  // each is wrapped on its own, as before
  }
  for (var i = 0; i < list.length; i++) bpeWrapped.set(list[i], instance.exports[i]);
};
