# In the page's worker: cProfile over STEPS round changes of the page's own AppState (found through the
# bound panes of the rendered layout), as AppState.step runs them when a key press arrives.
import cProfile, json, pstats, time
import panel as pn
from panel.io.state import state as _panel_state
from bpe_app.state import AppState
_states = set()
for _viewable, _root, _doc, _comm in list(_panel_state._views.values()):
    for _pane in _viewable.select(pn.pane.HTML):
        _info = getattr(_pane._param__private.refs.get("object"), "_dinfo", None) or {}
        for _dep in [*_info.get("dependencies", ()), *_info.get("kw", {}).values()]:
            if isinstance(getattr(_dep, "owner", None), AppState):
                _states.add(_dep.owner)
(_app_state,) = _states
_profile = cProfile.Profile()
_start = time.perf_counter()
_profile.enable()
for _ in range(STEPS):
    _app_state.step(-1)
_profile.disable()
_elapsed = time.perf_counter() - _start
_stats = pstats.Stats(_profile).stats
_rows = sorted(((tt, ct, nc, f"{file.rsplit('/site-packages/', 1)[-1].rsplit('/app/', 1)[-1]}:{line}({name})")
               for (file, line, name), (cc, nc, tt, ct, callers) in _stats.items()), reverse=True)
_result = json.dumps({"seconds": _elapsed, "steps": STEPS, "top": _rows[:TOP]})
_result
