"""Where a SentencePiece model cuts a text unlike byte-level BPE, in sentences with examples from
that text: the ▁ that stands for a space, the space put before the text, byte fallback, the
unknown piece, and the missing split pattern (the page's comparison lists them)."""
from __future__ import annotations

from ..real.sentencepiece import BYTE, SPACE, UNKNOWN, SentencePieceBPE


def differences(model: SentencePieceBPE, text: str) -> list[str]:
    """Sentences saying where this model cuts `text` unlike byte-level BPE, each with an example from it.

    >>> model = SentencePieceBPE.from_pieces(["<unk>"], ["▁", "w", "a", "l", "k", "▁w", "al", "▁wal", "▁walk"],
    ...                                      scores=[0, -1, -2, -3, -4, -5, -6, -7, -8])
    >>> differences(model, "walk")[:2]
    ['▁walk: a space becomes ▁ and is part of the token.', 'The text starts with ▁: SentencePiece puts a space before it, so its first word is cut as a word after a space.']
    """
    ids = model.encode_ordinary(text)
    if not ids:
        return []
    out = []
    spaced = next((model.pieces[i] for i in ids if model.pieces[i].startswith(SPACE) and len(model.pieces[i]) > 1), None)
    if spaced:
        out.append(f"{spaced}: a space becomes ▁ and is part of the token.")
    if model.add_dummy_prefix and text[:1] != " ":
        out.append("The text starts with ▁: SentencePiece puts a space before it, so its first word is cut "
                   "as a word after a space.")
    run = _first_byte_run(ids, model.types)
    if run:
        start, end = run
        pieces = "".join(model.pieces[i] for i in ids[start:end])
        raw = b"".join(model.tokens[i] for i in ids[start:end])
        shown = raw.decode("utf-8", "backslashreplace")
        named = {"\n": "a line break", "\t": "a tab", "\r": "a carriage return"}.get(shown, shown)
        out.append(f"{pieces}: no piece for {named}, so it falls back to its {end - start} UTF-8 "
                   f"byte{'s' if end - start > 1 else ''}.")
    unknown = next((i for i in ids if model.types[i] == UNKNOWN), None)
    if unknown is not None:
        out.append(f"{model.pieces[unknown]}: no piece for a character here, and no byte fallback, so it is unknown.")
    out.append("No split pattern: pieces are joined by score across the whole text, and only the vocabulary "
               "keeps them inside words; byte-level BPE joins by rank inside each chunk of its pattern.")
    return out


def _first_byte_run(ids: list[int], types: list[int]) -> tuple[int, int] | None:
    """Where the first run of byte pieces starts and ends in `ids`."""
    start = next((k for k, i in enumerate(ids) if types[i] == BYTE), None)
    if start is None:
        return None
    end = start
    while end < len(ids) and types[ids[end]] == BYTE:
        end += 1
    return start, end
