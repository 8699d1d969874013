"""Make the shipped rank data of bpe.real, and measure its agreement with tiktoken.

    python3 benchmarks/real_tokenizer.py data        # npm pack js-tiktoken -> bpe/real/*.ranks.gz
    python3 benchmarks/real_tokenizer.py agreement [FILES...]

`data` needs npm (the npm registry); it checks each table against the sha256 that
tiktoken itself pins for OpenAI's official rank file, so the shipped data is that file.

`agreement` needs `tiktoken` (pip). tiktoken cannot download its rank files here, so the
reference is `tiktoken.Encoding` built from the same ranks and tiktoken's own pattern:
the comparison covers the split (Python `re` with spelled-out classes against Rust's
fancy-regex with real \\p{...} classes) and the merging. With no FILES it reads the
Python 3.11 documentation sources and the Japanese Debian Reference, from Debian's
packages (apt-get download python3.11-doc debian-reference-ja; dpkg -x into /tmp/realtext).
It reports documents, characters, tokens, documents whose ids differ, and speed.
"""
from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe import real  # noqa: E402

JS_TIKTOKEN = "js-tiktoken@1.0.21"
TEXT_ROOT = Path("/tmp/realtext")


def make_data() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", JS_TIKTOKEN, "--silent"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        archive = next(Path(tmp).glob("js-tiktoken-*.tgz"))
        with tarfile.open(archive) as tar:
            for name in real.NAMES:
                source = tar.extractfile(f"package/dist/ranks/{name}.js").read().decode("utf-8")
                data = json.loads(source.removeprefix("export default ").rstrip().rstrip(";"))
                ranks: dict[bytes, int] = {}
                for line in filter(None, data["bpe_ranks"].split("\n")):
                    _, offset, *tokens = line.split(" ")
                    for i, token in enumerate(tokens):
                        ranks[base64.b64decode(token)] = int(offset) + i
                tokens = sorted(ranks, key=ranks.get)
                assert [ranks[t] for t in tokens] == list(range(len(tokens))), f"{name}: ranks are not 0..n-1"
                digest = hashlib.sha256(real.tiktoken_file(tokens)).hexdigest()
                assert digest == real.SPECS[name]["sha256"], f"{name}: sha256 {digest} is not the official file's"
                assert data["special_tokens"] == real.SPECS[name]["special_tokens"], f"{name}: specials differ"
                blob = real.write_ranks(tokens)
                (ROOT / "bpe" / "real" / real.data_file(name)).write_bytes(blob)
                print(f"{name}: {len(tokens)} ranks, sha256 of the tiktoken file matches; "
                      f"{real.data_file(name)} is {len(blob)} bytes")


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
    for name in real.NAMES:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("data")
    a = sub.add_parser("agreement")
    a.add_argument("files", nargs="*")
    args = parser.parse_args()
    make_data() if args.command == "data" else agreement(args.files)


if __name__ == "__main__":
    main()
