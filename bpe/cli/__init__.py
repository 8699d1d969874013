"""The command line: `python3 -m bpe train|count|encode|decode|chat|presets|export|import|serve`.

A user error (missing file, invalid setting, undecodable file, bad tokenizer
file, unwritable output) prints one line on stderr and exits 2, and writes no
output file; anything else is a bug and shows its traceback. Output cut short
by a closed pipe (`| head`) stops quietly, as Unix tools do.
"""
from __future__ import annotations

import os
import sys

from ..errors import UserInputError
from .commands import ALGORITHMS, UserError
from .parser import build_parser

__all__ = ["ALGORITHMS", "UserError", "main"]


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        args.handler(args)
        sys.stdout.flush()  # so that a closed pipe is noticed here, not at exit
    except UserInputError as error:
        print(f"bpe: error: {error}", file=sys.stderr)
        return 2
    except MemoryError:
        print("bpe: error: not enough memory for this input; use a smaller corpus", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _stop_writing()
        return 141  # what a shell reports for a program stopped by SIGPIPE
    except KeyboardInterrupt:
        return 130
    return 0


def _stop_writing() -> None:
    """The reader went away: send what is still buffered nowhere, so exit prints no second error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
