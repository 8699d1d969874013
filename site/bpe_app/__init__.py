"""The Panel app that shows byte pair encoding train, merge by merge.

`state.AppState` holds the settings and the training; each `*_view` module renders one part of
it; `app.App` lays them out. Rendering to HTML is done by pure functions (`chips`, and one
`*_html` function per view), so everything but the layout is testable without a browser.
"""
