"""What each command of `python3 -m bpe` does, given its parsed arguments (see `parser.py`)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator

from ..errors import UserInputError
from ..io import files, textio
from ..options import DOCUMENTS, FORMAT
from ..settings import Settings

# `training` and `presets` are imported by the commands that use them: `encode` and `decode`
# start faster without them (a test checks these names match `training.ALGORITHMS`).
ALGORITHMS = ("fast", "reference")


class UserError(UserInputError):
    """Something the user can fix; its message is the one line we print."""



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


def _corpus(args: argparse.Namespace) -> tuple[Iterable[str], Settings]:
    """The documents to train on, as a stream (files are read one at a time), and the settings."""
    preset = _preset(args)
    settings = _settings(args, preset.settings if preset else Settings(merges=256))
    if not args.files and not args.text and preset is not None:
        return list(preset.documents), settings
    return _documents(args), settings


def _preset(args: argparse.Namespace):
    if getattr(args, "preset", None) is None:
        return None
    from ..presets import PRESETS

    if args.preset not in PRESETS:
        raise UserError(f"unknown preset {args.preset!r}; `python3 -m bpe presets` lists them")
    return PRESETS[args.preset]


def _documents(args: argparse.Namespace) -> Iterator[str]:
    """Every file's documents, then each --text, read as they are needed."""
    split = DOCUMENTS.choose(args.documents or "file").split
    for _, text in textio.read_each(args.files):
        yield from split(text)
    for text in args.text:
        yield textio.argument(text, "--text")


def _print_trace(training) -> None:
    """The course text's trace format, one block per round."""
    print("TRACE bpe-merges-v1 BEGIN")
    for m in training.merges:
        for c in sorted(training.candidates(m.rank + 1), key=lambda c: (c.left, c.right)):
            winner = "yes" if (c.left, c.right) == (m.left, m.right) else "no"
            print(f"CANDIDATE rank={m.rank} left={c.left} right={c.right} count={c.count} winner={winner}")
        print(f"MERGE rank={m.rank} left={m.left} right={m.right} count={m.count} "
              f"replacements={m.replacements} token={m.id} bytes_hex={training.vocab[m.id].hex()}")
    print("TRACE bpe-merges-v1 END")


def _print_table(training) -> None:
    print(f"{'rank':>5} {'id':>6} {'count':>8} {'repl':>8} {'ties':>5}  token")
    for row in files.merge_rows(training):
        print(f"{row['rank']:>5} {row['id']:>6} {row['count']:>8} {row['replacements']:>8} {row['ties']:>5}  {row['text']!r}")


def command_train(args: argparse.Namespace) -> None:
    from ..trainers.training import train, train_corpus

    if args.counts and (args.files or args.text):
        raise UserError("--counts trains on count files alone: leave out FILE and --text")
    if args.counts:
        settings = _settings(args, preset.settings if (preset := _preset(args)) else Settings(merges=256))
        training = train_corpus(_read_counts(args.counts, settings), settings, args.algorithm)
    else:
        documents, settings = _corpus(args)
        training = train(documents, settings, args.algorithm, keep=False, workers=_workers_of(args))
    if not training.corpus.chunks:
        print("bpe: the corpus is empty: no merges learned", file=sys.stderr)
    if args.out is not None:
        textio.write_files({args.out: files.dumps(training)}, inputs=[*args.files, *args.counts])
    if args.trace:
        _print_trace(training)
    elif args.json:
        print(json.dumps({
            "settings": settings.to_dict(), "merges": files.merge_rows(training), "tokens": training.tokens,
            "vocab_size": training.vocab_size(), "stopped": training.stopped,
        }, ensure_ascii=False))
    else:
        _print_table(training)
        print(f"{len(training.merges)} merges, vocabulary {training.vocab_size()}, "
              f"tokens {training.tokens[0]} -> {training.tokens[-1]}; stopped: {training.stopped}")


def command_serve(args: argparse.Namespace) -> None:
    """The page on a local Panel server; with a corpus, trained once here and shown to every visitor."""
    from .. import views
    from ..trainers.training import train

    training = None
    if args.files or args.text or args.preset:
        documents, settings = _corpus(args)
        training = train(list(documents), settings)  # kept: the page draws each document's row
    views.serve(args.port, training)


def _read_counts(paths: list[str], settings: Settings):
    """Every count file's table, added up, as a corpus; a file whose header names another
    pre-tokenizer than the settings' is refused (its chunks would be cut differently)."""
    from ..trainers import counts
    from ..trainers.corpus import Corpus

    tables = []
    for path, text in textio.read_each(paths):
        table, pretokenizer = counts.loads(text, path)
        if pretokenizer is not None and pretokenizer != settings.pretokenizer:
            raise UserError(f"{path} was counted with --pretokenizer {pretokenizer}, but this training uses "
                            f"{settings.pretokenizer}; pass --pretokenizer {pretokenizer}")
        tables.append(table)
    total = counts.merge(tables)
    return Corpus.of_counts(total, settings.alphabet, settings.pretokenizer, counts.sha256(total))


def command_count(args: argparse.Namespace) -> None:
    """Each distinct chunk of the files with its count, in the `bpe-counts` format."""
    from ..trainers import counts, parallel

    pretokenizer = args.pretokenizer or Settings().pretokenizer
    table = parallel.count(_documents(args), pretokenizer, _workers_of(args))
    if not table:
        print("bpe: the corpus is empty: no chunks to count", file=sys.stderr)
    text = counts.dumps(table, pretokenizer)
    if args.out is None:
        sys.stdout.write(text)
    else:
        textio.write_files({args.out: text}, inputs=args.files)
        print(f"wrote {args.out}: {len(table):,} distinct chunks, {sum(table.values()):,} in all", file=sys.stderr)


def _load(path: str) -> files.Saved:
    return files.loads(textio.read_text(path))


def command_encode(args: argparse.Namespace) -> None:
    """The text's ids: an imported file's own ids, if it was one (see `bpe.io.file_ids`); a real
    tokenizer's, given its name. A special token's text follows tiktoken's rules (refused unless
    --allowed-special or --disallowed-special none say otherwise), but in an imported file, whose
    added tokens are matched in any text, as `tokenizers` matches them."""
    text = textio.read_stdin() if args.text is None else textio.argument(args.text, "the text")
    if not os.path.exists(args.tokenizer) and "/" not in args.tokenizer and not args.tokenizer.endswith(".json"):
        return _encode_real(args, text)  # a name, not a file: bpe.real is imported only then
    saved = _load(args.tokenizer)
    tokenizer = saved.tokenizer
    if args.rounds is not None and not 0 <= args.rounds <= len(tokenizer.merges):
        raise UserError(f"--rounds must be from 0 to {len(tokenizer.merges)}, not {args.rounds}")
    if saved.file_ids:
        if args.allowed_special or args.disallowed_special != "all":
            raise UserError("--allowed-special and --disallowed-special do not apply to an imported file: its "
                            "added tokens are matched in any text, as tokenizers matches them")
        pieces = saved.file_ids.pieces(tokenizer, text, args.rounds)
    else:
        pieces = tokenizer.pieces(text, args.rounds, **_special_rules(args, tokenizer.special_tokens, "this tokenizer"))
    if args.json:
        print(json.dumps({"ids": [i for i, _ in pieces], "pieces": [p for _, p in pieces]}, ensure_ascii=False))
    else:
        print(" ".join("?" if i is None else str(i) for i, _ in pieces))


def _special_rules(args: argparse.Namespace, specials: dict[str, int], who: str) -> dict:
    """`encode`'s allowed_special and disallowed_special, from --allowed-special and --disallowed-special."""
    unknown = sorted(set(args.allowed_special) - {"all"} - set(specials))
    if unknown:
        has = f"its specials are {', '.join(specials)}" if specials else "it has none"
        raise UserError(f"--allowed-special: {who} has no special token {unknown[0]!r} ({has})")
    return {"allowed_special": "all" if args.allowed_special == ["all"] else set(args.allowed_special),
            "disallowed_special": "all" if args.disallowed_special == "all" else ()}


def _encode_real(args: argparse.Namespace, text: str) -> None:
    from .. import real

    if args.tokenizer not in real.NAMES:
        raise UserError(f"no tokenizer file {args.tokenizer!r}, and no real tokenizer of that name: "
                        f"the real tokenizers are {', '.join(real.NAMES)}")
    if args.rounds is not None:
        raise UserError("--rounds is for a saved tokenizer: a real tokenizer has all its merges")
    encoding = real.load(args.tokenizer)
    ids = encoding.encode(text, **_special_rules(args, encoding.special_tokens, args.tokenizer))
    if args.json:
        names = {i: name for name, i in encoding.special_tokens.items()}
        pieces = [names.get(i) or encoding.token_bytes(i).decode("utf-8", "backslashreplace") for i in ids]
        print(json.dumps({"ids": ids, "pieces": pieces}, ensure_ascii=False))
    else:
        print(" ".join(map(str, ids)))


def command_decode(args: argparse.Namespace) -> None:
    saved = _load(args.tokenizer)
    if saved.file_ids:
        data = saved.file_ids.decode_bytes(saved.tokenizer, args.ids)
        sys.stdout.write(data.decode("utf-8", "replace") + "\n")
    else:
        sys.stdout.write(saved.tokenizer.decode(args.ids) + "\n")


def command_chat(args: argparse.Namespace) -> None:
    """A conversation (a JSON list of messages) rendered with a tokenizer's chat format: a real
    tokenizer's own, or ChatML's for a tokenizer file with ChatML's specials."""
    from .. import chat

    encoding = _chat_tokenizer(args.tokenizer)
    text = textio.read_stdin() if args.file == "-" else textio.read_text(args.file)
    told = chat.chat(encoding, chat.read_messages(text))
    pieces = chat_pieces(encoding, told)
    if args.json:
        print(json.dumps({"ids": told.ids, "count": told.count, "pieces": pieces, "per_message": told.per_message,
                          "format": told.format}, ensure_ascii=False))
        return
    print(f"{told.count:,} tokens ({told.format}); per message: {', '.join(map(str, told.per_message))}")
    if told.note:
        print(told.note)
    print(" ".join(map(str, told.ids)))


def _chat_tokenizer(name: str):
    """A real tokenizer by name, or a tokenizer file (bpe's own, or one `bpe import` made) shown as one."""
    from .. import real
    from ..real.imported import ImportedEncoding

    if os.path.exists(name) or "/" in name or name.endswith(".json"):
        saved = _load(name)
        return ImportedEncoding("file", os.path.basename(name), saved.tokenizer, [], saved.file_ids)
    if name not in real.NAMES:
        raise UserError(f"unknown tokenizer {name!r}: give a tokenizer file, or one of the real tokenizers: "
                        f"{', '.join(real.NAMES)}")
    return real.load(name)


def chat_pieces(encoding, told) -> list[str]:
    """Each id's text: a special's name, or the token's bytes as text (broken UTF-8 as \\xNN)."""
    return [part.text if part.special else encoding.token_bytes(i).decode("utf-8", "backslashreplace")
            for part in told.parts for i in part.ids]


def command_presets(args: argparse.Namespace) -> None:
    from ..presets import PRESETS

    for preset in PRESETS.values():
        print(f"{preset.name:<18} {preset.description}")


def command_export(args: argparse.Namespace) -> None:
    """A saved tokenizer in another library's format (options.FORMAT says which there are)."""
    saved = _load(args.tokenizer)
    # Only an imported file has ids of its own; a format's export takes them as `file_ids`.
    own = {"file_ids": saved.file_ids} if saved.file_ids else {}
    outputs, done, notes = FORMAT.choose(args.format).module().export(saved.tokenizer, args.out, args.name, **own)
    textio.write_files(outputs, inputs=[args.tokenizer])
    print(done)
    for note in notes:
        print(f"bpe: note: {note}", file=sys.stderr)


def command_import(args: argparse.Namespace) -> None:
    """Another library's byte-level BPE file, as our tokenizer file."""
    imported, read = FORMAT.choose(args.format).module().load(args.path, args.pretokenizer)
    for note in imported.notes:
        print(f"bpe: note: {note}", file=sys.stderr)
    saved = imported.saved
    textio.write_files({args.out: files.dumps(saved)}, inputs=read)
    print(f"wrote {args.out}: {len(saved.merges)} merges, pre-tokenizer {saved.settings.pretokenizer}, "
          f"specials {saved.settings.specials}")


def _workers_of(args: argparse.Namespace) -> int:
    from ..trainers.parallel import default_workers

    return args.workers or default_workers()


