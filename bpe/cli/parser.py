"""The command line's arguments: every command's parser, its choices and help read from `bpe.options`."""
from __future__ import annotations

import argparse

from ..options import ALPHABET, DOCUMENTS, FORMAT, MIN_FREQUENCY, PRETOKENIZER, SPECIALS, TIE, Option
from . import commands
from .commands import ALGORITHMS, UserError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, not a usage dump
        raise UserError(f"{message} (see --help)")



def _choice(parser: argparse.ArgumentParser, option: Option, **more) -> None:
    """An argument whose values, and their help, are the registry's."""
    parser.add_argument(option.flag, choices=option.names, help=option.describe().replace("%", "%%"), **more)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python3 -m bpe", description="Train and use byte pair encoding tokenizers.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add in (_train_parser, _count_parser, _encode_parser, _decode_parser, _chat_parser, _presets_parser,
                _export_parser, _import_parser, _serve_parser):
        add(subparsers)
    return parser


def _training_options(t: argparse.ArgumentParser) -> None:
    """What a training reads: its corpus (files, documents, a preset) and its settings."""
    t.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files")
    t.add_argument("--text", action="append", default=[], metavar="DOC", help="one document (repeatable)")
    t.add_argument("--preset", help="a preset's corpus and settings; explicit flags override them")
    for option in (DOCUMENTS, ALPHABET, PRETOKENIZER, TIE):
        _choice(t, option)
    t.add_argument(MIN_FREQUENCY.flag, type=int, metavar="N", help=MIN_FREQUENCY.help)
    budget = t.add_mutually_exclusive_group()
    budget.add_argument("--merges", type=int, metavar="N", help="at most N merges (default 256)")
    budget.add_argument("--vocab-size", type=int, metavar="N", help="at most N vocabulary entries")
    _choice(t, SPECIALS)


def _train_parser(subparsers) -> None:
    t = subparsers.add_parser("train", help="learn merges from text files, --text documents or a preset")
    _training_options(t)
    t.add_argument("--algorithm", choices=ALGORITHMS, default="fast")
    t.add_argument("--counts", action="append", default=[], metavar="COUNTS.tsv",
                   help="train on count files (from `count`, or any engine writing that format) instead of text; "
                        "repeatable, the counts add up")
    _workers(t)
    t.add_argument("--out", metavar="TOKENIZER.json", help="save the tokenizer")
    output = t.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print merges and token counts as JSON")
    output.add_argument("--trace", action="store_true", help="print the bpe-merges-v1 trace")
    t.set_defaults(handler=commands.command_train)


def _workers(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=_positive, metavar="N",
                        help="count chunks on N processes (default: as many as there are cores); "
                             "the result is the same for any N")


def _positive(value: str) -> int:
    number = int(value) if value.isdigit() else 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 up, not {value!r}")
    return number


def _count_parser(subparsers) -> None:
    c = subparsers.add_parser("count", help="count each distinct chunk of text files (the bpe-counts format)")
    c.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files")
    c.add_argument("--text", action="append", default=[], metavar="DOC", help="one document (repeatable)")
    _choice(c, DOCUMENTS)
    _choice(c, PRETOKENIZER)
    _workers(c)
    c.add_argument("--out", metavar="COUNTS.tsv", help="write here (default: standard output)")
    c.set_defaults(handler=commands.command_count)


def _encode_parser(subparsers) -> None:
    e = subparsers.add_parser("encode", help="encode TEXT (or stdin) with a saved tokenizer or a real one")
    e.add_argument("--tokenizer", required=True, metavar="TOKENIZER.json|NAME",
                   help="a saved tokenizer file, or a real tokenizer's name (cl100k_base, tekken, ...)")
    e.add_argument("--rounds", type=int, metavar="K", help="use only the first K merges")
    e.add_argument("--allowed-special", action="append", metavar="NAME", default=[],
                   help="a special token whose text becomes its id (repeatable; all: every one)")
    e.add_argument("--disallowed-special", choices=("all", "none"), default="all",
                   help="all (the default, as tiktoken): a special token's text that is not allowed is an "
                        "error; none: it is plain text")
    e.add_argument("--json", action="store_true", help='print {"ids": [...], "pieces": [...]}')
    e.add_argument("text", nargs="?", metavar="TEXT")
    e.set_defaults(handler=commands.command_encode)


def _decode_parser(subparsers) -> None:
    d = subparsers.add_parser("decode", help="turn token ids back into text")
    d.add_argument("--tokenizer", required=True, metavar="TOKENIZER.json")
    d.add_argument("ids", nargs="+", type=int, metavar="ID")
    d.set_defaults(handler=commands.command_decode)


def _chat_parser(subparsers) -> None:
    c = subparsers.add_parser("chat", help="count a conversation as a tokenizer's model sees it (its chat format)")
    c.add_argument("--tokenizer", required=True, metavar="NAME|TOKENIZER.json", help="a real tokenizer with a chat "
                   "format (tekken, mistral_v3, mistral_v1, cl100k_base, o200k_base, dolma2), or a tokenizer file "
                   "with ChatML's specials (bpe train --specials chatml), which counts in ChatML")
    c.add_argument("--json", action="store_true", help='print {"ids": [...], "count": N, "pieces": [...], ...}')
    c.add_argument("file", metavar="FILE", help='a JSON list of {"role": ..., "content": ...}; - for standard input')
    c.set_defaults(handler=commands.command_chat)


def _serve_parser(subparsers) -> None:
    s = subparsers.add_parser("serve", help="the page on a local Panel server, in CPython (needs bpe[notebook]); "
                                            "with FILE, --text or --preset, showing that training")
    _training_options(s)
    s.add_argument("--port", type=_port, default=8000, metavar="N", help="the port on 127.0.0.1 (default 8000)")
    s.set_defaults(handler=commands.command_serve)


def _port(value: str) -> int:
    number = _positive(value)
    if number > 65535:
        raise argparse.ArgumentTypeError(f"a port is from 1 to 65535, not {value}")
    return number


def _presets_parser(subparsers) -> None:
    subparsers.add_parser("presets", help="list the presets").set_defaults(handler=commands.command_presets)


def _export_parser(subparsers) -> None:
    x = subparsers.add_parser("export", help="write a saved tokenizer in another library's format")
    x.add_argument("--tokenizer", required=True, metavar="TOKENIZER.json")
    _choice(x, FORMAT, required=True)
    x.add_argument("--out", required=True, metavar="PATH", help="tiktoken also writes PATH.json (pat_str, specials)")
    x.add_argument("--name", help="the tiktoken encoding's name (default: PATH's name)")
    x.set_defaults(handler=commands.command_export)


def _import_parser(subparsers) -> None:
    i = subparsers.add_parser("import", help="read another library's byte-level BPE file")
    _choice(i, FORMAT, required=True)
    i.add_argument("path", metavar="PATH", help="tokenizer.json, or a rank file (PATH.json beside it gives its pattern)")
    i.add_argument("--out", required=True, metavar="TOKENIZER.json")
    i.add_argument("--pretokenizer", choices=PRETOKENIZER.names, help="split with this instead of the file's pattern")
    i.set_defaults(handler=commands.command_import)


