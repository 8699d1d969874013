# Globals: TEXT, SPLIT, MERGES, ROUNDS. The pure view functions a round change re-runs, per round.
import json, time
import bpe
from bpe.panes.candidates import candidates_html
from bpe.panes.caption import round_caption
from bpe.panes.chart import chart_svg, merges_html
from bpe.panes.corpus import corpus_html
from bpe.panes.encoding import encoding_html
from bpe_app.state.documents import documents_of
_training = bpe.train(documents_of(TEXT, SPLIT), bpe.Settings(
    alphabet="bytes", pretokenizer="kinds", tie="smallest", specials="none", min_frequency=2, merges=MERGES))
_views = {
    "corpus": lambda k: corpus_html(_training, k),
    "candidates": lambda k: candidates_html(_training, k),
    "chart": lambda k: chart_svg(_training, k),
    "merges list": lambda k: merges_html(_training, k),
    "encoder": lambda k: encoding_html(_training, "walkable", k),
    "caption": lambda k: round_caption(_training, k),
}
for _view in _views.values():
    _view(0)  # what the page computed when the training arrived (caches of distinct documents)
_times = {name: [] for name in _views}
for _k in ROUNDS:
    for _name, _view in _views.items():
        _start = time.perf_counter()
        _view(_k)
        _times[_name].append(time.perf_counter() - _start)
_result = json.dumps(_times)
_result
