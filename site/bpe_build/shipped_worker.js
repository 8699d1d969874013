// The file worker, "bpe-shipped": the app's worker (files.js) runs shipped.js and this file, joined
// (ship.py, shipped_js), in a worker of its own under that name.
//
// {load: [[entry, ...], ...], base[, hold: [entry, ...]]} loads the entries of each list together, a
// list once every file of the one before it is here (Pyodide's own files before the bundles, so
// that on a slow link Pyodide can start while the bundles download); the first list's pace picks
// the codec of the later ones, and over a slow link they come a file at a time in the order given
// (see `send`). `hold` comes after them, but over a slow link only once a message says {release: true}
// (its `load` then comes after the held list). It answers file by file with {wired: file, start, end, packed}
// once a file from the server is all here (when it was asked for and when it was all here, in this
// worker's clock; see `timed`), then {file, buffer, source} or {file, error};
// {prune: [kept name, ...], base} is answered with {pruned: count}; {start, base} and {app, base}
// ask for the build's snapshots (`sendSnapshot`).
// It talks with the app's worker over a port, which comes in its first message ({port}, with the
// first files to load): the page starts it, and asks for those files, before the app's worker has
// even arrived (convert.py, EARLY_WORKER; over 20 Mbit/s + 40 ms that worker's script comes 0.25 s
// after the page's first byte), or the app's worker starts it (files.js).
if (typeof WorkerGlobalScope !== "undefined" && self.name === "bpe-shipped") {
  let out = null;  // the port to the app's worker
  // Each file from the server: [url, asked, all here (JavaScript's times), bytes as shipped].
  const bodies = [];

  // When a file was asked for, when its first byte came and when its last, as the browser's network
  // stack timed them (Resource Timing); JavaScript's own times where it has not (yet). JavaScript
  // sees them late by whatever else the machine runs, this thread's own inflating included: on
  // localhost, the 0.24 MB pyodide.asm.js was all here 2 ms after its first byte, but read to its
  // end 31 ms after that, at start-up on 2 cores.
  function timed(url, asked, here) {
    const timing = performance.getEntriesByName(url).findLast((entry) => entry.responseEnd > 0);
    return timing ? { asked: timing.startTime, first: timing.responseStart, here: timing.responseEnd }
      : { asked, first: asked, here };
  }

  // The pace the link brings a body at, first byte to last. The wait for the first byte is left
  // out, as it costs the same whatever the codec, and so are bodies under BODY bytes, which come in
  // one piece or two: their time is the machine's (pyodide-lock.json's 0.9 KB took 2-5 ms on localhost).
  const BODY = 64 << 10;
  function bodyPace() {
    return bpeShipped.pace(bodies.filter((body) => body[3] >= BODY).map(([url, asked, here, packed]) => {
      const { first, here: last } = timed(url, asked, here);
      return [first, last, packed];
    }));
  }

  // The link's pace as the first list's files timed it (bytes per ms; 0: not known, as when they
  // all came from the cache), taken once: it picks the codec and the order of every later file.
  // Later bodies do not change it, as a busy machine reads big bodies late: on a 2-core CI machine
  // over localhost, the pace counted over the wasm and the stdlib too fell below 100 Mbit/s where
  // the first files' was 185, and the files after them came one at a time.
  let linkPace = null;
  const pace = () => linkPace ?? 0;

  // Loads an entry in the codec the link's pace picks: {here, nearly}, promises of when it is
  // all here and of when it is nearly here, that is when the bytes left would come, at that pace,
  // within the wait its first byte took (what asking for the next file costs). Over a slow link
  // the next file is asked for then: each file has the whole link, so the wasm is compiled and
  // instantiated while the stdlib comes (measured over 20 Mbit/s + 40 ms: Python's start 0.1-0.4 s
  // sooner), and the link is not left idle between two.
  const said = new Set();
  function send(entry, base, keep = true) {
    const bytesPerMs = pace();
    const chosen = bpeShipped.codecFor(entry, bytesPerMs);
    if (entry.smaller && !said.has(chosen.codec)) {
      said.add(chosen.codec);
      const at = bytesPerMs ? `${Math.round(bytesPerMs * 8 / 1000)} Mbit/s` : "a pace not known (all from the cache)";
      console.log(`[bpe] the link brought the first files at ${at}: the big ones come with ${chosen.codec}`);
    }
    let here, nearly;
    const arrived = new Promise((resolve) => { here = resolve; });
    const close = new Promise((resolve) => { nearly = resolve; });
    const asked = performance.now();
    let first = null;
    const progress = (bytes) => {
      first ??= performance.now();
      if ((chosen.packed - bytes) / bytesPerMs <= first - asked) nearly();
    };
    const wired = (start, end) => {
      const url = new URL(chosen.file, base).href;
      bodies.push([url, start, end, chosen.packed]);
      const span = timed(url, start, end);  // for the libraries' wait (files.js): latency counts there
      out.postMessage({ wired: entry.file, start: span.asked, end: span.here, packed: chosen.packed });
      here();
      nearly();
    };
    bpeShipped.load(chosen, base, { wired, progress, keep, keepAfter: () => keepNow }).then(
      (bytes) => out.postMessage({ file: entry.file, buffer: bytes.buffer, source: bpeShipped.sources[chosen.file] },
                                  [bytes.buffer]),
      (error) => out.postMessage({ file: entry.file, error: `${error.message || error}` })).finally(() => {
      here();
      nearly();
      sentOf(entry.file).done();
    });
    return { here: arrived, nearly: close };
  }

  // What it fetched is kept in the Cache API once told {keep: true} (files.js, `keepFiles`): writing
  // 30 MB into the cache while Python starts costs this thread and the browser's storage its cores.
  let keepFrom;
  const keepNow = new Promise((resolve) => { keepFrom = resolve; });

  async function sendAll(group, base) {
    if (!bpeShipped.slow(pace())) {
      await Promise.all(group.map((entry) => send(entry, base).here));
      return;
    }
    if (!said.has("one at a time")) {
      said.add("one at a time");
      console.log("[bpe] over this slow link the files come one at a time");
    }
    for (const entry of group) await send(entry, base).nearly;
  }

  // What waits for {release} (files.js: numpy's libraries over a slow link), and whether it came.
  let held = null;
  let released = false;

  // The build's snapshot ({start: {entry, after}}, worker/snapshot.js): once the first files have
  // shown the link's pace, it answers {startAsked: true}, or {startAsked: false, why} where the link
  // is slow; then it asks for the file once the file `after` is sent, and sends it as any other.
  // It is not kept. `hold` (numpy's libraries) waits for it where it was asked for by then: Python
  // starts from it without them.
  let paced;
  const pacedNow = new Promise((resolve) => { paced = resolve; });
  const sent = new Map();  // file -> {when, done}: when `send` sent it (or its error)
  function sentOf(file) {
    if (!sent.has(file)) {
      let done;
      const when = new Promise((resolve) => { done = resolve; });
      sent.set(file, { when, done });
    }
    return sent.get(file);
  }
  // The same goes for the build's snapshot of the whole app ({app: {entry}}, worker/app_snapshot.js),
  // answered with {appAsked}, and asked for at once.
  let startSent = Promise.resolve();
  async function sendSnapshot({ entry, after }, base, answer) {
    await pacedNow;
    const why = bpeShipped.slow(pace()) ? "the link is slow" : null;
    out.postMessage({ [answer]: !why, why });
    if (why) return;
    if (after) await sentOf(after).when;
    send(entry, base, false);
    await sentOf(entry.file).when;
  }

  async function handle(data) {
    const groups = [...data.load || []];
    if (data.release) {
      released = true;
      if (held) groups.unshift(held);
      held = null;
    }
    if (data.start) startSent = sendSnapshot(data.start, data.base, "startAsked");
    if (data.app) sendSnapshot(data.app, data.base, "appAsked");
    if (data.keep) keepFrom();
    for (const group of groups) {
      await sendAll(group, data.base);
      linkPace ??= bodyPace();
      paced();
    }
    if (data.hold && (released || !bpeShipped.slow(pace()))) {
      await startSent;
      await sendAll(data.hold, data.base);
    }
    else if (data.hold) {
      held = data.hold;
      console.log("[bpe] over this slow link numpy's libraries wait until they are wanted");
    }
    if (data.prune) out.postMessage({ pruned: await bpeShipped.prune(data.base, data.prune) });
  }

  self.onmessage = ({ data }) => {
    out = data.port;
    out.onmessage = (event) => handle(event.data);
    handle(data);
  };
}
