# CPython only: the whole Python side of what the page does, as in the worker: the real App on an
# AppState, rendered into a Bokeh document whose every change is serialized as the worker does
# (panel.io.pyodide._process_document_events, minus the conversion to JS). Times (1) the retraining a
# pasted 100 KB corpus starts (from the explainer preset with the 100 KB settings, as in the page;
# training at once, where the page defers it by one event-loop turn) and (2) round changes by
# AppState.step, HALF forward from round 0 and HALF back from the last round.
import gc, json, sys, time
sys.path.insert(0, SITE)
import panel as pn
from bokeh.core.serialization import Serializer
from bokeh.document import Document
from bokeh.document.json import PatchJson
from bpe_app.app import App
from bpe_app.state import AppState

state = AppState()
state.param.update(alphabet="bytes", pretokenizer="kinds", tie="smallest", specials="none", min_frequency=2,
                   budget="merges", budget_size=MERGES, split=SPLIT)
explainer = state.corpus_text
doc = Document()
root = pn.panel(App(state=state)).get_root(doc)
state.schedule = None  # App defers trainings to the event loop; train within the change instead
doc.add_root(root)
pn.state.curdoc = doc
sizes = []
def pysync(event):
    serializer = Serializer(references=doc.models.synced_references)
    patch = PatchJson(events=serializer.encode([event]))
    doc.models.flush_synced(lambda model: not serializer.has_ref(model))
    sizes.append(len(json.dumps(patch)))
doc.on_change(pysync)
gc.collect(); gc.freeze()  # as the worker does after start-up
out = {"retrain": [], "retrain_bytes": [], "forward": [], "backward": [], "patch_bytes": []}
for _ in range(REPS):
    state.corpus_text = explainer
    state.round = 0
    sizes.clear()
    start = time.perf_counter()
    state.corpus_text = TEXT
    out["retrain"].append(time.perf_counter() - start)
    out["retrain_bytes"].append(sum(sizes))
assert state.rounds == MERGES, state.rounds
def steps(delta, n, key):
    for _ in range(n):
        sizes.clear()
        start = time.perf_counter()
        state.step(delta)
        out[key].append(time.perf_counter() - start)
        out["patch_bytes"].append(sum(sizes))
steps(+1, HALF, "forward")
state.round = state.rounds
steps(-1, HALF, "backward")
print("RESULT " + json.dumps(out))
