"""The page's clicks and keys on tokens and explanations, as one stream of events for Python.

One listener on the document serves every pane: a click on a chip (or a vocabulary row), or
Enter on a focused one, asks to inspect it; a click on an element with `data-action` sends
that action and its `data-value` (the inspector's close and "go to round" buttons, the stepper's
buttons). Only these small events cross to Python, so it works the same under `panel serve`
and in the Pyodide worker.

It also outlines the inspected token's chips in the corpus rows: one CSS rule, written into the
corpus pane's shadow root whenever the inspector's card (drawn by Python, the source of truth) or
the corpus changes, so that opening the inspector does not send the corpus's chips again.

Keys: ← and → move focus between the chips of one pane (Enter on the corpus's rows enters them),
and step the stepper while it has focus; Escape closes the inspector. The scrubber's own arrow
keys (`scrubber.ArrowKeys`) leave those alone.
"""
from __future__ import annotations

import panel as pn
import param

#: Classes of the elements whose arrow keys are this listener's, not the scrubber's.
OWN_KEYS = ("bpe-chip", "bpe-vrow", "bpe-stepper", "bpe-tour")


class TokenClicks(pn.reactive.ReactiveHTML):
    """`event` is [events so far, kind, value, vocabulary]: kind "inspect" (value the id), "step"
    (value the stepper's total of ← and → presses, which coalesced events cannot lose), or a
    `data-action` name (value its `data-value`)."""

    event = param.List(default=[0, "", "", ""])
    scope = param.String(default="", doc="""
        A class of the element this listener serves ("" for the whole page): a notebook holds
        several views, each with its own state, and a click or key in one is no other's.""")

    _template = '<div id="clicks"></div>'
    _scripts = {
        "render": """
          const has = (node, name) => node && node.classList && node.classList.contains(name)
          const send = (kind, value, vocab) => { data.event = [data.event[0] + 1, kind, String(value), vocab || ''] }
          const tokenOf = (path) => path.find((node) => (has(node, 'bpe-chip') || has(node, 'bpe-vrow'))
                                                        && node.dataset.id !== undefined && node.dataset.id !== 'unknown')
          const deepFind = (selector, root = document) => {
            const found = root.querySelector(selector)
            if (found) return found
            for (const node of root.querySelectorAll('*')) {
              const inner = node.shadowRoot && deepFind(selector, node.shadowRoot)
              if (inner) return inner
            }
            return null
          }
          // The element served: the page, or (in a notebook) the view whose class is `scope`.
          const home = () => {
            const box = data.scope ? deepFind('.' + data.scope) : document
            return box && box !== document ? (box.shadowRoot || box) : box
          }
          const ours = (event) => !data.scope || event.composedPath().some((node) => has(node, data.scope))
          // After a keyboard request, move focus to the inspector once it is drawn.
          const focusInspector = (id, tries = 0) => {
            const card = deepFind('.bpe-inspector[data-id="' + id + '"]', home() || document)
            if (card) card.focus()
            else if (tries < 60) setTimeout(() => focusInspector(id, tries + 1), 50)
          }
          // A pane redrawn by Python replaces the element that had focus: its successor (`selector` in
          // the same shadow root) takes focus at once, in the microtask after the redraw, before any
          // further key can reach the page (where ← and → would move the round instead).
          const keepFocus = (old, ...selectors) => {
            const root = old.getRootNode()
            const observer = new MutationObserver(() => {
              if (old.isConnected) return
              const now = selectors.map((selector) => root.querySelector(selector)).find((node) => node)
              if (now) now.focus()
              observer.disconnect()
            })
            observer.observe(root, { childList: true, subtree: true })
            setTimeout(() => observer.disconnect(), 10000)
          }
          // One round on or back: the corpus rows say which way, and their CSS animates the merge
          // (see styles.py); a jump of several rounds, or a new training, does not animate.
          const motion = () => {
            const rows = state.panes[1].shadowRoot.querySelector('.bpe-rows')
            if (!rows || rows === state.rows) return
            const now = Number(rows.dataset.round), before = state.round
            state.rows = rows
            state.round = now
            const way = now === before + 1 ? 'forward' : now === before - 1 ? 'back' : ''
            if (way) rows.dataset.motion = way
          }
          const picked = () => {
            const [inspector, corpus] = state.panes
            const root = corpus.shadowRoot
            const card = inspector.shadowRoot.querySelector('.bpe-inspector')
            // This tokenizer's token (no data-vocab) or B's ("b"): the rows of the same side only,
            // since A's and B's ids name different tokens.
            const vocab = card ? (card.dataset.vocab || '') : null
            const id = card && (vocab === '' || vocab === 'b') ? card.dataset.id : null
            const side = vocab === 'b' ? '[data-vocab="b"]' : ':not([data-vocab])'
            let style = root.querySelector('style.bpe-picked')
            const rule = id === null ? '' : '.bpe-rows .bpe-chip[data-id="' + id + '"]' + side + ' '
                                            + '{ outline: 3px solid var(--bpe-focus); outline-offset: 1px; }'
            if (!style && !rule) return
            if (!style) { style = document.createElement('style'); style.className = 'bpe-picked'; root.appendChild(style) }
            if (style.textContent !== rule) style.textContent = rule
          }
          // The two panes exist once the document is drawn: watch them from then on.
          state.watching = setInterval(() => {
            const root = home()
            const panes = root ? ['.bpe-inspector-pane', '.bpe-corpus-pane'].map((s) => deepFind(s, root)) : [null]
            if (panes.some((pane) => !pane || !pane.shadowRoot)) return
            clearInterval(state.watching)
            state.panes = panes
            state.observer = new MutationObserver(() => { picked(); motion() })
            for (const pane of panes) state.observer.observe(pane.shadowRoot, { childList: true, subtree: true })
            picked()
            motion()
          }, 200)
          // The tour: when its box shows a new step, the pane the step speaks about comes into view
          // (at the top, clear of the box) with an outline, and focus moves to the box.
          const tourChanged = () => {
            const box = state.tourPane.shadowRoot.querySelector('.bpe-tour')
            const at = box ? box.dataset.tour + ' ' + box.dataset.step : ''
            if (at === state.tourAt && (!box || box === state.tourBox)) return
            const moved = at !== state.tourAt
            state.tourAt = at
            state.tourBox = box
            if (state.lit) { state.lit.style.outline = ''; state.lit = null }
            if (!box) return
            const pane = deepFind('.' + box.dataset.pane)
            if (pane) {
              pane.style.outline = '3px solid var(--bpe-focus, #0969da)'
              pane.style.outlineOffset = '4px'
              state.lit = pane
              if (moved) pane.scrollIntoView({ block: 'start', behavior: 'auto' })
            }
            // A new step takes focus, unless its Next or Back button has it (clicked: Enter goes on); a box
            // redrawn while it had focus keeps it (Python may draw a step twice).
            const inBox = (node) => node && node.getRootNode() === box.getRootNode() && box.contains(node)
            if ((moved || state.inTour) && !inBox(box.getRootNode().activeElement)) box.focus({ preventScroll: true })
          }
          state.onfocus = (event) => { state.inTour = event.composedPath().some((node) => has(node, 'bpe-tour')) }
          document.addEventListener('focusin', state.onfocus)
          state.tourWatch = setInterval(() => {
            const pane = deepFind('.bpe-tour-pane')
            if (!pane || !pane.shadowRoot) return
            clearInterval(state.tourWatch)
            state.tourPane = pane
            state.tourAt = ''
            state.tourObserver = new MutationObserver(tourChanged)
            state.tourObserver.observe(pane.shadowRoot, { childList: true, subtree: true })
            tourChanged()
          }, 200)
          // On a phone the settings follow the visualization: bring them into view, focus on their first control.
          const showSettings = () => {
            const sidebar = deepFind('.bpe-sidebar')
            if (!sidebar) return
            sidebar.scrollIntoView({ block: 'start' })
            const first = deepFind('select, input', sidebar.shadowRoot || sidebar)
            if (first) first.focus({ preventScroll: true })
          }
          if (window.location.hash === '#settings') setTimeout(showSettings, 300)
          state.stepTotal = 0
          state.onclick = (event) => {
            if (!ours(event)) return
            const path = event.composedPath()
            const action = path.find((node) => node.dataset && node.dataset.action)
            if (action && action.dataset.action === 'settings') { showSettings(); return }
            if (action) {
              const kind = '[data-action="' + action.dataset.action + '"]'
              send(action.dataset.action, action.dataset.value || '')
              keepFocus(action, kind + '[data-value="' + (action.dataset.value || '') + '"]', kind)
              return
            }
            const token = tokenOf(path)
            if (token) send('inspect', token.dataset.id, token.dataset.vocab)
          }
          state.onkey = (event) => {
            if (event.altKey || event.ctrlKey || event.metaKey || !ours(event)) return
            const path = event.composedPath()
            const target = path[0]
            if (!target || !target.classList) return
            const token = has(target, 'bpe-chip') || has(target, 'bpe-vrow') ? tokenOf([target]) : null
            if (path.some((node) => has(node, 'bpe-tour')) && ['ArrowLeft', 'ArrowRight', 'Escape'].includes(event.key)) {
              if (event.key === 'Escape') send('tour-close', '')
              else send('tour-move', event.key === 'ArrowRight' ? '1' : '-1')
              event.preventDefault()
              return
            }
            if (event.key === 'Escape' && path.some((node) => has(node, 'bpe-inspector'))) {
              send('close', '')
              if (state.opener && state.opener.isConnected) state.opener.focus()
            } else if (token && (event.key === 'Enter' || event.key === ' ')) {
              state.opener = target
              send('inspect', token.dataset.id, token.dataset.vocab)
              focusInspector(token.dataset.id)
            } else if (has(target, 'bpe-rows') && event.key === 'Enter') {
              const first = target.querySelector('.bpe-chip')
              if (first) { first.tabIndex = -1; first.focus() }
            } else if ((has(target, 'bpe-chip') || has(target, 'bpe-vrow'))
                       && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key)) {
              const kind = has(target, 'bpe-vrow') ? '.bpe-vrow' : '.bpe-chip'
              const all = [...target.getRootNode().querySelectorAll(kind)]
              const forward = event.key === 'ArrowRight' || event.key === 'ArrowDown'
              const next = all[all.indexOf(target) + (forward ? 1 : -1)]
              if (next) { if (!next.hasAttribute('tabindex')) next.tabIndex = -1; next.focus() }
            } else if (path.some((node) => has(node, 'bpe-stepper')) && ['ArrowLeft', 'ArrowRight'].includes(event.key)) {
              // On the stepper or one of its buttons (a click leaves focus there).
              state.stepTotal += event.key === 'ArrowRight' ? 1 : -1
              send('step', state.stepTotal)
              keepFocus(target, '.bpe-stepper')
            } else return
            event.preventDefault()
          }
          document.addEventListener('click', state.onclick)
          document.addEventListener('keydown', state.onkey)
        """,
        "remove": "document.removeEventListener('click', state.onclick); "
                  "document.removeEventListener('keydown', state.onkey); "
                  "clearInterval(state.watching); if (state.observer) state.observer.disconnect(); "
                  "clearInterval(state.tourWatch); if (state.tourObserver) state.tourObserver.disconnect(); "
                  "document.removeEventListener('focusin', state.onfocus)",
    }
