"""One entry point for the project: set-up, build, serve, test.

    python3 build.py build    # assemble the self-hosted static site in dist/
    python3 build.py serve    # build the site if needed and serve dist/ on 127.0.0.1
    python3 build.py test     # make .venv, install what the tests need, build dist/, run pytest

Every install step lives here, so a fresh clone on a fresh machine needs nothing else.
Everything fetched from outside (npm, PyPI) is pinned by version and sha256 in
site/bpe_build/pins.json; downloads and intermediate products are cached under .cache/."""
from __future__ import annotations

import argparse
import subprocess

from .assemble import build
from .installs import setup_tests
from .paths import DIST, PYTHON, ROOT
from .serve import make_server


def command_build(args: argparse.Namespace) -> int:
    build(force=args.force)
    return 0


def command_serve(args: argparse.Namespace) -> int:
    build()
    server = make_server(DIST, args.port)
    print(f"Serving dist/ on http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def command_test(args: argparse.Namespace) -> int:
    setup_tests()
    build()
    # One process: on two cores, two pytest-xdist workers measured slower (516-584 s against
    # 424 s), since the browser tests alone keep more than one core busy (docs/benchmarks.md).
    result = subprocess.run([str(PYTHON), "-m", "pytest", *args.pytest_args], cwd=ROOT)
    return result.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="assemble the self-hosted site in dist/")
    build_parser.add_argument("--force", action="store_true", help="rebuild even if dist/ looks up to date")
    build_parser.set_defaults(handler=command_build)
    serve = commands.add_parser("serve", help="build if needed and serve dist/ on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(handler=command_serve)
    test = commands.add_parser("test", help="install test dependencies, build dist/ and run the tests")
    test.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed on to pytest")
    test.set_defaults(handler=command_test)
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "test":  # argparse's REMAINDER does not take a leading option such as -q
        args.pytest_args = extra + args.pytest_args
    return args.handler(args)
