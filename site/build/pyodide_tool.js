// Build-time helper: runs the pinned Pyodide under Node (no browser, no network).
//
//   node pyodide_tool.js precompile <pyodide package dir> <jobs.json>
//
// jobs.json is a list of {src, dst, kind}: kind "wheel" rewrites a wheel so that every .py file
// becomes a sourceless .pyc compiled by Pyodide's own CPython 3.12 (the file names inside the code
// objects are the paths the files get in the browser); kind "stdlib" does the same for
// python_stdlib.zip. Host files are reached through a NODEFS mount at /host.
"use strict";
const path = require("path");

const PRECOMPILE = `
import json, zipfile, importlib._bootstrap_external as bootstrap

SITE = "/lib/python3.12/site-packages/"
STDLIB = "/lib/python312.zip/"
# Files that must keep their source: none known so far (Pyodide's own pyc distribution is sourceless).
KEEP_SOURCE = ()

def pyc_bytes(source, filename):
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    return bytes(bootstrap._code_to_timestamp_pyc(code, 0, 0))

def rewrite(src, dst, prefix):
    count = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst + ".tmp", "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            name = info.filename
            if name.endswith(".py") and not name.endswith(KEEP_SOURCE) and ".dist-info/" not in name:
                try:
                    pyc = pyc_bytes(data, prefix + name)
                except SyntaxError:
                    pass  # e.g. templates named .py; ship them as they are
                else:
                    out = zipfile.ZipInfo(name + "c", date_time=info.date_time)
                    out.compress_type = zipfile.ZIP_DEFLATED
                    out.external_attr = info.external_attr
                    zout.writestr(out, pyc)
                    count += 1
                    continue
            zout.writestr(info, data)
    import os
    os.replace(dst + ".tmp", dst)
    return count

def run(jobs_json):
    total = 0
    for job in json.loads(jobs_json):
        prefix = STDLIB if job["kind"] == "stdlib" else SITE
        n = rewrite("/host" + job["src"], "/host" + job["dst"], prefix)
        print(f"  {job['dst'].rsplit('/', 1)[-1]}: {n} modules")
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
