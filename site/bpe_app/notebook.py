"""The page's views in a notebook cell, on a state of their own: what `bpe.show` gives.

A Training is shown as if the page had trained it (`SideA.take`): the rounds, its corpus rows, the
candidate pairs, the encoder, the inspector and the vocabulary, every one the site's own view. A
tokenizer (a real one, a file read by `bpe.files`, a `bpe.Tokenizer`) is shown as the page shows a
real tokenizer compared with: the encoder's text as it cuts it, the inspector, the vocabulary.
Each call has its own state, and its clicks and keys stay in its own output (`scope`).

>>> import bpe
>>> t = bpe.train(["walk walked walking talked"] * 5, bpe.Settings(pretokenizer="words", merges=8))
>>> view = show(t, "encoder", text="walking")
>>> view.state.training is t, view.state.encode_text, view.state.round
(True, 'walking', 8)
"""
from __future__ import annotations

import itertools

import panel as pn

import bpe
from bpe import real
from bpe.io.files import Saved
from bpe.real.imported import ImportedEncoding

from .actions import listening
from .app import heading
from .candidates_view import CandidatesView
from .chart_view import ChartView
from .chat_view import ChatView
from .compare_view import ComparisonPanes, CompareView
from .corpus_view import CorpusView
from .encoder_view import EncoderView, TextBox
from .inspector_view import InspectorView
from .languages_view import LanguagesView
from .scrubber import Scrubber
from .settings_view import SettingsView
from .state import UPLOAD, AppState
from .stepper_view import StepperView
from .vocabulary_view import VocabularyView

#: Each view by the name `show` takes, its heading, and how it is made (from the state and the scope).
VIEWS = {
    "rounds": ("Rounds", lambda state, scope: Scrubber(state, scope)),
    "corpus": ("Corpus", lambda state, scope: CorpusView(state)),
    "pairs": ("Candidate pairs", lambda state, scope: CandidatesView(state)),
    "encoder": ("Encode", lambda state, scope: EncoderView(state)),
    "stepper": ("Step by step", lambda state, scope: StepperView(state)),
    "chart": ("Tokens and vocabulary, round by round", lambda state, scope: ChartView(state)),
    "vocabulary": ("Vocabulary", lambda state, scope: VocabularyView(state)),
    "languages": ("Cost across languages", lambda state, scope: LanguagesView(state)),
    "chat": ("Chat: a conversation as the model sees it", lambda state, scope: ChatView(state)),
    "compare": ("Compare with a real tokenizer", lambda state, scope: CompareView(state)),
    "settings": ("Settings", lambda state, scope: SettingsView(state)),
}
#: A tokenizer's encoder: the text as the tokenizer shown (the one compared with) cuts it.
TOKENIZER_VIEWS = {**VIEWS, "encoder": ("Encode", lambda state, scope: pn.Column(TextBox(state), ComparisonPanes(state),
                                                                                  sizing_mode="stretch_width"))}
#: The views shown when none is named.
TRAINING_SHOWS = ("rounds", "corpus", "pairs", "encoder", "vocabulary")
TOKENIZER_SHOWS = ("encoder", "vocabulary")
#: The options `show` takes, and the state's inputs they set.
OPTIONS = {"text": "encode_text", "round": "round", "compare": "compare", "specials": "specials_in_text",
           "query": "vocab_query"}
#: A notebook trains in CPython, on a corpus as large as the command line reads (1 GiB).
CORPUS_LIMIT = 1 << 30
_views = itertools.count(1)


class Shown(pn.viewable.Viewer):
    """The views of one object (`views`, by name), on their own state (`state`), in a box of their own."""

    def __init__(self, state: AppState, names: tuple[str, ...], views: dict, **params):
        super().__init__(**params)
        self.state = state
        scope = f"bpe-view-{next(_views)}"
        self.views = {name: views[name][1](state, scope) for name in names}  # each view, by its name
        parts = [item for name in names for item in (heading(views[name][0], 3), self.views[name])]
        self._layout = pn.Column(*parts, InspectorView(state), listening(state, scope), css_classes=[scope],
                                 sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout


def show(obj, view: str | None = None, **options) -> Shown:
    """`bpe.show` (see `bpe.notebook`): `obj`'s views, or the one named `view`, with `options` set."""
    _extension()
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TypeError(f"bpe.show takes no option {unknown[0]!r}: its options are {', '.join(OPTIONS)}")
    state = AppState(corpus_limit=CORPUS_LIMIT)
    if isinstance(obj, bpe.Training):
        state.take(obj)
        views, names = VIEWS, TRAINING_SHOWS
    else:
        _compare_with(state, _as_tokenizer(obj))
        views, names = TOKENIZER_VIEWS, TOKENIZER_SHOWS
    if view is not None and view not in views:
        raise ValueError(f"bpe.show has no view {view!r}: its views are {', '.join(views)}")
    state.param.update({OPTIONS[name]: value for name, value in options.items() if name != "round"})
    if "round" in options:
        state.round = min(max(int(options["round"]), 0), state.rounds)
    return Shown(state, names if view is None else (view,), views)


def _as_tokenizer(obj) -> real.Encoding:
    """A tokenizer of any kind as the page shows a real one: by name, as loaded, or as a file."""
    if isinstance(obj, str) and obj in real.NAMES:
        return real.load(obj)
    if isinstance(obj, real.Encoding):
        return obj
    if isinstance(obj, Saved):
        return ImportedEncoding(UPLOAD, "your tokenizer file", obj.tokenizer, [], obj.file_ids)
    if isinstance(obj, bpe.Tokenizer):
        return ImportedEncoding(UPLOAD, "this tokenizer", obj, [])
    raise TypeError(f"bpe.show shows a bpe.Training, a tokenizer (bpe.Tokenizer, a file read by bpe.files, "
                    f"bpe.real.load(...)) or a real tokenizer's name ({', '.join(real.NAMES)}), not {type(obj).__name__}")


def _compare_with(state: AppState, encoding: real.Encoding) -> None:
    """Show `encoding` as the real tokenizer compared with: a real one by its name, any other as an upload."""
    if encoding.name in real.NAMES and not isinstance(encoding, ImportedEncoding):
        state.param.update(reference=encoding, loaded={**state.loaded, encoding.name: encoding},
                           compare=encoding.name, vocab_source=encoding.name)
    else:
        state.param.update(uploaded=encoding, reference=encoding, compare=UPLOAD, vocab_source=UPLOAD)


def _extension() -> None:
    """Load Panel's notebook extension if no cell has (`pn.extension()`), its scripts inlined: a
    notebook, like the site, loads nothing from outside."""
    if not pn.extension._loaded:
        pn.extension(inline=True)
