"""The command line: `python3 -m bpe train|encode|decode|presets|export|import`.

A user error (missing file, invalid setting, undecodable file, bad tokenizer
file) prints one line on stderr and exits 2, and leaves no partial output file.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from . import files, formats
from .presets import PRESETS
from .pretokenize import PRETOKENIZERS
from .settings import ALPHABETS, SPECIALS, TIES, Settings
from .tokenizer import render
from .training import ALGORITHMS, Training, train


class UserError(Exception):
    """Something the user can fix; its message is the one line we print."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, not a usage dump
        raise UserError(f"{message} (see --help)")


def _split_documents(text: str, mode: str) -> list[str]:
    """file: the whole text; line: each non-empty line; paragraph: blocks between blank lines."""
    if mode == "file":
        return [text]
    if mode == "line":
        return [line for line in text.splitlines() if line]
    return [block.strip("\n") for block in re.split(r"\n[ \t]*\n", text) if block.strip("\n")]


def _read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a text file") from None
    except UnicodeDecodeError as error:
        raise UserError(f"{path}: not UTF-8 text (byte {error.start} cannot be decoded)") from None
    except OSError as error:
        raise UserError(f"{path}: {error.strerror}") from None


def _settings(args: argparse.Namespace, base: Settings) -> Settings:
    """The preset's (or default) settings with every explicit flag applied on top."""
    changes = {
        field: value
        for field, value in (
            ("alphabet", args.alphabet), ("pretokenizer", args.pretokenizer), ("tie", args.tie),
            ("min_frequency", args.min_frequency), ("specials", args.specials),
        )
        if value is not None
    }
    if args.merges is not None or args.vocab_size is not None:
        changes.update(merges=args.merges, vocab_size=args.vocab_size)
    return base.replace(**changes)


def _corpus(args: argparse.Namespace) -> tuple[list[str], Settings]:
    preset = None
    if args.preset is not None:
        if args.preset not in PRESETS:
            raise UserError(f"unknown preset {args.preset!r}; `python3 -m bpe presets` lists them")
        preset = PRESETS[args.preset]
    documents: list[str] = []
    for path in args.files:
        documents += _split_documents(_read_text(path), args.documents or "file")
    documents += args.text
    if not documents and not args.files and preset is not None:
        documents = list(preset.documents)
    return documents, _settings(args, preset.settings if preset else Settings(merges=256))


def _merge_rows(training: Training) -> list[dict]:
    vocab = training.vocab
    return [
        {"rank": m.rank, "left": m.left, "right": m.right, "id": m.id, "count": m.count,
         "replacements": m.replacements, "ties": m.ties, "text": render(vocab[m.id])}
        for m in training.merges
    ]


def _print_trace(training: Training) -> None:
    """The course text's trace format, one block per round."""
    print("TRACE bpe-merges-v1 BEGIN")
    for m in training.merges:
        for c in sorted(training.candidates(m.rank + 1), key=lambda c: (c.left, c.right)):
            winner = "yes" if (c.left, c.right) == (m.left, m.right) else "no"
            print(f"CANDIDATE rank={m.rank} left={c.left} right={c.right} count={c.count} winner={winner}")
        print(f"MERGE rank={m.rank} left={m.left} right={m.right} count={m.count} "
              f"replacements={m.replacements} token={m.id} bytes_hex={training.vocab[m.id].hex()}")
    print("TRACE bpe-merges-v1 END")


def _print_table(training: Training) -> None:
    print(f"{'rank':>5} {'id':>6} {'count':>8} {'repl':>8} {'ties':>5}  token")
    for row in _merge_rows(training):
        print(f"{row['rank']:>5} {row['id']:>6} {row['count']:>8} {row['replacements']:>8} {row['ties']:>5}  {row['text']!r}")


def _write_atomically(path: str, text: str) -> None:
    """Write to a temporary file beside the target, then rename: never a partial file."""
    target = Path(path)
    if not target.parent.is_dir():
        raise UserError(f"{path}: the folder {target.parent} does not exist")
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, target)
    except BaseException:
        os.unlink(temp)
        raise


def command_train(args: argparse.Namespace) -> None:
    documents, settings = _corpus(args)
    training = train(documents, settings, args.algorithm)
    if not training.corpus.chunks:
        print("bpe: the corpus is empty: no merges learned", file=sys.stderr)
    if args.out:
        _write_atomically(args.out, files.dumps(training))
    if args.trace:
        _print_trace(training)
    elif args.json:
        print(json.dumps({
            "settings": settings.to_dict(), "merges": _merge_rows(training), "tokens": training.tokens,
            "vocab_size": training.vocab_size(), "stopped": training.stopped,
        }, ensure_ascii=False))
    else:
        _print_table(training)
        print(f"{len(training.merges)} merges, vocabulary {training.vocab_size()}, "
              f"tokens {training.tokens[0]} -> {training.tokens[-1]}; stopped: {training.stopped}")


def _load(path: str) -> files.Saved:
    return files.loads(_read_text(path))


def command_encode(args: argparse.Namespace) -> None:
    tokenizer = _load(args.tokenizer).tokenizer
    text = sys.stdin.read() if args.text is None else args.text
    if args.rounds is not None and not 0 <= args.rounds <= len(tokenizer.merges):
        raise UserError(f"--rounds must be from 0 to {len(tokenizer.merges)}, not {args.rounds}")
    pieces = tokenizer.pieces(text, args.rounds)
    if args.json:
        print(json.dumps({"ids": [i for i, _ in pieces], "pieces": [p for _, p in pieces]}, ensure_ascii=False))
    else:
        print(" ".join("?" if i is None else str(i) for i, _ in pieces))


def command_decode(args: argparse.Namespace) -> None:
    tokenizer = _load(args.tokenizer).tokenizer
    sys.stdout.write(tokenizer.decode(args.ids) + "\n")


def command_presets(args: argparse.Namespace) -> None:
    for preset in PRESETS.values():
        print(f"{preset.name:<18} {preset.description}")


def command_export(args: argparse.Namespace) -> None:
    """tokenizer.json for Hugging Face tokenizers, or a tiktoken rank file plus its Encoding arguments."""
    tokenizer = _load(args.tokenizer).tokenizer
    if args.format == "hf":
        _write_atomically(args.out, formats.to_hf_json(tokenizer))
        print(f"wrote {args.out}: tokenizers.Tokenizer.from_file reads it "
              f"({len(tokenizer.vocab)} ids, {len(tokenizer.merges)} merges)")
        if tokenizer.alphabet.kind == "chars":
            print("bpe: note: a character outside the chars alphabet has no id here and is dropped by tokenizers, "
                  "so texts with one encode differently", file=sys.stderr)
        return
    name = args.name or Path(args.out).name.split(".")[0] or "bpe"
    ranks, encoding_args = formats.to_tiktoken(tokenizer, name)
    _write_atomically(args.out, ranks)
    _write_atomically(args.out + ".json", json.dumps(encoding_args, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {args.out} ({len(tokenizer.vocab) - len(tokenizer.specials)} ranks) and {args.out}.json "
          "(name, pat_str, special_tokens): tiktoken.Encoding(mergeable_ranks=tiktoken.load.load_tiktoken_bpe(PATH), **args); "
          "with TIKTOKEN_CACHE_DIR= set empty, tiktoken does not cache the file by its path")


def command_import(args: argparse.Namespace) -> None:
    """A byte-level BPE tokenizer.json or tiktoken rank file, as our tokenizer file."""
    if args.format == "hf":
        try:
            data = json.loads(_read_text(args.path))
        except json.JSONDecodeError as error:
            raise UserError(f"{args.path}: not a tokenizer.json (invalid JSON: {error})") from None
        imported = formats.from_hf(data, args.pretokenizer)
    else:
        encoding_args = None
        if Path(args.path + ".json").is_file():
            try:
                encoding_args = json.loads(_read_text(args.path + ".json"))
            except json.JSONDecodeError as error:
                raise UserError(f"{args.path}.json: invalid JSON ({error})") from None
        imported = formats.from_tiktoken(_read_text(args.path), encoding_args, args.pretokenizer)
    for note in imported.notes:
        print(f"bpe: note: {note}", file=sys.stderr)
    saved = imported.saved
    _write_atomically(args.out, files.dumps(saved))
    print(f"wrote {args.out}: {len(saved.merges)} merges, pre-tokenizer {saved.settings.pretokenizer}, "
          f"specials {saved.settings.specials}")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python3 -m bpe", description="Train and use byte pair encoding tokenizers.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    t = commands.add_parser("train", help="learn merges from text files, --text documents or a preset")
    t.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text files")
    t.add_argument("--text", action="append", default=[], metavar="DOC", help="one document (repeatable)")
    t.add_argument("--preset", help="a preset's corpus and settings; explicit flags override them")
    t.add_argument("--documents", choices=("file", "line", "paragraph"), help="how FILEs split into documents")
    t.add_argument("--alphabet", choices=ALPHABETS)
    t.add_argument("--pretokenizer", choices=PRETOKENIZERS)
    t.add_argument("--tie", choices=TIES)
    t.add_argument("--min-frequency", type=int, metavar="N")
    budget = t.add_mutually_exclusive_group()
    budget.add_argument("--merges", type=int, metavar="N", help="at most N merges (default 256)")
    budget.add_argument("--vocab-size", type=int, metavar="N", help="at most N vocabulary entries")
    t.add_argument("--specials", choices=tuple(SPECIALS))
    t.add_argument("--algorithm", choices=tuple(ALGORITHMS), default="fast")
    t.add_argument("--out", metavar="TOKENIZER.json", help="save the tokenizer")
    output = t.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print merges and token counts as JSON")
    output.add_argument("--trace", action="store_true", help="print the bpe-merges-v1 trace")
    t.set_defaults(handler=command_train)

    e = commands.add_parser("encode", help="encode TEXT (or stdin) with a saved tokenizer")
    e.add_argument("--tokenizer", required=True, metavar="TOKENIZER.json")
    e.add_argument("--rounds", type=int, metavar="K", help="use only the first K merges")
    e.add_argument("--json", action="store_true", help='print {"ids": [...], "pieces": [...]}')
    e.add_argument("text", nargs="?", metavar="TEXT")
    e.set_defaults(handler=command_encode)

    d = commands.add_parser("decode", help="turn token ids back into text")
    d.add_argument("--tokenizer", required=True, metavar="TOKENIZER.json")
    d.add_argument("ids", nargs="+", type=int, metavar="ID")
    d.set_defaults(handler=command_decode)

    p = commands.add_parser("presets", help="list the presets")
    p.set_defaults(handler=command_presets)

    x = commands.add_parser("export", help="write a saved tokenizer as a Hugging Face tokenizer.json or a tiktoken rank file")
    x.add_argument("--tokenizer", required=True, metavar="TOKENIZER.json")
    x.add_argument("--format", required=True, choices=formats.FORMATS)
    x.add_argument("--out", required=True, metavar="PATH", help="tiktoken also writes PATH.json (pat_str, specials)")
    x.add_argument("--name", help="the tiktoken encoding's name (default: PATH's name)")
    x.set_defaults(handler=command_export)

    i = commands.add_parser("import", help="read a byte-level BPE tokenizer.json or tiktoken rank file")
    i.add_argument("--format", required=True, choices=formats.FORMATS)
    i.add_argument("path", metavar="PATH", help="tokenizer.json, or a rank file (PATH.json beside it gives its pattern)")
    i.add_argument("--out", required=True, metavar="TOKENIZER.json")
    i.add_argument("--pretokenizer", choices=PRETOKENIZERS, help="split with this instead of the file's pattern")
    i.set_defaults(handler=command_import)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        args.handler(args)
    except (UserError, ValueError) as error:  # SettingsError and TokenizerFileError are ValueErrors
        print(f"bpe: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
