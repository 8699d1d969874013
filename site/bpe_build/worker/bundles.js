// Bundles: many files in one download, written into Pyodide's file system.
//
// A bundle (see make_bundle in bundles.py) is [4-byte length][JSON [[path, size], ...]][file contents].
// Written a file at a time (a generator), so that a long write can let the first screen's events in.
function* writingBundle(FS, bytes) {
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const entries = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)));
  const directories = new Set();
  let offset = 4 + headerLength;
  for (const [path, size] of entries) {
    const directory = path.slice(0, path.lastIndexOf("/"));
    if (!directories.has(directory)) {
      FS.mkdirTree(directory);
      directories.add(directory);
    }
    // The file's contents are a view into the bundle: no copy, and none of FS.writeFile's
    // open/write/close, which costs about twice as much for ~2,000 files. MEMFS's own fields (as
    // MEMFS.write sets them for a new file), fine with a pinned Pyodide; S_IFREG | 0666 as writeFile.
    let node = null;
    try {
      node = FS.mknod(path, 0o100666, 0);
    } catch (error) {  // the file exists already: replace its contents the ordinary way
      FS.writeFile(path, bytes.subarray(offset, offset + size));
    }
    if (node) {
      node.contents = bytes.subarray(offset, offset + size);
      node.usedBytes = size;
    }
    offset += size;
    yield;
  }
}

function writeBundle(FS, bytes) {
  let files = 0;
  for (const _ of writingBundle(FS, bytes)) files += 1;
  return files;
}

