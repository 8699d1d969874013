"""Presets: the published BPE systems this project reproduces, and a few more corpora.

Each preset is a corpus (its documents) and the settings its source used.

>>> preset = PRESETS["course"]
>>> preset.documents, preset.settings.min_frequency
(['aaa', 'aba'], 1)
"""
from __future__ import annotations

import dataclasses
from importlib import resources

from .settings import Settings


@dataclasses.dataclass(frozen=True)
class Preset:
    name: str
    description: str  # one line, shown beside the name
    documents: list[str]
    settings: Settings


def corpus_text(name: str) -> str:
    """A corpus file shipped in bpe/corpora/."""
    return resources.files(__package__).joinpath("corpora", name).read_text(encoding="utf-8")


def _presets() -> dict[str, Preset]:
    presets = [
        Preset(
            "from-scratch",
            "The cat/mat corpus: characters, words keep their leading space, ties go to the largest pair.",
            [corpus_text("from-scratch.txt")],
            Settings(alphabet="chars", pretokenizer="words", tie="largest-text", min_frequency=2, merges=20),
        ),
        Preset(
            "course",
            "Two tiny documents, aaa and aba: overlaps counted apart from replacements, count-one merges allowed.",
            ["aaa", "aba"],
            Settings(alphabet="bytes", pretokenizer="none", tie="smallest", min_frequency=1, merges=2),
        ),
    ]
    return {preset.name: preset for preset in presets}


PRESETS: dict[str, Preset] = _presets()
