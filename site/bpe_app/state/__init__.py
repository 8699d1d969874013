"""The page's state: `AppState`, composed of one part per concern (see app_state.py), and the
plain-Python helpers the parts use (the inputs and `bpe.Settings`, the corpus's documents, the
real tokenizers' loading, the tour's steps).

Imports the bpe core only: the views (`bpe_app`'s modules) and the panes' renderers read it,
never the other way round.
"""
from .app_state import AppState
from .comparison import COMPARISONS, UPLOAD
from .inputs import SETTING_INPUTS
from .side_a import DEFAULT_PRESET, TRAINING_INPUTS

__all__ = ["COMPARISONS", "DEFAULT_PRESET", "SETTING_INPUTS", "TRAINING_INPUTS", "UPLOAD", "AppState"]
