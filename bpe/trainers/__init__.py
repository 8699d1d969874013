"""Training: the corpus counted into chunks (on one core or several), the slow reference
trainer and the fast one beside it, the merge records they both return, and `Training`, the
round-by-round record the page and the command line show.

Imports `encoding` (a training ends in a `Tokenizer`) and everything below it.
"""
