"""The trade-off: corpus length against vocabulary size, round by round, beside the merge list.

The chart is SVG drawn here rather than a Bokeh plot: Bokeh 3.7's ColumnDataSource imports
pandas in its constructor, and pandas would add seconds to the page's start in Pyodide.
"""
from __future__ import annotations

import panel as pn
import param

from bpe.panes.chart import chart_svg, merges_html
from .styles import html_pane

#: The chart takes the room the merge list leaves, and the list goes below it when there is none.
BESIDE = """
:host { gap: 0 12px; }
.bpe-chart-pane { flex: 1 1 420px; min-width: 0; }
.bpe-merges-pane { flex: 1 1 320px; max-width: 420px; }
@media (max-width: 760px) { .bpe-merges-pane { max-width: none; } }
"""


class ChartClicks(pn.reactive.ReactiveHTML):
    """Counts clicks on the chart and the round each one fell on (from the svg's data-x0, data-x1
    and data-last); the listener is the browser's, only the round crosses to Python. Hovering shows
    the nearest drawn round's figures (from data-tokens and data-vocab0) in a tip, in the browser alone."""

    clicked = param.List(default=[0, 0], doc="[clicks so far, the round of the last]")

    _template = '<div id="clicks"></div>'
    _scripts = {
        "render": """
          state.onclick = (event) => {
            const svg = event.composedPath().find((node) => node.classList && node.classList.contains('bpe-chart'))
            if (!svg) return
            const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse())
            const [x0, x1, last] = ['x0', 'x1', 'last'].map((key) => Number(svg.dataset[key]))
            const round = Math.round(Math.min(Math.max((point.x - x0) / (x1 - x0), 0), 1) * last)
            data.clicked = [data.clicked[0] + 1, round]
          }
          document.addEventListener('click', state.onclick)
          state.onmove = (event) => {
            const svg = event.composedPath().find((node) => node.classList && node.classList.contains('bpe-chart'))
            const box = svg && svg.parentNode
            const old = state.tipOf && state.tipOf !== box && state.tipOf.querySelector('.bpe-chart-tip')
            if (old) old.remove()
            state.tipOf = box
            if (!svg) return
            const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse())
            const [x0, x1, last, vocab0] = ['x0', 'x1', 'last', 'vocab0'].map((key) => Number(svg.dataset[key]))
            const round = Math.min(Math.max((point.x - x0) / (x1 - x0), 0), 1) * last
            let best = null
            for (const pair of svg.dataset.tokens.split(' ')) {
              const [k, n] = pair.split(':').map(Number)
              if (best === null || Math.abs(k - round) < Math.abs(best[0] - round)) best = [k, n]
            }
            let tip = box.querySelector('.bpe-chart-tip')
            if (!tip) { tip = document.createElement('div'); tip.className = 'bpe-chart-tip'; box.appendChild(tip) }
            tip.textContent = 'round ' + best[0] + ': ' + best[1].toLocaleString('en') + ' tokens, vocabulary '
                              + (vocab0 + best[0]).toLocaleString('en')
            const rect = box.getBoundingClientRect()
            tip.style.left = (event.clientX - rect.left + box.scrollLeft + 12) + 'px'
            tip.style.top = (event.clientY - rect.top + 12) + 'px'
          }
          document.addEventListener('mousemove', state.onmove)
        """,
        "remove": "document.removeEventListener('click', state.onclick); "
                  "document.removeEventListener('mousemove', state.onmove)",
    }


class ChartView(pn.viewable.Viewer):
    """The trade-off chart beside the merge list."""

    def __init__(self, state, **params):
        super().__init__(**params)
        clicks = ChartClicks(width=0, height=0, margin=0)
        clicks.param.watch(lambda event: state.step(event.new[1] - state.round), "clicked")
        self._layout = pn.FlexBox(
            html_pane(pn.bind(chart_svg, state.param.training, state.param.round, state.param.training_b),
                      css_classes=["bpe-chart-pane"]),
            html_pane(pn.bind(merges_html, state.param.training, state.param.round), css_classes=["bpe-merges-pane"]),
            clicks, stylesheets=[BESIDE], sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
