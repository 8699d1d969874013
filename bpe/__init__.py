"""bpe: a faithful, fast byte pair encoding trainer with a round-by-round record.

>>> import bpe
>>> t = bpe.train(["walk walked", "talked"], bpe.Settings(pretokenizer="words", merges=3))
>>> [t.tokenizer.token_text(m.id) for m in t.merges]
['al', 'alk', 'ed']
>>> t.tokenizer.encode("walked")
[119, 257, 258]
"""
from .merge import Merge
from .settings import Settings, SettingsError
from .tokenizer import Tokenizer, render
from .training import Candidate, Training, train

__all__ = ["Candidate", "Merge", "Settings", "SettingsError", "Tokenizer", "Training", "render", "train"]
