"""bpe: a faithful, fast byte pair encoding trainer with a round-by-round record.

>>> import bpe
>>> t = bpe.train(["walk walked", "talked"], bpe.Settings(pretokenizer="words", merges=3))
>>> [t.tokenizer.token_text(m.id) for m in t.merges]
['al', 'alk', 'ed']
>>> t.tokenizer.encode("walked")
[119, 257, 258]
"""
import importlib

#: Each public name and the module it comes from. They are imported on first use, so that
#: `python3 -m bpe encode` loads only what encoding needs.
_HOMES = {
    "Candidate": "training", "Merge": "merge", "Settings": "settings", "SettingsError": "settings",
    "Tokenizer": "tokenizer", "Training": "training", "render": "tokenizer", "train": "training",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:  # a submodule, as `bpe.pretokenize` was once `import bpe` loaded them all
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'bpe' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
