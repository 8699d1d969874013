"""The panes that carry the page's CSS, and the widgets drawn in its colours.

Panel renders each pane in its own shadow root, so page-wide CSS does not reach inside:
every HTML pane that shows chips, tables or messages gets the panes' `STYLESHEET`
(`bpe.panes.style`; use `html_pane`).
"""
import panel as pn

from bpe.panes.style import STYLESHEET

#: Bokeh draws a "light" button, and a file input's button, white in every theme, Panel's dark one
#: included: in the system's dark mode ours take the page's dark colours (STYLESHEET's dark
#: `--bpe-subtle`, `--bpe-ink` and `--bpe-line`), from the first screen on.
DARK_CONTROLS = """
@media (prefers-color-scheme: dark) {
  .bk-btn-light, ::file-selector-button { background-color: #151b23; color: #e6edf3; border: 1px solid #3d444d; }
  .bk-btn-light:hover, .bk-btn-light:focus, .bk-btn-light.bk-active, ::file-selector-button:hover {
    background-color: #262c36; border-color: #9198a1;
  }
}
"""


def light_button(**params) -> pn.widgets.Button:
    """A secondary action: Panel's "light" button, which follows the system's dark mode."""
    return pn.widgets.Button(button_type="light", stylesheets=[DARK_CONTROLS], **params)


def file_input(**params) -> pn.widgets.FileInput:
    """Panel's file input, whose button follows the system's dark mode."""
    return pn.widgets.FileInput(stylesheets=[DARK_CONTROLS], **params)


def html_pane(content, **params) -> pn.pane.HTML:
    """An HTML pane with the page's CSS; `content` is HTML, or a function bound to parameters (`pn.bind`)."""
    return pn.pane.HTML(content, stylesheets=[STYLESHEET], **{"sizing_mode": "stretch_width", **params})
