"""bpe: a faithful, fast byte pair encoding trainer with a round-by-round record.

>>> import bpe
>>> t = bpe.train(["walk walked", "talked"], bpe.Settings(pretokenizer="words", merges=3))
>>> [t.tokenizer.token_text(m.id) for m in t.merges]
['al', 'alk', 'ed']
>>> t.tokenizer.encode("walked")
[119, 257, 258]

The package is grouped by concern (docs/architecture.md): `text` (Unicode classes, split
patterns, documents), `encoding` (alphabets, pre-tokenizers, the tokenizer), `trainers` (the
reference and fast trainers and their record), `io` (text and tokenizer files), `formats`
(other libraries' files), `real` (published tokenizers), `explain` (stories, tours, trees,
steps, the vocabulary table); `options`, `settings`, `presets` and `cli` sit at the top.
"""
import importlib

__version__ = "0.1.0"

#: Each public name and the module it comes from. They are imported on first use, so that
#: `python3 -m bpe encode` loads only what encoding needs.
_HOMES = {
    "Candidate": "trainers.training", "Merge": "trainers.merge", "Settings": "settings", "SettingsError": "settings",
    "Tokenizer": "encoding.tokenizer", "Training": "trainers.training", "render": "encoding.vocab",
    "train": "trainers.training", "show": "views",
}
#: The public modules that live in a package of their concern, by the name `bpe` gives them
#: (`from bpe import story`, `bpe.files.save(...)`).
_MODULES = {
    **{name: f"explain.{name}" for name in ("difference", "languages", "steps", "story", "tours", "tree", "vocabulary")},
    "files": "io.files", "pretokenize": "encoding.pretokenize",
}

__all__ = sorted({*_HOMES, *_MODULES, "chat", "formats", "options", "presets", "real", "settings"})


def __getattr__(name: str):
    if name in _MODULES:
        value = importlib.import_module(f".{_MODULES[name]}", __name__)
    elif name in _HOMES:
        value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    else:  # a package or top-level module, as `bpe.real` was once `import bpe` loaded them all
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'bpe' has no attribute {name!r}") from None
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES, *_MODULES})
