// Files the build ships compressed under content-hashed names (see ship.py). The page and the
// worker both fetch them with bpeShipped.load, which inflates them (gzip with the browser's own
// DecompressionStream, brotli with brotli-dec-wasm) and keeps what it fetched in the Cache API,
// inflated, so a second visit reads them from disk. A name changes whenever its content does, so a
// kept file is never one of another build.
//
// An entry is {file, sha256, type, codec, packed, kept[, smaller]}: `file` is relative to the site's
// folder and `sha256` is of the inflated bytes, so a host that decompresses gzip for the browser
// (Content-Encoding) is fine as well; `kept` is the name it is kept under, inflated, whatever codec
// brought it; `smaller` ({file, codec, packed}) is the same file with brotli, taken over a slow link
// (codecFor). A file is inflated as it arrives. The app's worker runs this script in a worker of
// its own ("bpe-shipped", shipped_worker.js), so that inflating and checking 50 MB use the other
// core while Pyodide starts.
const bpeShipped = (() => {
  const sources = {};  // file -> "cache" | "network", for the console summary and the tests
  const KEPT_INFLATED = "X-Bpe-Kept-Inflated";

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  // The body's bytes, inflated unless the host did so already (a gzip file without its header:
  // hosts map no Content-Encoding to a brotli file's suffix, see ship.py). The body is read
  // as fast as it comes (a queue with no bound), not at inflating's pace, so that `wired` is called
  // when the last byte is here: the link's pace, apart from this machine's (see files.js);
  // `progress` is told the bytes here so far, chunk by chunk. The inflated bytes are written into
  // one array of the `size` they should have as they come (in Chromium, 141-174 ms for the 21 MB
  // start snapshot against 204-413 ms gathered into a Blob); with more than that, it is not the
  // file the build named (null).
  async function inflate(body, codec, base, size, { wired = () => {}, progress = () => {} }) {
    const reader = body.getReader();
    const head = [];
    let length = 0;
    for (let chunk; length < 2 && !(chunk = await reader.read()).done; length += chunk.value.length) {
      head.push(chunk.value);
      progress(length + chunk.value.length);
    }
    const start = new Uint8Array(await new Blob(head).arrayBuffer());
    const whole = new ReadableStream({
      start(controller) { if (start.length) controller.enqueue(start); },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          wired();
          controller.close();
        } else {
          length += value.length;
          progress(length);
          controller.enqueue(value);
        }
      },
    }, { highWaterMark: Infinity });
    const gzip = start[0] === 0x1f && start[1] === 0x8b;
    const stream = codec === "brotli" ? whole.pipeThrough(unbrotli(base))
      : gzip ? whole.pipeThrough(new DecompressionStream("gzip")) : whole;
    // Read here, not with Response.arrayBuffer, which reports any error of the stream as
    // "Failed to fetch": the inflater's own reason is what the page shows.
    const bytes = new Uint8Array(size);
    let at = 0;
    const inflated = stream.getReader();
    for (let chunk; !(chunk = await inflated.read()).done; at += chunk.value.length) {
      if (at + chunk.value.length > size) {
        await inflated.cancel();
        return null;
      }
      bytes.set(chunk.value, at);
    }
    return at === size ? bytes : bytes.subarray(0, at);
  }

  // The brotli decoder (brotli-dec-wasm: wasm-bindgen's module and its wasm), loaded once, as shipped
  // files like any other (gzip, which the browser inflates itself). A second visit rarely needs it:
  // what it inflated is kept inflated.
  const DECODER = __BROTLI_DECODER__;
  let decoder = null;
  function brotliDecoder(base) {
    decoder ??= (async () => {
      const [module, wasm] = await Promise.all([load(DECODER.module, base), load(DECODER.wasm, base)]);
      const url = URL.createObjectURL(new Blob([module], { type: "text/javascript" }));
      const brotli = await import(url);
      URL.revokeObjectURL(url);
      await brotli.default({ module_or_path: wasm });
      return brotli;
    })();
    return decoder;
  }

  // A brotli stream inflated chunk by chunk as it arrives, with the decoder's streaming API: each
  // call takes what input it can and gives at most OUTPUT bytes, saying whether it wants more room,
  // more input, or is done. A damaged stream throws, and so fails the load.
  const OUTPUT = 1 << 20;
  function unbrotli(base) {
    let brotli, state, done = false;
    return new TransformStream({
      async start() {
        brotli = await brotliDecoder(base);
        state = new brotli.BrotliDecStream();
      },
      transform(chunk, controller) {
        for (let more = true; more;) {
          const result = state.dec(chunk, OUTPUT);
          const { code, buf } = result;
          chunk = chunk.subarray(result.input_offset);
          result.free();
          if (buf.length) controller.enqueue(buf);
          done = code === brotli.BrotliStreamResultCode.ResultSuccess;
          more = code === brotli.BrotliStreamResultCode.NeedsMoreOutput;
        }
      },
      flush() {
        state.free();
        if (!done) throw new Error("the brotli stream ends before its last block");
      },
    });
  }

  async function checked(response, entry, base, told = {}) {
    // A kept file is kept inflated (and says so); one from the server may be either.
    const inflated = response.headers.get(KEPT_INFLATED)
      ? new Uint8Array(await response.arrayBuffer()) : await inflate(response.body, entry.codec, base, entry.size, told);
    return inflated && hex(await crypto.subtle.digest("SHA-256", inflated)) === entry.sha256 ? inflated : null;
  }

  // One cache per site folder, so two sites under one host keep apart.
  function openCache(base) {
    if (!self.caches) return Promise.resolve(null);  // not a secure context: no Cache API
    return caches.open(`bpe-site ${new URL(base).pathname}`).catch(() => null);
  }

  // Of a file fetched from the server, `wired(start, end)` is told once it is all here, not yet
  // inflated (performance.now() of its request and of its last byte), and `progress(bytes)` how
  // much of it is here so far; with `keep` false it is not kept (the build's snapshot: a visit that
  // keeps a snapshot of its own never wants it again, and copying 21 MB into the cache slows the start).
  // A file not kept is fetched only once `fetchAfter()` (a promise) has come, and a fetched one is
  // written into the cache once `keepAfter()` has: both cost the machine's cores while the first
  // answer is being made (see files.js and page_loader.js).
  const now = () => undefined;
  async function load(entry, base, { wired = () => {}, progress = () => {}, keep = true, fetchAfter = now,
                                     keepAfter = now } = {}) {
    const url = new URL(entry.file, base).href;
    const key = new URL(entry.kept, base).href;
    const cache = await openCache(base);
    const kept = cache && await cache.match(key).catch(() => undefined);
    let mode = "default";  // the browser's HTTP cache may answer: the name fixes the content
    if (kept) {
      const bytes = await checked(kept, entry, base).catch(() => null);
      if (bytes) {
        sources[entry.file] = "cache";
        return bytes;
      }
      await cache.delete(key);  // damaged: ask the server again
      mode = "reload";
    }
    await fetchAfter();
    const asked = performance.now();
    const response = await fetch(url, { cache: mode });
    if (!response.ok) throw new Error(`${entry.file}: HTTP ${response.status}`);
    const bytes = await checked(response, entry, base, { wired: () => wired(asked, performance.now()), progress });
    if (!bytes) throw new Error(`${entry.file}: not the file this page was built with (sha256 differs)`);
    // Kept inflated, so that a later visit only reads and checks it: inflating the 23 MB bundle
    // alone takes about 0.4 s. (A Response copies the bytes it is made from; a full disk only
    // means the next visit fetches the file again.)
    const headers = { "Content-Type": entry.type, [KEPT_INFLATED]: "1" };
    if (cache && keep) {
      const response = new Response(bytes, { headers });  // (a copy: the bytes may be transferred meanwhile)
      Promise.resolve(keepAfter()).then(() => cache.put(key, response)).catch(() => {});
    }
    sources[entry.file] = "network";
    return bytes;
  }

  // Forget every kept file that this build does not name (those of earlier builds).
  async function prune(base, files) {
    const cache = await openCache(base);
    if (!cache) return 0;
    const keep = new Set(files.map((file) => new URL(file, base).href));
    const old = (await cache.keys()).filter((request) => !keep.has(request.url));
    await Promise.all(old.map((request) => cache.delete(request)));
    return old.length;
  }

  // The link's pace from files fetched so far, each as [start, end, bytes as shipped]: bytes per ms
  // while any of them was on its way (0: none yet). Only the link counts: a file is timed up to its
  // last byte, before inflating, and the time no file was on its way is left out, so that a busy
  // machine is not taken for a slow link.
  //   pace([[0, 10, 1000], [5, 20, 1000], [30, 40, 500]]) === 2500 / 30
  function pace(spans) {
    let busy = 0, reached = -Infinity, bytes = 0;
    for (const [start, end, size] of [...spans].sort((a, b) => a[0] - b[0])) {
      busy += Math.max(0, end - Math.max(start, reached));
      reached = Math.max(reached, end);
      bytes += size;
    }
    return busy > 0 ? bytes / busy : 0;
  }

  // A link slow enough that bytes, not this machine, are what the first answer waits for: below
  // 100 Mbit/s (measured in turn on 2 cores, see codecFor). An unknown pace (every file so far from
  // the cache) is not slow.
  const SLOW = 100e6 / 8 / 1000;  // 100 Mbit/s, in bytes per ms
  function slow(bytesPerMs) {
    return bytesPerMs > 0 && bytesPerMs < SLOW;
  }

  // The variant of an entry to fetch at the link's pace: brotli (`smaller`) where the bytes it saves
  // take longer to come than inflating it in WebAssembly takes over gzip. Measured in turn on 2 cores
  // (docs/benchmarks.md, "Issue 40, the codec by the link"): over 20 Mbit/s brotli brings the first
  // edit 0.65 s sooner, over 80 Mbit/s about as soon or sooner; on localhost 0.4 s later. So brotli
  // over a slow link, gzip otherwise.
  function codecFor(entry, bytesPerMs) {
    return entry.smaller && slow(bytesPerMs) ? { ...entry, ...entry.smaller } : entry;
  }

  return { load, prune, openCache, sources, pace, slow, codecFor };
})();
