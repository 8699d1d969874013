#!/usr/bin/env python3
"""CPU time of the first screen's answer to one key typed, per preset, in CPython (the worker
runs the same code in Pyodide, a few times slower). `--uncached` draws every pane on every key,
as the first screen did before it kept each pane's HTML.

    .venv/bin/python benchmarks/first_screen.py [--keys 200] [--uncached]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "site"), str(ROOT)]

from bpe.presets import PRESETS  # noqa: E402
from bpe_app.first_screen import FirstScreen  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--uncached", action="store_true")
    args = parser.parse_args()
    text = "the quick brown fox walks and talks " * 8
    for preset in sorted(PRESETS):
        screen = FirstScreen()
        screen.answer({"preset": preset, "round": 3})
        started = time.process_time()
        for n in range(1, args.keys + 1):
            if args.uncached:
                screen._drawn.clear()
            screen.answer({"text": text[:n % len(text)]})
        per_key = (time.process_time() - started) / args.keys
        print(f"{preset:18s} {per_key * 1000:7.3f} ms CPU per key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
