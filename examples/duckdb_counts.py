#!/usr/bin/env python3
"""Count a folder of text files with DuckDB, in the `bpe-counts` format that
`python3 -m bpe train --counts` reads: the counting runs on an engine built for it.

    python3 -m pip install duckdb
    python3 examples/duckdb_counts.py 'corpus/*.txt' --pretokenizer kinds --out counts.tsv
    python3 -m bpe train --counts counts.tsv --pretokenizer kinds --vocab-size 8192 --out tok.json

Each file is one document (as `bpe train FILE...` reads them). DuckDB's regular
expressions are RE2's, which has no lookaround, so `none`, `words` and `kinds` can be
counted here and `gpt2` (whose `\\s+(?!\\S)` looks ahead) cannot. The pattern is ours,
spelled out in the Rust dialect (`bpe.text.dialect.rust_pattern`), which RE2 reads the same way.
The same query runs on any engine with `regexp_extract_all`, `unnest` and `replace`.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # bpe from this checkout

from bpe.options import PRETOKENIZER  # noqa: E402
from bpe.text.dialect import rust_pattern  # noqa: E402
from bpe.trainers.counts import HEADER  # noqa: E402

#: The chunks of every file, counted, with \ tab LF CR escaped as the format says.
QUERY = r"""
COPY (
  SELECT count(*) AS n,
         replace(replace(replace(replace(chunk, '\', '\\'), chr(9), '\t'), chr(10), '\n'), chr(13), '\r')
  FROM (SELECT {chunks} AS chunk FROM read_text($files) WHERE content <> '')
  GROUP BY chunk
) TO '{out}' (FORMAT csv, DELIMITER '\t', HEADER false, QUOTE '', ESCAPE '')
"""
LOOKAROUND = ("gpt2",)


def count(files: str, pretokenizer: str, out: str) -> None:
    import duckdb

    if pretokenizer in LOOKAROUND:
        raise SystemExit(f"--pretokenizer {pretokenizer} needs lookahead, which RE2 (DuckDB) does not have")
    pattern = PRETOKENIZER.choose(pretokenizer).pattern
    chunks = "content" if pattern is None else "unnest(regexp_extract_all(content, $pattern))"
    parameters = {"files": files} | ({} if pattern is None else {"pattern": rust_pattern(pattern())})
    body = Path(out).with_suffix(".body")
    duckdb.connect().execute(QUERY.format(chunks=chunks, out=str(body).replace("'", "''")), parameters)
    with open(out, "w", encoding="utf-8", newline="") as target:  # the header says how chunks were cut
        target.write(f"{HEADER} pretokenizer={pretokenizer}\n")
        target.write(body.read_text(encoding="utf-8"))
    body.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", help="a DuckDB glob, e.g. 'corpus/*.txt'")
    parser.add_argument("--pretokenizer", default="kinds", choices=[n for n in PRETOKENIZER.names if n not in LOOKAROUND])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    count(args.files, args.pretokenizer, args.out)


if __name__ == "__main__":
    main()
