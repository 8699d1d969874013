"""The byte pair encoding visualizer: `panel serve site/app.py`, or converted to a Pyodide worker page.

In the browser this runs in a web worker. It imports panel, param and the bpe package (Panel
brings bokeh and numpy), and nothing that reads files, opens sockets or starts threads; the
page's own modules are in `bpe_app/` beside this file. There the first screen (`bpe_app.first_screen`)
has answered the page meanwhile, and the app takes over its state.
"""
import panel as pn

from bpe_app import first_screen
from bpe_app.app import TITLE, App

pn.extension()
App(state=first_screen.app_state()).servable(title=TITLE)
