"""A newcomer's two commands, timed from a fresh clone (issue 24).

    python3 benchmarks/fresh_clone.py test     # `bash .ci/run` (the README's test command) in a new clone
    python3 benchmarks/fresh_clone.py serve    # `python3 build.py serve` until it serves the page
    python3 benchmarks/fresh_clone.py test --again   # the same clone's second run (needs --keep's clone)

Each run clones HEAD into a new folder and gives it an empty HOME, so pip's and npm's caches are
cold as on a new machine. What it cannot make new is the machine itself: Debian's Chromium, once
installed, stays (a new machine spends about 30 s more on apt-get). Prints the wall time, the load
before and after, the CPU, every build step's own "done in" figure, and pytest's summary line.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def clone(keep: Path | None) -> Path:
    folder = keep or Path(tempfile.mkdtemp(prefix="bpe-fresh-"))
    if not (folder / "repo").exists():
        subprocess.run(["git", "clone", "-q", str(ROOT), str(folder / "repo")], check=True)
        (folder / "home").mkdir()
    return folder


def run_test(folder: Path) -> tuple[float, str]:
    env = dict(os.environ, HOME=str(folder / "home"))
    started = time.monotonic()
    done = subprocess.run(["bash", ".ci/run"], cwd=folder / "repo", env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    output = done.stdout + done.stderr
    (folder / f"test-{int(time.time())}.log").write_text(output)
    if done.returncode:
        print(output[-4000:])
        raise SystemExit(f".ci/run failed with {done.returncode}")
    return seconds, output


def run_serve(folder: Path, port: int) -> tuple[float, str]:
    """Start `build.py serve`; the time until the page answers on its port."""
    env = dict(os.environ, HOME=str(folder / "home"))
    started = time.monotonic()
    server = subprocess.Popen([sys.executable, "build.py", "serve", "--port", str(port)], cwd=folder / "repo",
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    try:
        for line in server.stdout:
            lines.append(line)
            if line.startswith("Serving dist/"):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                    assert page.status == 200 and b"<html" in page.read(2000).lower()
                return time.monotonic() - started, "".join(lines)
        raise SystemExit("build.py serve stopped before serving:\n" + "".join(lines[-40:]))
    finally:
        server.terminate()
        server.wait(timeout=30)


def report(what: str, seconds: float, output: str, before: str) -> None:
    print(f"{what}: {seconds:.0f} s ({seconds / 60:.1f} min) on {cpu_model()}, {os.cpu_count()} cores; "
          f"load {before} before, {load()} after")
    for step in re.findall(r"^\[build\] (.*: done in [\d.]+ s)$", output, re.M):
        print(f"  {step[:150]}")
    for line in re.findall(r"^\[build\] (built dist/ in .*|precompiled \d+ archives in .*|converted .*)$", output, re.M):
        print(f"  {line}")
    summary = re.findall(r"^=+ (.* in [\d.]+s.*) =+$", output, re.M)
    if summary:
        print(f"  pytest: {summary[-1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["test", "serve"])
    parser.add_argument("--keep", type=Path, help="use (or make) this folder for the clone and keep it")
    parser.add_argument("--again", action="store_true", help="run a second time in the --keep clone")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    if args.again and not (args.keep and (args.keep / "repo").exists()):
        parser.error("--again needs --keep naming the clone of a first run")
    folder = clone(args.keep)
    before = load()
    try:
        if args.command == "test":
            seconds, output = run_test(folder)
        else:
            seconds, output = run_serve(folder, args.port)
        report(f"{args.command}{' again' if args.again else ''}, fresh clone", seconds, output, before)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
