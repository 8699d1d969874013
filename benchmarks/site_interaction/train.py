# Each snippet ends with the line `_result` (a JSON string): runPython returns it; in CPython and under
# Node that line becomes a print.
# Globals set by the caller: TEXT, SPLIT, MERGES, REPS. Runs in CPython, in the page's worker and
# under Node. Builds its settings directly (Node's Pyodide has no param, so no bpe_app.state).
import hashlib, json, sys, time
import bpe
from bpe_app.state.documents import documents_of
_docs = documents_of(TEXT, SPLIT)
_settings = bpe.Settings(alphabet="bytes", pretokenizer="kinds", tie="smallest", specials="none",
                         min_frequency=2, merges=MERGES)
_seconds = []
for _ in range(REPS):
    _start = time.perf_counter()
    _training = bpe.train(_docs, _settings)
    _seconds.append(time.perf_counter() - _start)
_digest = hashlib.sha256(repr([(m.left, m.right, m.count) for m in _training.merges]).encode()).hexdigest()[:16]
_result = json.dumps({"seconds": _seconds, "merges": len(_training.merges), "documents": len(_docs),
                      "python": sys.version.split()[0], "digest": _digest})
_result
