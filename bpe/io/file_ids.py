"""A tokenizer file's own ids, kept through `bpe import`.

bpe numbers a tokenizer its own way: the 256 byte values, any specials, then one id per merge.
A file another library made numbers the same tokens its own way (GPT-2's files put the bytes in
the order of its byte-to-character map, and a trainer adds its specials first), and a model sees
those ids. `FileIds` maps bpe's ids to the file's, and holds the file's added tokens that are no
byte and no merge (`<|endoftext|>`): each keeps its id, and is matched in any text, as
Hugging Face `tokenizers` matches an added token.

>>> import bpe
>>> t = bpe.train(["aaab"], bpe.Settings(pretokenizer="none", min_frequency=1, merges=1))
>>> ids = FileIds(tuple(range(3, 259)) + (0,), added=((1, "<s>", True),))
>>> ids.pieces(t.tokenizer, "aaab<s>")
[(0, 'aa'), (100, 'a'), (101, 'b'), (1, '<s>')]
>>> ids.decode_bytes(t.tokenizer, [0, 1, 101])
b'aa<s>b'
"""
from __future__ import annotations

import re

from ..encoding.tokenizer import Tokenizer
from ..errors import UserInputError
from ..record import Record


class FileIdsError(UserInputError):
    """Ids that contradict themselves; the message says where."""


class FileIds(Record):
    #: bpe's id -> the file's id, for every token of bpe's vocabulary (None: the file lacks it).
    ids: tuple
    #: (the file's id, text, special) for each added token that is no byte and no merge.
    added: tuple = ()

    def __post_init__(self) -> None:
        to_bpe: dict[int, int] = {}
        for bpe_id, file_id in enumerate(self.ids):
            if file_id is None:
                continue
            if type(file_id) is not int or file_id < 0:
                raise FileIdsError(f"bpe's id {bpe_id} maps to {file_id!r}, not an id from 0 up")
            if file_id in to_bpe:
                raise FileIdsError(f"bpe's ids {to_bpe[file_id]} and {bpe_id} both map to the file's id {file_id}")
            to_bpe[file_id] = bpe_id
        texts: dict[int, str] = {}
        for file_id, text, _ in self.added:
            if type(file_id) is not int or file_id < 0 or file_id in to_bpe or file_id in texts or not text:
                raise FileIdsError(f"the added token {text!r} has the id {file_id!r}, which is taken or no id")
            texts[file_id] = text
        by_text = {text: i for i, text in texts.items()}
        longest = sorted(by_text, key=len, reverse=True)  # the longest match first, as tokenizers does
        self.__dict__.update(_to_bpe=to_bpe, _texts=texts, _by_text=by_text,
                             _split=re.compile("(" + "|".join(map(re.escape, longest)) + ")") if longest else None)

    @property
    def size(self) -> int:
        """One more than the largest id the file has."""
        return max([*self._to_bpe, *self._texts, -1]) + 1

    def file_id(self, bpe_id: int) -> int | None:
        return self.ids[bpe_id]

    def bpe_id(self, file_id: int) -> int | None:
        """bpe's id for one of the file's (None for an added token or an id the file lacks)."""
        return self._to_bpe.get(file_id)

    def added_text(self, file_id: int) -> str | None:
        return self._texts.get(file_id)

    def pieces(self, tokenizer: Tokenizer, text: str, rounds: int | None = None) -> list[tuple[int | None, str]]:
        """(the file's id, piece) for each token of `text`: added tokens matched first, the rest by `tokenizer`."""
        parts = self._split.split(text) if self._split else [text]
        out: list[tuple[int | None, str]] = []
        for k, part in enumerate(parts):
            if k % 2:
                out.append((self._by_text[part], part))
            elif part:
                out.extend((None if i is None else self.ids[i], piece) for i, piece in tokenizer.pieces(part, rounds))
        return out

    def encode(self, tokenizer: Tokenizer, text: str) -> list[int | None]:
        return [i for i, _ in self.pieces(tokenizer, text)]

    def token_bytes(self, tokenizer: Tokenizer, file_id: int) -> bytes:
        """The bytes of one of the file's ids: an added token's text, or bpe's token."""
        text = self._texts.get(file_id)
        if text is not None:
            return text.encode("utf-8")
        bpe_id = self._to_bpe.get(file_id) if type(file_id) is int else None
        if bpe_id is None:
            raise FileIdsError(f"{file_id!r} is not a token id of this file")
        return tokenizer.vocab[bpe_id]

    def decode_bytes(self, tokenizer: Tokenizer, file_ids) -> bytes:
        return b"".join(self.token_bytes(tokenizer, i) for i in file_ids)

    def to_dict(self) -> dict:
        return {"ids": list(self.ids), "added": [{"id": i, "text": text, "special": special}
                                                 for i, text, special in self.added]}

    @classmethod
    def from_dict(cls, data, vocab_size: int) -> "FileIds":
        """Read the `file_ids` field of a tokenizer file; FileIdsError names what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("ids"), list) or not isinstance(data.get("added", []), list):
            raise FileIdsError('"file_ids" must be an object with an "ids" list and an "added" list')
        if len(data["ids"]) != vocab_size:
            raise FileIdsError(f'"file_ids" lists {len(data["ids"])} ids, and the tokenizer has {vocab_size} tokens')
        added = []
        for item in data.get("added", []):
            if not isinstance(item, dict) or type(item.get("id")) is not int or not isinstance(item.get("text"), str) \
                    or type(item.get("special", False)) is not bool:
                raise FileIdsError('each added token in "file_ids" needs a whole-number "id", a "text" and a true/false "special"')
            added.append((item["id"], item["text"], item.get("special", False)))
        return cls(tuple(data["ids"]), tuple(added))
