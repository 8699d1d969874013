"""Each pane's HTML, from plain data (a training, a round, a text): one rendering function per pane.

The page's Panel views bind these functions to their state (`bpe_app`), the page's first screen
calls them before Panel has loaded (`bpe_app.first_screen`), and a notebook cell shows the core's
objects with them (`notebook`): so they import only the core, never Panel. User text is always
escaped (`html.escape`) where HTML is made of it; the CSS they need is `style.STYLESHEET`.
"""
