"""A tokenizer file read by `bpe import` (the page's upload), shown as the real tokenizers are.

It behaves as an `Encoding` wherever the page compares, inspects or lists a real tokenizer,
but encodes with bpe's own tokenizer (merges in rank order, as Hugging Face's BPE does), and
its tokens' parents are its merges, not rebuilt from ranks. Its ids are the file's own
(`bpe.io.file_ids`), its added tokens among them; a file that numbers tokens as bpe does (bpe's
own export) keeps bpe's: the byte values, any specials, then one per merge.

>>> import bpe
>>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
>>> enc = ImportedEncoding("upload", "mine.json", t.tokenizer, [])
>>> enc.encode_ordinary("lowest") == t.tokenizer.encode_ordinary("lowest"), enc.parents(257), enc.n_vocab
(True, (256, 119), 260)
>>> from bpe.io.file_ids import FileIds
>>> own = ImportedEncoding("upload", "theirs.json", t.tokenizer, [], FileIds(tuple(range(1, 261)), ((0, "<s>", True),)))
>>> own.encode_ordinary("<s>lowest"), own.parents(258), own.merge_rank(258), own.tokens[0]
([0, 258, 102, 116, 117], (257, 120), 1, b'<s>')
"""
from __future__ import annotations

from ..encoding.tokenizer import Tokenizer
from ..formats.splits import WHOLE, exported_pattern
from ..io.file_ids import FileIds
from .encoding import Encoding, _clean


class ImportedEncoding(Encoding):
    def __init__(self, name: str, label: str, tokenizer: Tokenizer, notes: list[str], file_ids: FileIds | None = None):
        super().__init__(name, ".+", [], {})  # the split, ranks and tokens are the tokenizer's own, below
        self.pat_str = exported_pattern(tokenizer.settings.pretokenizer) or WHOLE  # as the file writes it
        self.label = label  # the file's name, as the page shows it
        self.tokenizer = tokenizer
        self.notes = notes
        self.file_ids = file_ids
        self.first_merge_id = tokenizer.first_merge_id
        if file_ids is None:
            self.tokens = list(tokenizer.vocab)
            self.special_tokens = dict(tokenizer.special_tokens)  # bpe's own specials (octlm's, ChatML's)
        else:  # by the file's id; an id the file leaves unused holds nothing
            self.tokens = [b""] * file_ids.size
            for bpe_id, file_id in enumerate(file_ids.ids):
                if file_id is not None:
                    self.tokens[file_id] = tokenizer.vocab[bpe_id]
            for file_id, text, _ in file_ids.added:
                self.tokens[file_id] = text.encode("utf-8")
            self.special_tokens = {text: file_id for file_id, text, _ in file_ids.added}

    def token_bytes(self, token_id: int) -> bytes:
        """A token's bytes by the file's id; an id the file does not use is refused."""
        if self.file_ids is not None and self._bpe(token_id) is None and not self.is_added(token_id):
            raise ValueError(f"{token_id!r} is not a token id of {self.label}")
        return super().token_bytes(token_id)

    def split(self, text: str) -> list[str]:
        return self.tokenizer.split(_clean(text))

    def encode_ordinary(self, text: str) -> list[int]:
        """The file's ids (its added tokens matched, as tokenizers does); a lone surrogate becomes
        U+FFFD first, as in every real tokenizer here. A byte the file has no token for is left
        out, as tokenizers leaves it out."""
        if self.file_ids is None:
            return self.tokenizer.encode_ordinary(_clean(text))
        return [i for i in self.file_ids.encode(self.tokenizer, _clean(text)) if i is not None]

    def _bpe(self, token_id: int) -> int | None:
        return token_id if self.file_ids is None else self.file_ids.bpe_id(token_id)

    def parents(self, token_id: int) -> tuple[int, ...]:
        """The two tokens the merge that made `token_id` joined (none for a byte, a special or an added token)."""
        bpe_id = self._bpe(token_id)
        if bpe_id is None:
            return ()
        parents = self.tokenizer.parents(bpe_id)
        return parents if self.file_ids is None else tuple(self.file_ids.file_id(i) for i in parents)

    def merge_rank(self, token_id: int) -> int | None:
        """Which merge made the token, from 0 (None for a byte, a special or an added token)."""
        bpe_id = self._bpe(token_id)
        return None if bpe_id is None or bpe_id < self.first_merge_id else bpe_id - self.first_merge_id

    def is_byte(self, token_id: int) -> bool:
        bpe_id = self._bpe(token_id)
        return bpe_id is not None and bpe_id < 256

    def is_added(self, token_id: int) -> bool:
        return self.file_ids is not None and self.file_ids.added_text(token_id) is not None
