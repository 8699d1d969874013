"""SentencePiece's BPE, as `sentencepiece.SentencePieceProcessor.encode` does it, standard library only.

How it differs from byte-level BPE (tiktoken's):
- **Spaces.** The normalizer writes every space as `▁` (U+2581) and, with `add_dummy_prefix`,
  puts one before the text, so "walk" becomes "▁walk" and the space is part of the token.
- **No split pattern.** The whole text is one piece; only the vocabulary keeps pieces from
  spanning words.
- **Characters, then scores.** Encoding starts from Unicode characters, not bytes, and joins
  the adjacent pair whose joined piece has the highest score (leftmost on a tie), until no
  adjacent pair is a piece. There are no merge rules, only scored pieces.
- **Byte fallback.** A character that is no piece becomes its UTF-8 bytes, each the piece
  `<0xXX>`, when the model has `byte_fallback`; otherwise the unknown piece (consecutive ones fused).

Not covered, and refused or left out: unigram models (refused, naming the type), normalizers
other than `identity` (a model whose `precompiled_charsmap` is not empty is refused), sampling
and BPE-dropout (`enable_sampling`), and n-best encoding.

>>> model = SentencePieceBPE.from_pieces(["<unk>", "<s>", "</s>"], ["▁", "w", "a", "l", "k", "▁w", "al", "▁wal", "▁walk"],
...                                      scores=[0, -1, -2, -3, -4, -5, -6, -7, -8])
>>> [model.piece(i) for i in model.encode_ordinary("walk")]
['▁walk']
>>> [model.piece(i) for i in model.encode_ordinary("wax")], model.decode(model.encode_ordinary("walk walk"))
(['▁w', 'a', '<unk>'], 'walk walk')
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

from .encoding import Encoding, _clean
from .protobuf import ProtobufError, message

#: What the normalizer writes for a space.
SPACE = "\u2581"
#: SentencePiece's piece types (`ModelProto.SentencePiece.Type`).
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
#: `TrainerSpec.ModelType`.
MODEL_TYPES = {1: "unigram", 2: "bpe", 3: "word", 4: "char"}


class ModelError(ValueError):
    """A `.model` file this encoder cannot read or does not cover; the message says which."""


@dataclass(frozen=True)
class Merge:
    """One join while encoding: the pieces `left` + `right` at symbol `position` became a piece of `score`."""
    left: str
    right: str
    score: float
    position: int


class SentencePieceBPE(Encoding):
    """A SentencePiece BPE model: pieces by id, each with a score and a type."""

    def __init__(self, name: str, pieces: list[str], scores: list[float], types: list[int], *,
                 byte_fallback: bool = False, add_dummy_prefix: bool = True, remove_extra_whitespaces: bool = True,
                 escape_whitespaces: bool = True, treat_whitespace_as_suffix: bool = False, unk_surface: str = " \u2047 "):
        if len(pieces) != len(scores) or len(pieces) != len(types):
            raise ModelError("every piece needs a score and a type")
        self.name, self.pat_str, self.normalize, self.rank_offset = name, "", None, 0
        self.pieces, self.scores, self.types = pieces, scores, types
        self.byte_fallback, self.add_dummy_prefix = byte_fallback, add_dummy_prefix
        self.remove_extra_whitespaces, self.escape_whitespaces = remove_extra_whitespaces, escape_whitespaces
        self.treat_whitespace_as_suffix, self.unk_surface = treat_whitespace_as_suffix, unk_surface
        # As sentencepiece's model_interface: normal, user-defined and unused pieces can be joined
        # into; the others (unknown, control, byte) are only looked up.
        self.joinable: dict[str, int] = {}
        self.reserved: dict[str, int] = {}
        for i, (piece, kind) in enumerate(zip(pieces, types)):
            table = self.joinable if kind in (NORMAL, USER_DEFINED, UNUSED) else self.reserved
            if piece in table:
                raise ModelError(f"the piece {piece!r} is defined twice")
            table[piece] = i
        unknown = [i for i, kind in enumerate(types) if kind == UNKNOWN]
        if len(unknown) != 1:
            raise ModelError("a model needs exactly one unknown piece")
        self.unk_id = unknown[0]
        self.byte_ids = {int(piece[3:5], 16): i for i, (piece, kind) in enumerate(zip(pieces, types)) if kind == BYTE}
        if byte_fallback and len(self.byte_ids) != 256:
            raise ModelError("byte_fallback needs the 256 pieces <0x00>...<0xFF>")
        self.user_defined = sorted((p for p, kind in zip(pieces, types) if kind == USER_DEFINED), key=len, reverse=True)
        self._user_starts = {p[0] for p in self.user_defined if p}  # where one may begin: most characters can't
        self.special_tokens = {piece: i for i, (piece, kind) in enumerate(zip(pieces, types)) if kind in (CONTROL, UNKNOWN)}
        self._special_bytes = {}
        # What a chip shows for each id: the piece as written (▁ and all), a byte piece as its byte.
        self.tokens = [bytes([int(p[3:5], 16)]) if kind == BYTE else p.encode() for p, kind in zip(pieces, types)]
        self.ranks = {}
        self._cache = {}

    @classmethod
    def from_pieces(cls, specials: list[str], pieces: list[str], scores: list[float], name: str = "tiny", **options):
        """A model from plain lists: `specials` are `<unk>` then control pieces, scored 0."""
        types = [UNKNOWN] + [CONTROL] * (len(specials) - 1) + [NORMAL] * len(pieces)
        return cls(name, specials + pieces, [0.0] * len(specials) + list(scores), types, **options)

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "sentencepiece") -> "SentencePieceBPE":
        """A model from a `.model` file's bytes (a `ModelProto`)."""
        try:
            model = message(data, repeated=frozenset({1}))
            pieces = [message(p) for p in model.get(1, [])]
            trainer = message(model.get(2, b""))
            normalizer = message(model.get(3, b""))
            texts = [p.get(1, b"").decode("utf-8") for p in pieces]
        except (ProtobufError, UnicodeDecodeError, AttributeError, TypeError) as error:
            raise ModelError(f"not a SentencePiece model file ({error})") from None
        if not pieces:
            raise ModelError("not a SentencePiece model file (it holds no pieces)")
        kind = MODEL_TYPES.get(trainer.get(3, 1), f"type {trainer.get(3)}")
        if kind != "bpe":
            raise ModelError(f"this is a SentencePiece {kind} model; only BPE models are covered here")
        if normalizer.get(2) or normalizer.get(6):
            raise ModelError(f"its normalizer ({normalizer.get(1, b'').decode('utf-8', 'replace') or 'custom'}) rewrites "
                             "characters by rules; only the identity normalizer is covered here")
        return cls(name, texts, [float(p.get(2, 0.0)) for p in pieces], [int(p.get(3, NORMAL)) for p in pieces],
                   byte_fallback=bool(trainer.get(35, 0)), treat_whitespace_as_suffix=bool(trainer.get(24, 0)),
                   unk_surface=trainer.get(44, " \u2047 ".encode()).decode("utf-8"),
                   add_dummy_prefix=bool(normalizer.get(3, 1)), remove_extra_whitespaces=bool(normalizer.get(4, 1)),
                   escape_whitespaces=bool(normalizer.get(5, 1)))

    def __repr__(self) -> str:
        return f"<SentencePieceBPE {self.name!r}: {len(self.pieces)} pieces>"

    @property
    def n_vocab(self) -> int:
        return len(self.pieces)

    def piece(self, token_id: int) -> str:
        return self.pieces[token_id]

    def normalized(self, text: str) -> str:
        """The text as the identity normalizer leaves it: spaces as ▁, the dummy prefix, and
        with `remove_extra_whitespaces`, no leading, trailing or repeated spaces.

        >>> SentencePieceBPE.from_pieces(["<unk>"], [], []).normalized("  a  b ")
        '▁a▁b'
        """
        text = _clean(text)
        if self.remove_extra_whitespaces:
            text = " ".join(part for part in text.split(" ") if part)
        if not text:
            return ""
        if self.add_dummy_prefix:
            text = text + " " if self.treat_whitespace_as_suffix else " " + text
        return text.replace(" ", SPACE) if self.escape_whitespaces else text

    def split(self, text: str) -> list[str]:
        """SentencePiece has no split pattern: the normalized text is one piece."""
        normalized = self.normalized(text)
        return [normalized] if normalized else []

    def _symbols(self, text: str) -> list[tuple[str, bool]]:
        """The text as characters, a user-defined piece as one frozen symbol (never joined further)."""
        if not self.user_defined:
            return [(char, False) for char in text]
        starts = self._user_starts
        out, i = [], 0
        while i < len(text):
            match = text[i] in starts and next((p for p in self.user_defined if text.startswith(p, i)), None)
            out.append((match, True) if match else (text[i], False))
            i += len(match) if match else 1
        return out

    def merges(self, normalized: str) -> tuple[list[str], list[Merge]]:
        """The pieces one normalized text ends as, and every join on the way, in order."""
        symbols = self._symbols(normalized)
        piece = [s for s, _ in symbols]
        frozen = [f for _, f in symbols]
        after, before = list(range(1, len(piece) + 1)), list(range(-1, len(piece) - 1))
        joinable, scores, heap, done = self.joinable, self.scores, [], []
        unused: dict[str, tuple[str, str]] = {}

        def consider(left: int, right: int) -> None:
            if left < 0 or right >= len(piece) or frozen[left] or frozen[right]:
                return
            joined = piece[left] + piece[right]
            i = joinable.get(joined)
            if i is None:
                return
            # sentencepiece's queue: the highest score first, then the leftmost
            heapq.heappush(heap, (-scores[i], left, right, len(joined)))
            if self.types[i] == UNUSED:
                unused[joined] = (piece[left], piece[right])

        for i in range(len(piece) - 1):
            consider(i, i + 1)
        while heap:
            score, left, right, size = heapq.heappop(heap)
            if not piece[left] or not piece[right] or len(piece[left]) + len(piece[right]) != size:
                continue  # one side changed since this pair was queued
            done.append(Merge(piece[left], piece[right], -score, left))
            piece[left] += piece[right]
            piece[right] = ""
            after[left] = after[right]
            if after[left] < len(piece):
                before[after[left]] = left
            consider(before[left], left)
            consider(left, after[left])
        out, i = [], 0
        while i < len(piece):
            out.extend(self._resegment(piece[i], unused))
            i = after[i]
        return out, done

    def _resegment(self, piece: str, unused: dict[str, tuple[str, str]]) -> list[str]:
        """An unused piece is split back into the two it was joined from, as sentencepiece does."""
        i = self.joinable.get(piece)
        if i is None or self.types[i] != UNUSED or piece not in unused:
            return [piece]
        left, right = unused[piece]
        return self._resegment(left, unused) + self._resegment(right, unused)

    def _id(self, piece: str) -> int:
        i = self.reserved.get(piece)
        return i if i is not None else self.joinable.get(piece, self.unk_id)

    def encode_ordinary(self, text: str) -> list[int]:
        """The ids sentencepiece's `encode(text)` gives (no BOS or EOS)."""
        ids = self._cache.get(text)
        if ids is not None:
            return list(ids)
        out: list[int] = []
        for piece in self.merges(self.normalized(text))[0]:
            i = self._id(piece)
            if i != self.unk_id:
                out.append(i)
            elif self.byte_fallback:
                out.extend(self.byte_ids[b] for b in piece.encode("utf-8"))
            elif not out or out[-1] != self.unk_id:  # consecutive unknown pieces are fused into one
                out.append(i)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[text] = tuple(out)
        return out

    def token_bytes(self, token_id: int) -> bytes:
        if not 0 <= token_id < len(self.tokens):
            raise ValueError(f"{token_id!r} is not a token id of {self.name}")
        return self.tokens[token_id]

    def surface(self, token_id: int) -> bytes:
        """What an id decodes to: ▁ as a space, a byte piece as its byte, a control piece as nothing."""
        self.token_bytes(token_id)  # an id out of range is refused here
        kind = self.types[token_id]
        if kind == CONTROL:
            return b""
        if kind == UNKNOWN:
            return self.unk_surface.encode()
        if kind == BYTE:
            return self.tokens[token_id]
        return self.pieces[token_id].replace(SPACE, " ").encode() if self.escape_whitespaces else self.tokens[token_id]

    def decode_bytes(self, ids) -> bytes:
        """The text's bytes, the dummy prefix's space taken off the first piece, as sentencepiece decodes."""
        out, first = [], True
        for i in ids:
            part = self.surface(i)
            if first and part and self.types[i] != CONTROL:
                if self.add_dummy_prefix and not self.treat_whitespace_as_suffix and part.startswith(b" "):
                    part = part[1:]
                first = False
            out.append(part)
        return b"".join(out)

    def token_texts(self, text: str) -> list[tuple[int, str]]:
        return [(i, self.tokens[i].decode("utf-8", "backslashreplace")) for i in self.encode_ordinary(text)]

    def parents(self, token_id: int) -> tuple[int, ...]:
        """The two pieces whose join makes this piece when it is encoded alone (none for a
        character, a byte or a special): how the scores build it.

        >>> model = SentencePieceBPE.from_pieces(["<unk>"], ["a", "b", "ab", "abb"], [0, -1, -2, -3])
        >>> model.parents(4), model.parents(1)
        ((3, 2), ())
        """
        if self.types[token_id] not in (NORMAL, UNUSED) or len(self.pieces[token_id]) < 2:
            return ()
        pieces, joins = self.merges(self.pieces[token_id])
        if pieces != [self.pieces[token_id]] or not joins:
            return ()
        last = joins[-1]
        return self._id(last.left), self._id(last.right)
