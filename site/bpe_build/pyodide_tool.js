// Build-time helper: runs the pinned Pyodide under Node (no browser, no network).
//
//   node pyodide_tool.js precompile <pyodide package dir> <jobs.json>
//
// jobs.json is a list of {src, dst, kind, prefix?, keep_source?, optimize?}: kind "wheel" rewrites a wheel so
// that every .py file becomes a sourceless .pyc compiled by Pyodide's own CPython 3.12 (the file
// names inside the code objects are the paths the files get in the browser); kind "stdlib" does the
// same for python_stdlib.zip. With keep_source the .py files stay and unchecked hash-based pycs are
// added in __pycache__/ (tracebacks keep their source lines). `optimize` is compile()'s (2: without
// docstrings and asserts, as python -OO; for sourceless pycs only). Host files are reached through a
// NODEFS mount at /host.
"use strict";
const path = require("path");

const PRECOMPILE = `
import json, sys, zipfile, importlib.util, importlib._bootstrap_external as bootstrap

SITE = "/lib/python3.12/site-packages/"
STDLIB = "/lib/python312.zip/"
# Files that must keep their source: none known so far (Pyodide's own pyc distribution is sourceless).
KEEP_SOURCE = ()

def pyc_bytes(source, filename, optimize=0):
    code = compile(source, filename, "exec", dont_inherit=True, optimize=optimize)
    return bytes(bootstrap._code_to_timestamp_pyc(code, 0, 0))

def cached_pyc_bytes(source, filename):
    """An unchecked hash-based pyc: used without looking at the source's mtime (which unpacking resets)."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    return bytes(bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))

def rewrite(src, dst, prefix, keep_source, optimize):
    count = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst + ".tmp", "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            name = info.filename
            if name.endswith(".py") and not name.endswith(KEEP_SOURCE) and ".dist-info/" not in name:
                try:
                    if keep_source:  # foo.py stays, __pycache__/foo.cpython-312.pyc is added
                        directory, _, base = name.rpartition("/")
                        pyc_name = (directory + "/" if directory else "") + "__pycache__/" + base[:-3] + f".{sys.implementation.cache_tag}.pyc"
                        pyc = cached_pyc_bytes(data, prefix + name)
                    else:  # foo.py is replaced by a sourceless foo.pyc
                        pyc_name = name + "c"
                        pyc = pyc_bytes(data, prefix + name, optimize)
                except SyntaxError:
                    pass  # e.g. templates named .py; ship them as they are
                else:
                    out = zipfile.ZipInfo(pyc_name, date_time=info.date_time)
                    out.compress_type = zipfile.ZIP_DEFLATED
                    out.external_attr = info.external_attr
                    zout.writestr(out, pyc)
                    count += 1
                    if not keep_source:
                        continue
            zout.writestr(info, data)
    import os
    os.replace(dst + ".tmp", dst)
    return count

def run(jobs_json):
    total = 0
    jobs = json.loads(jobs_json)
    for number, job in enumerate(jobs, 1):
        prefix = job.get("prefix") or (STDLIB if job["kind"] == "stdlib" else SITE)
        n = rewrite("/host" + job["src"], "/host" + job["dst"], prefix, job.get("keep_source", False),
                    job.get("optimize", 0))
        print(f"  precompiled {number} of {len(jobs)} archives: {job['dst'].rsplit('/', 1)[-1]}, {n} modules", flush=True)
        total += n
    return total
`;

async function main() {
  const [command, pyodideDir, jobsFile] = process.argv.slice(2);
  if (command !== "precompile") {
    throw new Error(`unknown command ${command}`);
  }
  const { loadPyodide } = require(path.resolve(pyodideDir, "pyodide.js"));
  const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
  pyodide.FS.mkdir("/host");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: "/" }, "/host");
  const jobs = require("fs").readFileSync(path.resolve(jobsFile), "utf8");
  pyodide.runPython(PRECOMPILE);
  pyodide.globals.get("run")(jobs);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
