"""Moving through the rounds: a slider that can play, previous/next buttons, and the arrow keys."""
from __future__ import annotations

import json

import panel as pn
import param

from bpe.panes.caption import round_caption
from .styles import html_pane
from .token_clicks import OWN_KEYS

#: Milliseconds per round while playing.
PLAY_INTERVAL = 800
PLAYER_BUTTONS_ONLY = ".pn-player-title, input[type=range] { display: none; }"
#: The slider's own line on a narrow window, above the buttons; a handle big enough for a finger.
CONTROLS = """
:host { gap: 4px 8px; align-items: center; }
.round-slider { flex: 1 1 240px; min-width: 0; }
@media (max-width: 700px) { .round-slider { flex-basis: 100%; order: -1; } }
"""
TOUCH_HANDLE = """
@media (pointer: coarse) {
  .noUi-horizontal { height: 12px; }
  .noUi-horizontal .noUi-handle { width: 34px; height: 34px; right: -17px; top: -12px; border-radius: 17px; }
}
"""


class ArrowKeys(pn.reactive.ReactiveHTML):
    """Counts ← and → presses anywhere on the page, except while typing or on the slider itself,
    and Home and End on the slider.

    The listener lives in the browser's main thread; only the counters cross to Python, so it
    works the same under `panel serve` and in the Pyodide worker. Home and End are taken from the
    slider because its own handler (noUiSlider's) keeps the range it was first drawn with: after a
    longer training, End went to the old last round."""

    left = param.Integer(default=0)
    right = param.Integer(default=0)
    home = param.Integer(default=0)
    end = param.Integer(default=0)
    scope = param.String(default="", doc="""
        A class of the element whose keys these are ("" for the whole page): in a notebook, only
        the keys pressed while its view has focus.""")

    _template = '<div id="keys"></div>'
    _scripts = {
        "render": f"const OWN_KEYS = {json.dumps(OWN_KEYS)}\n" + """
          // In a notebook (a scope): keys pressed inside this view, or on the page's body once this view
          // was the last one clicked (a redrawn pane drops the focus it had).
          const inside = (event) => event.composedPath().some((node) => node.classList && node.classList.contains(data.scope))
          state.onpointer = (event) => { state.active = inside(event) }
          if (data.scope) document.addEventListener('pointerdown', state.onpointer, true)
          const ours = (event) => !data.scope || inside(event) || (state.active && event.composedPath()[0] === document.body)
          state.onkey = (event) => {
            if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || !ours(event)) return
            const target = event.composedPath()[0]
            if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
                           || (target.getAttribute && target.getAttribute('role') === 'slider'))) return
            if (event.composedPath().some((node) => node.classList && OWN_KEYS.some((name) => node.classList.contains(name)))) return
            if (event.key === 'ArrowLeft') data.left = data.left + 1
            else if (event.key === 'ArrowRight') data.right = data.right + 1
            else return
            event.preventDefault()
          }
          document.addEventListener('keydown', state.onkey)
          state.onedge = (event) => {
            if (!ours(event)) return
            const target = event.composedPath()[0]
            if (!target || !target.getAttribute || target.getAttribute('role') !== 'slider') return
            if (event.key === 'Home') data.home = data.home + 1
            else if (event.key === 'End') data.end = data.end + 1
            else return
            event.preventDefault()
            event.stopPropagation()  // before the slider's own handler: this listener captures
          }
          document.addEventListener('keydown', state.onedge, true)
        """,
        "remove": "document.removeEventListener('keydown', state.onkey); "
                  "document.removeEventListener('keydown', state.onedge, true); "
                  "document.removeEventListener('pointerdown', state.onpointer, true)",
    }


class Scrubber(pn.viewable.Viewer):
    """Play/pause slider over rounds 0…N, previous and next buttons, and what the round did."""

    def __init__(self, state, scope: str = "", **params):
        super().__init__(**params)
        # The slider is Bokeh's: Panel's Player does not redraw its own slider when `end` changes,
        # so the Player only plays and pauses (its slider hidden); both follow `state.round`.
        slider = pn.widgets.IntSlider.from_param(
            state.param.round, start=0, end=state.param.rounds.rx().rx.pipe(max, 1), name="Round",
            disabled=state.param.rounds.rx() == 0, css_classes=["round-slider"], sizing_mode="stretch_width",
            stylesheets=[TOUCH_HANDLE],
        )
        player = pn.widgets.Player.from_param(
            state.param.round, start=0, end=state.param.rounds, name="", interval=PLAY_INTERVAL,
            loop_policy="once", show_loop_controls=False, visible_buttons=["pause", "play"], show_value=False,
            width=110, height=46, align="center", stylesheets=[PLAYER_BUTTONS_ONLY],
        )
        # The player's timer runs in the browser; its direction is 1 while it plays.
        player.param.watch(lambda event: state.play(event.new == 1), "direction")
        previous = pn.widgets.Button(name="◀ previous", css_classes=["prev-round"], width=110, align="center")
        following = pn.widgets.Button(name="next ▶", css_classes=["next-round"], width=110, align="center")
        previous.on_click(lambda event: state.step(-1))
        following.on_click(lambda event: state.step(+1))
        keys = ArrowKeys(width=0, height=0, margin=0, scope=scope)
        # Presses can arrive coalesced (the worker page keeps only the newest value), so step by the difference.
        keys.param.watch(lambda event: state.step(event.old - event.new), "left")
        keys.param.watch(lambda event: state.step(event.new - event.old), "right")
        keys.param.watch(lambda event: state.step(-state.rounds), "home")
        keys.param.watch(lambda event: state.step(state.rounds), "end")
        caption = html_pane(pn.bind(round_caption, state.param.training, state.param.round), css_classes=["bpe-caption-pane"])
        controls = pn.FlexBox(previous, slider, following, player, keys, stylesheets=[CONTROLS],
                              sizing_mode="stretch_width")
        self._layout = pn.Column(controls, caption, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout
