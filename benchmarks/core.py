#!/usr/bin/env python3
"""Core benchmark: our trainers and encoder against Hugging Face `tokenizers` and `tiktoken`.

    python3 -m pip install tokenizers tiktoken     # the peers (any venv; `bpe` itself is found
                                                   # from this checkout, no install needed)
    python3 benchmarks/core.py            # everything (about 4 minutes on 2 cores);
                                          # writes docs/benchmarks_core.md
    python3 benchmarks/core.py --quick    # the 702 KB corpus only; prints, writes nothing
    python3 benchmarks/core.py --profile  # cProfile of the fast trainer on all 11 MB
    python3 benchmarks/core.py --profile training-debian   # ... on the ~70 MB corpus, to 32,768
    python3 benchmarks/core.py --profile encoding          # ... of a cold encode
    python3 benchmarks/core.py --training-only   # training beside the peers alone (about 15 minutes)

Data: Python's documentation sources from Debian's `python3.11-doc` package, fetched
with `apt-get download` (root, or at least a working apt; `apt-get update` is run if
the download fails) into `benchmarks/data/` (git-ignored) the first time. Every
`_sources/**/*.rst.txt` file is one document, in sorted path order.

- "702 KB": the documents in order, the last one cut, so that they hold exactly
  702,000 characters (not bytes; the text is nearly all ASCII).
- "11 MB": every document (about 11.05 million characters).

What is measured, side by side in one run:

1. Training (bytes alphabet, `kinds` pre-tokenizer, tie smallest, min frequency 2):
   our fast trainer, our reference trainer (702 KB only) and `tokenizers`' BpeTrainer
   with `RAYON_NUM_THREADS=1`, splitting on the same pattern. Each run is a fresh
   subprocess (so its peak RSS is its own); the best of a few runs is kept. Merge
   lists are compared (HF breaks ties by its own ids, so they part at some tie).
2. Encoding throughput against `tiktoken` built from our merges and the same split
   pattern, cold (chunk cache cleared) and warm, with identical ids checked; and
   worst cases: 1 MB single chunks and random text.
3. Scrubbing: `Training.candidates(k)` and `Training.documents(k)`, cold.

The peers get our pattern with `\\Uxxxxxxxx` written as `\\x{...}` (Oniguruma and
fancy-regex do not read Python's escape) and `\\s` spelled out as the characters
for which `str.isspace()` is true (Python's `\\s`; Rust's and Oniguruma's differ,
e.g. on U+001C-U+001F), so all three split identically, whatever their Unicode tables.
"""
from __future__ import annotations

import os

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # before `tokenizers` is imported anywhere

import argparse
import dataclasses
import datetime
import json
import platform
import random
import resource
import shutil
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bpe  # noqa: E402
from bpe.encoding.alphabet import Alphabet  # noqa: E402
from bpe.encoding.pretokenize import split  # noqa: E402
from bpe.formats import char_to_byte  # noqa: E402
from bpe.text.dialect import rust_pattern  # noqa: E402
from bpe.text.patterns import kinds as kinds_pattern  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
PACKAGE = "python3.11-doc"
SOURCES = DATA / "python3.11-doc-sources"
VERSION_FILE = DATA / "python3.11-doc.version"
OUTPUT = ROOT / "docs" / "benchmarks_core.md"
INSTALL = "python3 -m pip install tokenizers tiktoken rustbpe bpeasy   # or: pip install -e .[bench]"

SMALL_CHARS = 702_000
HELD_OUT_BYTES = 2_000_000
SIZES = {"small": 2048, "large": 8192}  # vocabulary entries: 256 bytes + merges
#: The ~70 MB Debian corpus is trained to each of these; `debian500` streams it this many times.
DEBIAN_VOCABS = (8192, 32768)
STREAM_COPIES = 7
SCRUB_ROUNDS = (1, 100, 700, 1337, 1792)

TARGETS = {
    "train_vs_hf": 1.5,  # fast trainer time / tokenizers time, at most
    "fast_vs_reference": 50,  # reference time / fast time, at least
    "peak_mb": 1536,  # peak RSS on 11 MB, below
    "encode_cold": 0.5,  # our MB/s / tiktoken's, at least, chunk cache cleared (issue 9)
    "encode_warm": 0.8,  # the same text a second time
    "worst_case_s": 2.0,
    "scrub_s": 0.5,
}


# ---------------------------------------------------------------- data

def fetch() -> None:
    """Download and unpack the documentation sources once."""
    if SOURCES.is_dir() and any(SOURCES.rglob("*.rst.txt")):
        return
    DATA.mkdir(parents=True, exist_ok=True)
    print(f"fetching {PACKAGE} into {DATA} ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(dir=DATA) as tmp:
        work = Path(tmp)
        from debian_docs import unpack  # beside this script
        deb = unpack([PACKAGE], work)[0]
        sources = work / "x" / "usr" / "share" / "doc" / "python3.11" / "html" / "_sources"
        staging = work / "sources"
        shutil.copytree(sources, staging)
        if SOURCES.exists():
            shutil.rmtree(SOURCES)
        staging.rename(SOURCES)
        VERSION_FILE.write_text(deb.name.removesuffix(".deb") + "\n")


def documents() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(SOURCES.rglob("*.rst.txt"))]


def prefix(docs: list[str], chars: int) -> list[str]:
    """The documents in order, the last one cut, holding exactly `chars` characters."""
    out, left = [], chars
    for doc in docs:
        if left <= 0:
            break
        out.append(doc[:left])
        left -= len(out[-1])
    return out


def held_out(docs: list[str], skip_chars: int, size_bytes: int) -> list[str]:
    """The text right after the first `skip_chars` characters, about `size_bytes` UTF-8 bytes,
    kept as documents (the first one is the rest of the document the prefix cut)."""
    out, total = [], 0
    for doc in docs:
        if skip_chars >= len(doc):
            skip_chars -= len(doc)
            continue
        piece, skip_chars = doc[skip_chars:], 0
        size = len(piece.encode())
        if total + size > size_bytes:
            piece = piece.encode()[: size_bytes - total].decode("utf-8", "ignore")
            size = len(piece.encode())
        out.append(piece)
        total += size
        if total >= size_bytes - 3:
            break
    return out


def corpus(size: str) -> list[str]:
    docs = documents()
    return prefix(docs, SMALL_CHARS) if size == "small" else docs


def mb(docs: list[str]) -> float:
    return sum(len(doc.encode()) for doc in docs) / 1e6


# ---------------------------------------------------------------- peers' view of our pattern

def peer_pattern(pattern: str) -> str:
    """Our `re` pattern in the syntax Oniguruma (tokenizers) and fancy-regex (tiktoken) read."""
    return rust_pattern(pattern)


def byte_level_decoder() -> dict[str, int]:
    """GPT-2's byte-to-unicode table, reversed: HF's ByteLevel character -> byte."""
    return char_to_byte()


def hf_tokenizer(pattern: str):
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    return tok


def tiktoken_encoding(vocab: list[bytes], pattern: str):
    import tiktoken

    ranks: dict[bytes, int] = {}
    for rank, token in enumerate(vocab):
        ranks.setdefault(token, rank)
    return tiktoken.Encoding("bpe-core", pat_str=pattern, mergeable_ranks=ranks, special_tokens={}), len(ranks) < len(vocab)


# ---------------------------------------------------------------- one training run (subprocess)

def settings(vocab_size: int) -> bpe.Settings:
    return bpe.Settings(alphabet="bytes", pretokenizer="kinds", tie="smallest", min_frequency=2, vocab_size=vocab_size)


class Clock:
    """Wall-clock and CPU seconds (this process, all threads) since it started."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def read(self) -> dict:
        return {"wall": time.perf_counter() - self.wall, "cpu": time.process_time() - self.cpu}


def maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def job_documents(size: str):
    """The documents of a corpus size: a list, or for `debian500` a stream of seven copies."""
    if size in ("small", "large"):
        return corpus(size)
    import debian_docs
    if size == "debian":
        return debian_docs.documents()
    files = debian_docs.paths() * STREAM_COPIES
    return (path.read_text(encoding="utf-8") for path in files)


def child(job: dict) -> dict:
    """Train once in this (fresh) process and report time, phases, memory and merges."""
    docs = job_documents(job["size"])
    vocab_size = job.get("vocab") or SIZES[job["size"]]
    out: dict = {}
    trainer = job["trainer"]
    if trainer in PEERS:
        clock = Clock()
        pattern = peer_pattern(kinds_pattern())
        out["setup"] = clock.read()
        out["rss_before"] = maxrss_mb()
        clock = Clock()
        found = PEERS[trainer](docs, pattern, vocab_size)
        if trainer == "hf":
            out["pairs"] = found
            found = [left + right for left, right in found]
        out["tokens"] = found
        out["time"] = clock.read()
        out["rss_peak"] = maxrss_mb()
        return out

    from bpe.encoding.pretokenize import splitter
    from bpe.trainers import training

    clock = Clock()
    splitter("kinds")  # builds the pattern from unicodedata and compiles it: once per process
    out["setup"] = clock.read()
    phases: dict[str, dict] = {}

    def timed(name, function):
        def wrapper(*args, **kwargs):
            begin = Clock()
            try:
                return function(*args, **kwargs)
            finally:
                phases[name] = begin.read()
        return wrapper

    training.Corpus.build = classmethod(timed("pre-tokenize and count", training.Corpus.build.__func__))
    name = trainer
    training.ALGORITHMS[name] = timed("merge loop", training.ALGORITHMS[name])
    out["rss_before"] = maxrss_mb()
    clock = Clock()
    # keep=False: the command line's path, which keeps no text and no per-document index
    result = bpe.train(docs, settings(vocab_size), algorithm=name, keep=False)
    out["time"] = clock.read()
    out["rss_peak"] = maxrss_mb()
    out["phases"] = phases
    vocab = result.vocab
    out["merges"] = [[m.left, m.right, m.id, m.count, m.replacements, m.ties] for m in result.merges]
    out["pairs"] = [[vocab[m.left].hex(), vocab[m.right].hex()] for m in result.merges]
    out["tokens"] = [vocab[m.id].hex() for m in result.merges]
    return out


def _hf(docs, pattern: str, vocab_size: int) -> list:
    from tokenizers import pre_tokenizers, trainers

    tok = hf_tokenizer(pattern)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=2,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
                                  special_tokens=[])
    tok.train_from_iterator(docs, trainer)
    chars = byte_level_decoder()
    merges = json.loads(tok.to_str())["model"]["merges"]
    as_bytes = lambda token: bytes(chars[c] for c in token).hex()  # noqa: E731
    return [[as_bytes(left), as_bytes(right)] for left, right in
            (m.split(" ") if isinstance(m, str) else m for m in merges)]


def _ranked_tokens(ranks: dict[bytes, int]) -> list[str]:
    """A rank table's merged tokens (every rank from 256), in rank order, as hex."""
    return [token.hex() for token, rank in sorted(ranks.items(), key=lambda item: item[1]) if rank >= 256]


def _rustbpe(docs, pattern: str, vocab_size: int) -> list:
    import rustbpe

    tok = rustbpe.Tokenizer()
    tok.train_from_iterator(iter(docs), vocab_size, pattern=pattern)
    return _ranked_tokens(dict(tok.get_mergeable_ranks()))


def _bpeasy(docs, pattern: str, vocab_size: int) -> list:
    import bpeasy

    return _ranked_tokens(bpeasy.train_bpe(iter(docs), pattern, 10_000, vocab_size))


#: The peers' trainers: (documents, their pattern, vocabulary size) -> merges as hex byte pairs.
PEERS = {"hf": _hf, "rustbpe": _rustbpe, "bpeasy": _bpeasy}


def run_child(trainer: str, size: str, vocab: int | None = None) -> dict:
    job = json.dumps({"trainer": trainer, "size": size, "vocab": vocab})
    load = os.getloadavg()[0]
    done = subprocess.run([sys.executable, __file__, "--child", job], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"training run {job} failed:\n{done.stderr}")
    result = json.loads(done.stdout)
    result["load"] = [load, os.getloadavg()[0]]
    print(f"  {trainer:9} {size:9} {vocab or SIZES.get(size, 0):6} {result['time']['wall']:8.2f} s wall "
          f"{result['time']['cpu']:8.2f} s CPU  peak {result['rss_peak']:6.0f} MB  load {load:.1f}",
          file=sys.stderr, flush=True)
    return result


# ---------------------------------------------------------------- helpers

def best_of(repeats: int, work, setup=None) -> tuple[dict, object]:
    """Run `work` (after `setup`) a few times: the least wall and the least CPU seconds, and its value."""
    best, value = {"wall": float("inf"), "cpu": float("inf")}, None
    for _ in range(repeats):
        if setup:
            setup()
        clock = Clock()
        value = work()
        spent = clock.read()
        best = {key: min(best[key], spent[key]) for key in best}
    return best, value


def least(times: list[dict]) -> dict:
    return {key: min(t[key] for t in times) for key in ("wall", "cpu")}


def agreement(ours: list, theirs: list) -> dict:
    n = min(len(ours), len(theirs))
    common_prefix = next((i for i in range(n) if ours[i] != theirs[i]), n)
    return {
        "n": n,
        "prefix": common_prefix,
        "same_rank": sum(1 for a, b in zip(ours, theirs) if a == b),
        "same_set": len({tuple(p) for p in ours[:n]} & {tuple(p) for p in theirs[:n]}),
    }


def divergence(training: bpe.Training, ours: list, theirs: list, at: int) -> str:
    """Why the first differing merge differs: both pairs' counts in our candidate table."""
    if at >= min(len(ours), len(theirs)):
        return "no divergence"
    ids = {}
    for i, token in enumerate(training.vocab[: training.tokenizer.first_merge_id + at]):
        ids.setdefault(token.hex(), i)
    table = {(c.left, c.right): c.count for c in training.candidates(at + 1)}
    def show(pair):
        left, right = (bytes.fromhex(side) for side in pair)
        key = (ids.get(pair[0]), ids.get(pair[1]))
        return f"`{(left + b'|' + right).decode('utf-8', 'backslashreplace')!r}` (count {table.get(key, '?')})"
    ties = training.merges[at].ties
    return f"merge {at + 1}: ours {show(ours[at])}, tokenizers' {show(theirs[at])}; {ties} pairs tied at the top"


def encode_all(tok, docs: list[str]) -> list[int]:
    ids: list[int] = []
    for doc in docs:
        ids.extend(tok.encode_ordinary(doc))
    return ids


def tiktoken_all(enc, docs: list[str]) -> list[int]:
    ids: list[int] = []
    for doc in docs:
        ids.extend(enc.encode_ordinary(doc))
    return ids


def fmt(seconds: float) -> str:
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def both(time_: dict) -> str:
    """Wall seconds, CPU seconds in brackets."""
    return f"{fmt(time_['wall'])} ({fmt(time_['cpu'])})"


def table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def verdict(ok: bool) -> str:
    return "yes" if ok else "**no**"


def machine() -> str:
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = next((line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal")), "0")
    return f"{os.cpu_count()} cores ({cpu}), {int(memory) / 2**20:.0f} GiB, {platform.system()} {platform.release()}"


# ---------------------------------------------------------------- the benchmark

@dataclasses.dataclass
class Run:
    """What one benchmark run shares between its sections."""

    quick: bool
    docs: list[str]
    small: list[str]
    sizes: list[str]
    targets: list[list] = dataclasses.field(default_factory=list)
    sections: list[str] = dataclasses.field(default_factory=list)
    repeats: dict = dataclasses.field(default_factory=lambda: {"small": 3, "large": 2})
    best: dict = dataclasses.field(default_factory=dict)  # (trainer, size) -> the child run with least CPU
    trained: dict = dataclasses.field(default_factory=dict)  # size -> our training, made in this process
    pattern: str = ""  # the peers' split pattern
    debian_mb: float = 0.0
    whitespace_free: dict | None = None  # the 1 MB whitespace-free encode, with the largest Python-docs tokenizer


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def benchmark(quick: bool, encoding_only: bool = False, training_only: bool = False) -> str:
    """docs/benchmarks_core.md: training, merges, encoding, worst cases and scrubbing, beside the peers."""
    try:
        import tiktoken  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError:
        sys.exit(f"the peers are missing: {INSTALL}")
    fetch()
    docs = documents()
    run = Run(quick, docs, prefix(docs, SMALL_CHARS), ["small"] if quick else ["small", "large"])
    load_before = os.getloadavg()
    sections = [training_section, merges_section, encoding_section, worst_case_section, scrubbing_section]
    if not quick:
        import debian_docs
        debian_docs.fetch()
        run.debian_mb = sum(path.stat().st_size for path in debian_docs.paths()) / 1e6
        sections[1:1] = [peers_section]
        sections.append(startup_section)
    if encoding_only:  # no training peers: our trainings, then what encodes with them
        sections = [train_here, *(s for s in sections if s in (encoding_section, worst_case_section, startup_section))]
    if training_only:  # issue 9's training table alone: ours, rustbpe, bpeasy and tokenizers at every size
        sections = [peers_section]
    for section in sections:
        section(run)
    flags = " --quick" * quick + " --encoding-only" * encoding_only + " --training-only" * training_only
    return "\n".join(header(run, load_before, flags)) + "\n\n" + "\n\n".join(run.sections) + "\n"


def training_section(run: Run) -> None:
    """Each trainer in fresh processes, the least CPU time of a few runs, against tokenizers."""
    import tokenizers

    sizes, repeats, targets = run.sizes, run.repeats, run.targets
    say("training (one subprocess per run)")
    runs: dict[tuple[str, str], list[dict]] = {}
    for size in sizes:
        for _ in range(repeats[size]):
            for trainer in ("fast", "hf"):
                runs.setdefault((trainer, size), []).append(run_child(trainer, size))
    runs[("reference", "small")] = [run_child("reference", "small")]
    best = run.best = {key: min(results, key=lambda r: r["time"]["cpu"]) for key, results in runs.items()}
    times = {key: least([r["time"] for r in results]) for key, results in runs.items()}
    setups = {key: least([r["setup"] for r in results]) for key, results in runs.items()}

    def phases(key) -> str:
        return " + ".join(f"{name} {both(t)}" for name, t in best[key]["phases"].items())

    def peak(key) -> str:
        return f"{max(r['rss_peak'] for r in runs[key]):.0f} (from {min(r['rss_before'] for r in runs[key]):.0f})"

    rows = []
    for size in sizes:
        hf = times[("hf", size)]
        label = f"{size} ({mb(corpus(size)):.2f} MB → {SIZES[size]:,} entries, {SIZES[size] - 256:,} merges)"
        names = [("fast", "ours, fast"), ("reference", "ours, reference"), ("hf", f"tokenizers {tokenizers.__version__}")]
        for trainer, name in names:
            key = (trainer, size)
            if key not in runs:
                continue
            ratio = times[key]["cpu"] / hf["cpu"]
            rows.append([label, name, both(times[key]), f"{ratio:.2f}×" if ratio < 10 else f"{ratio:.0f}×",
                         phases(key) if trainer != "hf" else "", both(setups[key]), peak(key)])
            label = ""
        ratio = times[("fast", size)]["cpu"] / hf["cpu"]
        targets.append([f"fast trainer within {TARGETS['train_vs_hf']}× of tokenizers (1 thread), {size}",
                        f"{ratio:.2f}× (wall {times[('fast', size)]['wall'] / hf['wall']:.2f}×)",
                        verdict(ratio <= TARGETS["train_vs_hf"])])
    ref, fast = times[("reference", "small")], times[("fast", "small")]
    speedup = ref["cpu"] / fast["cpu"]
    targets.append([f"fast ≥ {TARGETS['fast_vs_reference']}× faster than the reference, small",
                    f"{speedup:.0f}×", verdict(speedup >= TARGETS["fast_vs_reference"])])
    if not run.quick:
        top = max(r["rss_peak"] for r in runs[("fast", "large")])
        targets.append(["peak memory on 11 MB below 1.5 GB", f"{top:.0f} MB", verdict(top < TARGETS["peak_mb"])])
    run.sections.append(
        "## Training beside tokenizers\n\nEach run is a fresh process; the least time of "
        + ", ".join(f"{repeats[s]} runs ({s})" for s in sizes)
        + ", the reference run once. Time is `bpe.train(documents, settings)` or "
        "`Tokenizer.train_from_iterator(documents, trainer)`, end to end (pre-tokenization, counting, "
        "merging), as wall seconds (CPU seconds); ratios are of CPU time, the steadier one on a shared "
        "machine. *Setup* (not in the time) is building and compiling the split pattern, once per process. "
        "Peak is the process's maximum RSS (MB), after loading the data in brackets.\n\n"
        + table(["corpus", "trainer", "seconds", "vs tokenizers (CPU)", "phases", "setup", "peak RSS (MB)"], rows)
    )



def peers_section(run: Run) -> None:
    """Issue 9's table: ours beside rustbpe, bpeasy and tokenizers on 11 MB, ~70 MB and ~500 MB."""
    import debian_docs

    debian_docs.fetch()
    say("peers (one subprocess per run)")
    cases = [("large", 8192, 2), ("debian", 8192, 1), ("debian", 32768, 1), ("debian500", 8192, 1)]
    trainers = ("fast", "rustbpe", "bpeasy", "hf")
    runs: dict[tuple, list[dict]] = {}
    for size, vocab, repeats in cases:
        for _ in range(repeats):
            for trainer in trainers:
                if size == "debian500" and trainer == "bpeasy":
                    continue  # about as slow as tokenizers and not one of this size's goals
                if size == "large" and (trainer, size) in run.best:  # measured by training_section
                    runs.setdefault((trainer, size, vocab), [run.best[(trainer, size)]])
                    continue
                runs.setdefault((trainer, size, vocab), []).append(run_child(trainer, size, vocab))
    rows = []
    for size, vocab, _ in cases:
        best = {t: min(runs[(t, size, vocab)], key=lambda r: r["time"]["cpu"]) for t in trainers
                if (t, size, vocab) in runs}
        ours = best["fast"]
        label = {"large": "11 MB (Python docs)", "debian": f"{run.debian_mb:.0f} MB (Debian docs)",
                 "debian500": f"{run.debian_mb * STREAM_COPIES:.0f} MB (Debian docs × {STREAM_COPIES}, streamed)"}[size]
        for trainer in trainers:
            if trainer not in best:
                continue
            r = best[trainer]
            ratio = ours["time"]["cpu"] / r["time"]["cpu"]
            same = agreement(ours["tokens"], r["tokens"])
            rows.append([f"{label} → {vocab:,}", PEER_NAMES[trainer], both(r["time"]),
                         "" if trainer == "fast" else f"{ratio:.2f}×", f"{r['rss_peak']:.0f}",
                         " – ".join(f"{x:.1f}" for x in r["load"]),
                         "" if trainer == "fast" else f"first {same['prefix']:,} of {same['n']:,} identical"])
            label = ""
        if "rustbpe" in best and size != "debian500":
            ratio = ours["time"]["cpu"] / best["rustbpe"]["time"]["cpu"]
            run.targets.append([f"training within 2.0× of rustbpe (CPU), {size} → {vocab:,}", f"{ratio:.2f}×",
                                verdict(ratio <= 2.0)])
        run.targets.append([f"peak memory at or below tokenizers', {size} → {vocab:,}",
                            f"{ours['rss_peak']:.0f} MB vs {best['hf']['rss_peak']:.0f} MB",
                            verdict(ours["rss_peak"] <= best["hf"]["rss_peak"])])
    flat = {size: min(runs[("fast", size, 8192)], key=lambda r: r["time"]["cpu"]) for size in ("debian", "debian500")}
    grow = flat["debian500"]["time"]["cpu"] / flat["debian"]["time"]["cpu"]
    count = [flat[s]["phases"]["pre-tokenize and count"]["cpu"] for s in ("debian", "debian500")]
    run.targets.append([f"{STREAM_COPIES}× the text: memory flat, time linear (ours, 8,192)",
                        f"peak {flat['debian']['rss_peak']:.0f} → {flat['debian500']['rss_peak']:.0f} MB; "
                        f"counting {count[0]:.1f} → {count[1]:.1f} s CPU ({count[1] / count[0]:.1f}×), "
                        f"all {grow:.1f}×", verdict(flat["debian500"]["rss_peak"] < 1.25 * flat["debian"]["rss_peak"])])
    run.sections.append(
        "## Training beside the fastest peers\n\nBytes, the `kinds` pattern, one thread (`RAYON_NUM_THREADS=1`), "
        "every file one document, the same documents for all. Ours is `bpe.train(documents, settings, keep=False)`, "
        "the command line's path (min frequency 2; the peers have none or 2, and no run reaches it). The "
        f"{STREAM_COPIES}× case streams the files from disk {STREAM_COPIES} times to every trainer (a generator), "
        "so no trainer holds the text. Time in wall seconds (CPU seconds in brackets); *vs ours* is our CPU time "
        "over theirs; peak is the process's maximum RSS in MB, data included; load is the 1-minute load average "
        "before and after the run. *Identical* compares the merged tokens' bytes rank by rank.\n\n"
        + table(["corpus", "trainer", "seconds", "ours / theirs (CPU)", "peak RSS (MB)", "load", "same tokens as ours"],
                rows)
    )


PEER_NAMES = {"fast": "ours (fast)", "rustbpe": "rustbpe", "bpeasy": "bpeasy", "hf": "tokenizers"}


def startup_section(run: Run) -> None:
    """A one-word `python3 -m bpe encode` beside the same with tiktoken, each a fresh process, in turn."""
    say("start-up")
    work = Path(tempfile.mkdtemp())
    saved = work / "tok.json"
    saved.write_text(bpe.files.dumps(run.trained["large"] if "large" in run.trained else run.trained["small"]))
    subprocess.run([sys.executable, "-m", "bpe", "export", "--tokenizer", str(saved), "--format", "tiktoken",
                    "--out", str(work / "tok.tiktoken")], check=True, capture_output=True, cwd=ROOT)
    script = work / "tiktoken_encode.py"
    script.write_text("import json, sys, tiktoken, tiktoken.load\n"
                      "args = json.load(open(sys.argv[1] + '.json'))\n"
                      "enc = tiktoken.Encoding(mergeable_ranks=tiktoken.load.load_tiktoken_bpe(sys.argv[1]), **args)\n"
                      "print(' '.join(map(str, enc.encode_ordinary(sys.argv[2]))))\n")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "bpe")], check=True)  # as an install would
    commands = {"ours": [sys.executable, "-m", "bpe", "encode", "--tokenizer", str(saved), "walking"],
                "tiktoken": [sys.executable, str(script), str(work / "tok.tiktoken"), "walking"]}
    env = dict(os.environ, TIKTOKEN_CACHE_DIR="", PYTHONDONTWRITEBYTECODE="")
    env.pop("PYTHONDONTWRITEBYTECODE")
    times: dict[str, list[float]] = {name: [] for name in commands}
    outputs = {}
    for _ in range(15):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            outputs[name] = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT, env=env).stdout
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    shutil.rmtree(work)
    median = {name: sorted(t)[len(t) // 2] for name, t in times.items()}
    ratio = median["ours"] / median["tiktoken"]
    run.targets.append(["one-word `bpe encode` within 1.5× of the same with tiktoken (CPU, median of 15)",
                        f"{ratio:.2f}× ({median['ours']:.3f} s vs {median['tiktoken']:.3f} s)", verdict(ratio <= 1.5)])
    run.sections.append(
        "## Start-up\n\nA one-word encode in a fresh process, with the 11 MB tokenizer (8,192 entries): "
        "`python3 -m bpe encode --tokenizer tok.json walking` against a four-line script that builds "
        "`tiktoken.Encoding` from the same tokenizer exported by `bpe export --format tiktoken` and encodes the "
        "word. Fifteen runs each, in turn; CPU seconds (user + system) of each process; bytecode compiled "
        f"beforehand, as an install does. Same ids: {verdict(outputs['ours'].split() == outputs['tiktoken'].split())}.\n\n"
        + table(["command", "median CPU s", "least CPU s"],
                [[name, f"{median[name]:.3f}", f"{min(t):.3f}"] for name, t in times.items()])
    )


def train_here(run: Run) -> dict:
    """Our trainings of the run's sizes, made in this process, for the sections that encode."""
    run.trained["small"] = bpe.train(run.small, settings(SIZES["small"]))
    if not run.quick:
        run.trained["large"] = bpe.train(run.docs, settings(SIZES["large"]))
    return run.trained


def merges_section(run: Run) -> None:
    """Our merges against the reference's and tokenizers', and where they first part."""
    best, targets = run.best, run.targets
    rows = []
    trained = train_here(run)
    for size, training in trained.items():  # the parent's training is the child's, merge for merge
        assert [[m.left, m.right, m.id, m.count, m.replacements, m.ties] for m in training.merges] \
            == best[("fast", size)]["merges"], f"two fast trainings on {size} differ"
    same_fast = best[("fast", "small")]["merges"] == best[("reference", "small")]["merges"]
    rows.append(["small", "fast vs reference", f"{len(best[('fast', 'small')]['merges']):,}",
                 "identical (pair, id, count, replacements, ties)" if same_fast else "**differ**", ""])
    targets.append(["identical merges, fast vs reference (small)", "identical" if same_fast else "differ",
                    verdict(same_fast)])
    for size in run.sizes:
        ours, theirs = best[("fast", size)]["pairs"], best[("hf", size)]["pairs"]
        agree = agreement(ours, theirs)
        why = divergence(trained[size], ours, theirs, agree["prefix"])
        rows.append([size, "fast vs tokenizers", f"{agree['n']:,}",
                     f"first {agree['prefix']:,} identical; {agree['same_rank']:,} at the same rank; "
                     f"{agree['same_set']:,} in common as sets", why])
    run.sections.append(
        "### Merges\n\n`tokenizers` breaks a tie by its own ids (the byte-level characters in sorted order, "
        "so `Ġ` for a space sorts after the letters), ours by (left id, right id) with ids = byte values; "
        "after the first tie resolved differently the lists part. Its merges are mapped back from the "
        "byte-level characters to bytes before comparing.\n\n"
        + table(["corpus", "compared", "merges", "agreement", "first difference"], rows)
    )



def encoding_section(run: Run) -> None:
    """Cold and warm encoding against tiktoken on the same vocabulary and pattern."""
    docs, small, targets, repeats = run.docs, run.small, run.targets, run.repeats
    small_training = run.trained["small"]
    say("encoding")
    pattern = run.pattern = peer_pattern(kinds_pattern())
    check = hf_tokenizer(pattern)
    peer_chunks = [doc[a:b] for doc in small for _, (a, b) in check.pre_tokenizer.pre_tokenize_str(doc)]
    same_split = peer_chunks == [chunk for doc in small for chunk in split(doc, "kinds")]

    tokenizers_to_test = [("held-out 2 MB (text after the 702 KB)", small_training.tokenizer,
                           held_out(docs, SMALL_CHARS, HELD_OUT_BYTES), repeats["small"])]
    if not run.quick:
        import debian_docs
        big_tok = run.trained["large"].tokenizer
        tokenizers_to_test.append(("all 11 MB (the training text)", big_tok, docs, 1))
        tokenizers_to_test.append(("kernel docs 10 MB (11 MB tokenizer)", big_tok, debian_docs.kernel_text(10_000_000), 2))
        held = tokenizers_to_test[0][2]
        astral = [held[0][:1000] + "😀𝒳𐍈" + held[0][1000:], *held[1:]]  # three characters above U+FFFF
        tokenizers_to_test.append(("held-out 2 MB with 3 astral characters", small_training.tokenizer, astral, 3))
    rows = []
    for label, tok, texts, reps in tokenizers_to_test:
        size = mb(texts)
        rate = lambda t: f"{size / t['wall']:.2f} ({size / t['cpu']:.2f})"  # noqa: E731
        enc, dups = tiktoken_encoding(tok.vocab, pattern)
        cold, ids = best_of(reps, lambda: encode_all(tok, texts), setup=tok._cache.clear)
        warm, ids_warm = best_of(reps, lambda: encode_all(tok, texts))
        peer, peer_ids = best_of(max(reps, 2), lambda: tiktoken_all(enc, texts))
        same = ids == ids_warm == peer_ids
        cold_ratio, warm_ratio = peer["cpu"] / cold["cpu"], peer["cpu"] / warm["cpu"]
        rows.append([label, f"{len(tok.vocab):,}", f"{size:.2f}", rate(cold), rate(warm), rate(peer),
                     f"{cold_ratio:.2f}× / {warm_ratio:.2f}×",
                     ("yes" if same else "**no**") + (" (tiktoken dropped duplicate tokens)" if dups else "")])
        targets.append([f"encoding ≥ {TARGETS['encode_cold']}× / {TARGETS['encode_warm']}× tiktoken, {label}, "
                        "cold / warm", f"{cold_ratio:.2f}× / {warm_ratio:.2f}×",
                        verdict(cold_ratio >= TARGETS["encode_cold"]) + " / "
                        + verdict(warm_ratio >= TARGETS["encode_warm"])])
    run.sections.append(
        "## Encoding\n\nThroughput in MB/s of UTF-8 input (1 MB = 10^6 bytes) by wall time (by CPU time), "
        "the best of a few passes; ratios of CPU time. One document per call: "
        "`Tokenizer.encode_ordinary(doc)` for ours (cold: its chunk cache cleared first; warm: the same text again), "
        "`Encoding.encode_ordinary(doc)` for tiktoken (no cache), built from our vocabulary as "
        "`mergeable_ranks` (id = rank) and the same split pattern. "
        f"tokenizers' split of the 702 KB corpus with the peers' pattern equals ours: {verdict(same_split)}.\n\n"
        + table(["text", "vocab", "MB", "ours cold MB/s", "ours warm MB/s", "tiktoken MB/s",
                 "ours / tiktoken (cold / warm)", "identical ids"], rows)
    )



def worst_case_section(run: Run) -> None:
    """One cold encode of each 1 MB worst case, beside tiktoken."""
    docs, targets, pattern = run.docs, run.targets, run.pattern
    big_tok = run.trained["large"].tokenizer if "large" in run.trained else None
    small_training = run.trained["small"]
    say("worst cases")
    a_training = bpe.train(["a" * n for n in range(1, 1001)], bpe.Settings(pretokenizer="none", min_frequency=2))
    rng = random.Random(2024)
    texts = {
        '"a" × 1,000,000': "a" * 1_000_000,
        "1 MB of the Python docs": "".join(docs)[:1_000_000],
        "1 MB random bytes as latin-1": bytes(rng.getrandbits(8) for _ in range(1_000_000)).decode("latin-1"),
        "1 MB random printable": "".join(rng.choice(string.printable) for _ in range(1_000_000)),
        "1 MB of the Python docs, whitespace removed": "".join("".join(docs).split())[:1_000_000],
    }
    real = big_tok or small_training.tokenizer
    worst_tokenizers = [(f"Python docs ({len(real.vocab):,})", [tuple(m) for m in real.merges]),
               (f'"a" runs ({len(a_training.vocab):,})', [(m.left, m.right) for m in a_training.merges])]
    rows, worst = [], {"wall": 0.0, "cpu": 0.0}
    peer_patterns = {"none": r"[\s\S]+", "kinds": pattern}
    for pre in ("none", "kinds"):
        for tname, merges in worst_tokenizers:
            tok = bpe.Tokenizer(bpe.Settings(alphabet="bytes", pretokenizer=pre), Alphabet("bytes"), merges)
            enc, _ = tiktoken_encoding(tok.vocab, peer_patterns[pre])
            for text_name, text in texts.items():
                seconds, ids = best_of(1, lambda: tok.encode_ordinary(text), setup=tok._cache.clear)
                peer_seconds, peer_ids = best_of(1, lambda: enc.encode_ordinary(text))
                assert tok.decode_bytes(ids) == text.encode(), "round trip failed"
                worst = {key: max(worst[key], seconds[key]) for key in worst}
                if pre == "kinds" and "whitespace removed" in text_name and tname.startswith("Python"):
                    run.whitespace_free = seconds
                slow = seconds["cpu"] >= TARGETS["worst_case_s"]
                rows.append([pre, tname, text_name, f"{len(ids):,}", ("**" if slow else "") + both(seconds)
                             + ("**" if slow else ""), both(peer_seconds), "yes" if ids == peer_ids else "**no**"])
    targets.append([f"worst cases under {TARGETS['worst_case_s']:.0f} s", f"slowest {both(worst)}",
                    verdict(worst["cpu"] < TARGETS["worst_case_s"])])
    if run.whitespace_free is not None:
        targets.append(["1 MB of real text, whitespace removed, `kinds`, under 0.5 s (CPU)", both(run.whitespace_free),
                        verdict(run.whitespace_free["cpu"] < 0.5)])
    run.sections.append(
        "### Worst cases\n\nOne cold `encode` call per text (1,000,000 characters each; the random bytes "
        "are 1.5 MB of UTF-8), wall seconds (CPU seconds). The `none` pre-tokenizer makes each text a single "
        "chunk; so does `kinds` for the run of `a`. The `\"a\" runs` tokenizer is trained (pretokenizer none) on the documents "
        "`a`, `aa`, ..., `a`×1000, so it has a+a, aa+aa, ... The tiktoken column uses the same "
        "vocabulary with the same pattern (`[\\s\\S]+` for none).\n\n"
        + table(["pre-tokenizer", "tokenizer (entries)", "text", "tokens", "ours", "tiktoken",
                 "identical ids"], rows)
    )



def scrubbing_section(run: Run) -> None:
    """The candidate table and the documents at rounds across the small training, cold and stepping."""
    targets = run.targets
    say("scrubbing")
    rows, slowest = [], {"wall": 0.0, "cpu": 0.0}
    t = run.trained["small"]
    last = len(t.merges)
    rounds = [k for k in SCRUB_ROUNDS if k <= last] + [last + 1]
    record: list[bpe.Training] = []

    def fresh() -> None:
        """A record of the same training with empty scrubbing caches (its tokenizer reused)."""
        record[:] = [dataclasses.replace(t)]
        record[0].__dict__["tokenizer"] = t.tokenizer

    def add(*times: dict) -> dict:
        return {key: sum(time_[key] for time_ in times) for key in ("wall", "cpu")}

    for k in rounds:
        cand, table_k = best_of(3, lambda: record[0].candidates(k), setup=fresh)
        if k > last:
            rows.append([k, f"{len(table_k):,}", both(cand), "(after the last merge)", "", both(cand), ""])
            slowest = {key: max(slowest[key], cand[key]) for key in slowest}
            continue
        docs_s, tokens = best_of(3, lambda: record[0].documents(k), setup=fresh)
        pair_s, _ = best_of(3, lambda: (record[0].candidates(k), record[0].documents(k)), setup=fresh)
        step = {"wall": float("inf"), "cpu": float("inf")}
        if k < last:
            step, _ = best_of(3, lambda: (record[0].candidates(k + 1), record[0].documents(k + 1)),
                              setup=lambda: (fresh(), record[0].candidates(k), record[0].documents(k)))
        slowest = {key: max(slowest[key], pair_s[key]) for key in slowest}
        rows.append([k, f"{len(table_k):,}", both(cand), f"{sum(map(len, tokens)):,}", both(docs_s), both(pair_s),
                     both(step) if k < last else ""])
    targets.append([f"candidate table + documents at any round under {TARGETS['scrub_s']} s (small)",
                    f"slowest {both(slowest)}", verdict(slowest["cpu"] < TARGETS["scrub_s"])])
    run.sections.append(
        f"## Scrubbing\n\nThe 702 KB training ({last:,} merges, {len(t.corpus.chunks):,} distinct chunks, "
        f"{len(t.corpus.documents)} documents). *Cold*: a fresh record of the same training (empty scrubbing "
        "caches) for each measurement; *both* is `candidates(k)` then `documents(k)` on one fresh record; "
        "*next round* is `candidates(k + 1)` and `documents(k + 1)` right after round k was shown, a step "
        "of the scrubber. Best of 3, wall seconds (CPU seconds).\n\n"
        + table(["round k", "candidates", "candidates(k), cold", "tokens in documents(k)", "documents(k), cold",
                 "both, cold", "next round"], rows)
    )



def header(run: Run, load_before: tuple, flags: str = "") -> list[str]:
    """The report's head: the machine, the data, the settings and every target."""
    import tiktoken
    import tokenizers

    docs, small, targets = run.docs, run.small, run.targets
    version = VERSION_FILE.read_text().strip() if VERSION_FILE.exists() else PACKAGE
    return [
        "# Core benchmark: training, encoding, scrubbing",
        "",
        f"Generated by `python3 benchmarks/core.py{flags}` on "
        f"{datetime.date.today().isoformat()}.",
        "",
        f"- Machine: {machine()}; peers single-threaded (`RAYON_NUM_THREADS=1`). Load average (1 min) "
        f"{load_before[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end: the machine is shared, "
        "hence best-of-N times and CPU-time ratios.",
        f"- Python {platform.python_version()}; tokenizers {tokenizers.__version__}; "
        f"tiktoken {getattr(tiktoken, '__version__', '?')}.",
        f"- Data: Debian's `{version}`, {len(docs)} `*.rst.txt` documents, {sum(map(len, docs)):,} characters "
        f"({mb(docs):.2f} MB UTF-8). *small*: the first 702,000 characters ({len(small)} documents, the last "
        f"one cut; {mb(small):.3f} MB); *large*: all of it.",
        "- Settings: bytes alphabet, `kinds` pre-tokenizer, tie smallest, min frequency 2, no specials; "
        "vocabulary = 256 bytes + merges on both sides.",
        "",
        "## Targets",
        "",
        "Times are judged by CPU seconds (wall seconds shown too, CPU in brackets).",
        "",
        table(["target", "measured", "met"], targets),
    ]




def profile(what: str, quick: bool) -> None:
    """cProfile what stands between us and the peers: training on all 11 MB (or the 702 KB with
    --quick), training on the ~70 MB Debian corpus to 32,768 (our worst ratio to rustbpe), or a
    cold encode of the held-out 2 MB and of the whitespace-free 1 MB (each chunk merged once)."""
    import cProfile
    import pstats

    fetch()
    profiler = cProfile.Profile()
    if what == "encoding":
        docs = documents()
        small = bpe.train(prefix(docs, SMALL_CHARS), settings(SIZES["small"])).tokenizer
        large = bpe.train(docs, settings(SIZES["large"])).tokenizer
        texts = [(small, held_out(docs, SMALL_CHARS, HELD_OUT_BYTES)),
                 (large, ["".join("".join(docs).split())[:1_000_000]])]
        for tokenizer, text in texts:
            tokenizer._cache.clear()
            profiler.enable()
            encode_all(tokenizer, text)
            profiler.disable()
    else:
        if what == "training-debian":
            import debian_docs
            debian_docs.fetch()
            docs, s = debian_docs.documents(), settings(DEBIAN_VOCABS[-1])
        else:
            docs, s = corpus("small" if quick else "large"), settings(SIZES["small" if quick else "large"])
        profiler.enable()
        bpe.train(docs, s, keep=False)
        profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(20)
    stats.sort_stats("cumulative").print_stats(20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=INSTALL)
    parser.add_argument("--quick", action="store_true", help="the 702 KB corpus only; print, do not write")
    parser.add_argument("--output", type=Path, help=f"markdown file to write (default {OUTPUT.relative_to(ROOT)}, "
                                                    "not with --quick)")
    parser.add_argument("--profile", nargs="?", const="training", choices=["training", "training-debian", "encoding"],
                        help="cProfile and stop: the fast trainer on 11 MB (the default), on the ~70 MB Debian "
                             "corpus to 32,768, or a cold encode of the held-out 2 MB and the whitespace-free 1 MB")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--encoding-only", action="store_true",
                      help="only encoding, worst cases and start-up (minutes, not an hour); print, do not write")
    only.add_argument("--training-only", action="store_true",
                      help="only training beside rustbpe, bpeasy and tokenizers, 11 MB to 515 MB (about 15 "
                           "minutes); print, do not write")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    if args.profile:
        profile(args.profile, args.quick)
        return 0
    if args.quick and args.training_only:
        parser.error("--training-only runs the full sizes; it has no --quick form")
    report = benchmark(args.quick, args.encoding_only, args.training_only)
    print(report)
    output = args.output or (None if args.quick or args.encoding_only or args.training_only else OUTPUT)
    if output:
        output.write_text(report, encoding="utf-8")
        print(f"written to {output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
