"""The HTML of the panes the first screen answers, without Panel.

Each pane has one rendering function, called by its Panel view and by the first screen
(`bpe_app.first_screen`), which answers the page before Panel has loaded: so these modules import
only the `bpe` core and the chips, never Panel.
"""
