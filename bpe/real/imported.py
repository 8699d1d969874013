"""A tokenizer file read by `bpe import` (the page's upload), shown as the real tokenizers are.

It behaves as an `Encoding` wherever the page compares, inspects or lists a real tokenizer,
but encodes with bpe's own tokenizer (merges in rank order, as Hugging Face's BPE does), and
its tokens' parents are its merges, not rebuilt from ranks. Its ids are bpe's: the byte values,
any specials, then one per merge (the import's notes say when the file's own ids differ).

>>> import bpe
>>> t = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
>>> enc = ImportedEncoding("upload", "mine.json", t.tokenizer, [])
>>> enc.encode_ordinary("lowest") == t.tokenizer.encode("lowest"), enc.parents(257), enc.n_vocab
(True, (256, 119), 260)
"""
from __future__ import annotations

from ..formats.splits import WHOLE, exported_pattern
from ..tokenizer import Tokenizer
from .encoding import Encoding, _clean


class ImportedEncoding(Encoding):
    def __init__(self, name: str, label: str, tokenizer: Tokenizer, notes: list[str]):
        super().__init__(name, ".+", list(tokenizer.vocab), {})  # unused: the split is the tokenizer's own
        self.pat_str = exported_pattern(tokenizer.settings.pretokenizer) or WHOLE  # as the file writes it
        self.label = label  # the file's name, as the page shows it
        self.tokenizer = tokenizer
        self.notes = notes
        self.first_merge_id = tokenizer.first_merge_id

    def split(self, text: str) -> list[str]:
        return self.tokenizer.split(_clean(text))

    def encode_ordinary(self, text: str) -> list[int]:
        """bpe's ids; a lone surrogate becomes U+FFFD first, as in every real tokenizer here."""
        return self.tokenizer.encode(_clean(text))

    def parents(self, token_id: int) -> tuple[int, ...]:
        """The two tokens the merge that made `token_id` joined (none for a byte or a special)."""
        return self.tokenizer.parents(token_id)
