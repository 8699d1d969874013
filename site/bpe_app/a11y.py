"""Names and landmarks for what a screen reader would otherwise meet unnamed.

Bokeh and Panel draw some controls with no accessible name: the slider's handle, the spin
buttons of number fields, the player's play and pause buttons. They live in shadow roots that
Python cannot reach, so this component labels them in the browser, when it is drawn and again
whenever the page changes (a widget redrawn is a new, unnamed element). It also marks the two
columns as landmarks (`main`, and the settings as `complementary`), and makes the download
buttons work from the keyboard: Panel's FileDownload is a <button> around an <a> that alone
listens for clicks, so Enter or Space on the focused button did nothing.
"""
from __future__ import annotations

import json

import panel as pn

#: selector -> how to name it: a fixed name, or "field: " prefixed by its widget's label.
NAMES = {
    ".noUi-handle": "Round",  # the page's one slider
    ".bk-spin-btn-up": "{field}: one more",
    ".bk-spin-btn-down": "{field}: one less",
    "button.play": "Play the rounds",
    "button.pause": "Pause",
    "input[type=file]": "Upload a UTF-8 text file as the corpus",
    "input[type=checkbox]": "{field}",
}
LANDMARKS = {".bpe-main": ["main", "Byte pair encoding"], ".bpe-sidebar": ["complementary", "Settings"]}


class AccessibleNames(pn.reactive.ReactiveHTML):
    """Gives the page's unnamed controls a name (see the module's docstring); draws nothing."""

    _template = '<div id="names"></div>'
    _scripts = {
        "render": """
          const NAMES = %s, LANDMARKS = %s
          function roots(root, found = [root]) {
            for (const node of root.querySelectorAll('*')) {
              if (node.shadowRoot) { found.push(node.shadowRoot); roots(node.shadowRoot, found) }
            }
            return found
          }
          function matches(all, selector) {
            return all.flatMap((root) => [...root.querySelectorAll(selector)])
          }
          state.label = () => {
            const all = roots(document)
            for (const [selector, name] of Object.entries(NAMES)) {
              for (const element of matches(all, selector)) {
                if (element.getAttribute('aria-label')) continue
                const root = element.getRootNode(), label = root.querySelector('label')
                const field = (label ? label.textContent : root.textContent || '').trim() || 'value'
                element.setAttribute('aria-label', name.replace('{field}', field))
              }
            }
            for (const anchor of matches(all, 'button > a')) {
              const button = anchor.parentElement
              if (button.bpeForwards) continue
              button.bpeForwards = true
              // A click on the button itself (what Enter and Space make) is the anchor's.
              button.addEventListener('click', (event) => { if (event.target === button) anchor.click() })
            }
            for (const [selector, [role, name]] of Object.entries(LANDMARKS)) {
              for (const element of matches(all, selector)) {
                element.setAttribute('role', role)
                element.setAttribute('aria-label', name)
              }
            }
          }
          state.label()
          state.timer = setInterval(state.label, 700)  // shadow roots hide their changes from observers
        """ % (json.dumps(NAMES), json.dumps(LANDMARKS)),
        "remove": "clearInterval(state.timer)",
    }
