"""Text before tokens: Unicode's character classes, the pre-tokenizers' split patterns and the
regex dialects they are written in, and how a corpus text is cut into documents.

Imports nothing of bpe but `errors`: every other package may use it.
"""
