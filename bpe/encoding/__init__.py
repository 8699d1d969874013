"""Encoding text with a trained tokenizer: the alphabet of base units, pre-tokenizers, the
`Tokenizer` (merges applied in rank order), rank-based merging as tiktoken does it, and
reading ids back (decoding).

Imports `text`, `options`, `settings`, `errors` and `record`; never a trainer.
"""
