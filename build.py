#!/usr/bin/env python3
"""One entry point for the project: set-up, build, serve, test (see site/bpe_build/cli.py).

    python3 build.py serve    # build the site if needed and serve dist/ on 127.0.0.1
    python3 build.py test     # make .venv, install what the tests need, build dist/, run pytest
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "site"))  # the build is the bpe_build package there

from bpe_build.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
