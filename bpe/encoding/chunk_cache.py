"""The caches `Tokenizer.encode` reads: a chunk's ids after some number of merges, worked out once.

One `Chunks` per number of rounds (the scrubber asks for many); `Stretches` beside it for the
pre-tokenizers whose chunks end after a space before a non-space (`options.Pretokenizer.lone_spaces`).
"""
from __future__ import annotations

from itertools import chain

#: Distinct chunks remembered per number of rounds before the cache starts over.
CACHE_LIMIT = 100_000
#: How many stretches between two such spaces are remembered whole (see `Stretches`): the
#: first this many. 11 MB of documentation has 202,000 distinct ones (about 35 MB).
STRETCH_LIMIT = 1 << 18
#: Stretches longer than this are worked out again each time, not remembered.
LONG_STRETCH = 256


class Chunks(dict):
    """Chunk text -> its ids after `limit` merges, filled in on first use: `encode` maps
    `__getitem__` over the chunks, so only a chunk never seen before runs Python code.

    >>> from bpe import Settings, Tokenizer; from bpe.encoding.alphabet import Alphabet
    >>> tok = Tokenizer(Settings(alphabet="bytes", pretokenizer="none"), Alphabet("bytes"), [(97, 97)])
    >>> chunks = Chunks(tok, 1)
    >>> chunks["aab"], len(chunks)
    ((256, 98), 1)
    """

    def __init__(self, tokenizer, limit: int):
        super().__init__()
        self.tokenizer, self.limit = tokenizer, limit
        self.stretches = Stretches(tokenizer, self)

    def __missing__(self, chunk: str) -> tuple[int | None, ...]:
        if len(self) >= CACHE_LIMIT:
            self.clear()
        tokenizer = self.tokenizer
        ids = self[chunk] = tokenizer.ids(tokenizer.merge(tokenizer.alphabet.sequence(chunk), self.limit))
        return ids


class Stretches(dict):
    """A stretch of text that a space before a non-space ends (the space itself not in the
    key) -> the ids of the stretch and that space, from the chunk cache.

    A chunk ends after such a space, and the pattern looks neither ahead nor behind
    (`options.Pretokenizer.lone_spaces`), so the stretch and its space split on their own
    into the chunks they are part of in the whole text. A stretch over LONG_STRETCH
    characters (a text with few spaces) is worked out again each time, not kept, and so is
    one that comes after the first STRETCH_LIMIT: common ones come early, and starting over
    would drop them too. (Hugging Face's BPE word cache also has a fixed capacity, and
    keeps no word over 256 characters.)

    >>> from bpe import Settings, Tokenizer; from bpe.encoding.alphabet import Alphabet
    >>> tok = Tokenizer(Settings(alphabet="bytes", pretokenizer="kinds"), Alphabet("bytes"), [(32, 32)])
    >>> stretches = Chunks(tok, 1).stretches
    >>> stretches["a "], stretches["a\\n"], tok.encode("\\n a  a b") == [10, 32, 97, 256, 97, 32, 98]
    ((97, 256), (97, 10, 32), True)
    """

    def __init__(self, tokenizer, chunks: Chunks):
        super().__init__()
        self.split, self.chunks = tokenizer._split, chunks

    def __missing__(self, stretch: str) -> tuple[int | None, ...]:
        ids = tuple(chain.from_iterable(map(self.chunks.__getitem__, self.split(stretch + " "))))
        if len(stretch) <= LONG_STRETCH and len(self) < STRETCH_LIMIT:
            self[stretch] = ids
        return ids

