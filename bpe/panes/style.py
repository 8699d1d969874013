"""The panes' CSS: chips, tables, notes, the inspector and the tour's box, in the light and the
system's dark colours. Kept in Python, so that neither the page's build nor the wheel needs a data file.

The page gives it to every HTML pane (Panel draws each in its own shadow root, hence `:host`); a
notebook cell's output (`bpe.panes.notebook`) scopes it to its own box instead:

>>> css = scoped(".bpe-shown")
>>> ":host" in css, ".bpe-shown {" in css, ".bpe-shown :focus-visible {" in css
(False, True, True)
"""

STYLESHEET = """
:host {
  --bpe-ink: #1f2328; --bpe-muted: #59636e; --bpe-line: #d0d7de; --bpe-accent: #cf222e; --bpe-bg: #ffffff;
  --bpe-rule: #eaeef2; --bpe-subtle: #f6f8fa; --bpe-mark: #6e7781; --bpe-hexc: #8250df; --bpe-focus: #0969da;
  --bpe-tied: #fff8c5; --bpe-won: #dafbe1; --bpe-star-c: #9a6700;
  --bpe-error-bg: #ffebe9; --bpe-error: #82071e; --bpe-info-bg: #ddf4ff; --bpe-info: #0a3069;
  --bpe-chip-l: 89%; --bpe-chip-s: 80%; --bpe-chip-border-l: 68%;
  --bpe-chip-hexc: #6639ba;  /* hex bytes on a chip: 4.5:1 on the lightest chip colour (yellow) */
}
/* The system's dark mode: the same page, with colours chosen for a 4.5:1 contrast on dark. */
@media (prefers-color-scheme: dark) {
  :host {
    --bpe-ink: #e6edf3; --bpe-muted: #9198a1; --bpe-line: #3d444d; --bpe-accent: #f85149; --bpe-bg: #0d1117;
    --bpe-rule: #262c36; --bpe-subtle: #151b23; --bpe-mark: #9198a1; --bpe-hexc: #d2a8ff; --bpe-focus: #4493f8;
    --bpe-tied: #3b2e00; --bpe-won: #0f3a1e; --bpe-star-c: #e3b341;
    --bpe-error-bg: #3c1618; --bpe-error: #ffa198; --bpe-info-bg: #0c2d6b; --bpe-info: #a5d6ff;
    --bpe-chip-l: 24%; --bpe-chip-s: 45%; --bpe-chip-border-l: 45%;
    --bpe-chip-hexc: #e8d4ff;
  }
  .bpe-chart [fill="#0969da"] { fill: #4493f8; } .bpe-chart [stroke="#0969da"] { stroke: #4493f8; }
  .bpe-chart [fill="#bf3989"] { fill: #db61a2; } .bpe-chart [stroke="#bf3989"] { stroke: #db61a2; }
  .bpe-chart [fill="#cf222e"] { fill: #ff7b72; } .bpe-chart [stroke="#cf222e"] { stroke: #ff7b72; }
}
:host { color: var(--bpe-ink); }
.bpe-chip {
  display: inline-block; margin: 1px; padding: 1px 4px; border-radius: 4px;
  font: 13px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  white-space: pre; color: var(--bpe-ink);
  background: hsl(var(--h) var(--bpe-chip-s) var(--bpe-chip-l)); border: 1px solid hsl(var(--h) 45% var(--bpe-chip-border-l));
}
.bpe-chip.bpe-new { outline: 2px solid var(--bpe-accent); outline-offset: 1px; font-weight: 600; }
.bpe-chip.bpe-special { background: var(--bpe-subtle); border: 1px solid var(--bpe-focus); color: var(--bpe-focus); font-weight: 600; }
.bpe-chip.bpe-unknown { background: var(--bpe-subtle); border: 1px dashed var(--bpe-mark); color: var(--bpe-muted); }
.bpe-ws { color: var(--bpe-mark); }
.bpe-hex { font-size: 11px; color: var(--bpe-hexc); letter-spacing: -0.02em; }
.bpe-chip .bpe-hex { color: var(--bpe-chip-hexc); }
.bpe-corpus-summary { margin: 0 0 6px; color: var(--bpe-muted); }
.bpe-corpus-summary b { color: var(--bpe-ink); }
.bpe-rows { max-height: 360px; overflow-y: auto; border: 1px solid var(--bpe-line); border-radius: 6px; padding: 4px 6px; }
.bpe-row { display: flex; flex-wrap: wrap; align-items: center; padding: 3px; border-bottom: 1px solid var(--bpe-rule); }
/* Only the corpus rows in view are laid out and painted: a row outside the box's view is
   skipped and keeps its last size meanwhile (a 2 MB corpus shows 100 rows, of which a dozen
   fit). Skipping contains paint to the padding box, so a row's padding leaves room for the
   outline of a new or focused chip. A skipped box stays in the accessibility tree and in
   find-in-page, but reads as empty to innerText; whole panes are not skipped, since the rows
   alone meet the scrub goals (docs/benchmarks.md). */
.bpe-rows > .bpe-row, .bpe-rows > .bpe-pair { content-visibility: auto; contain-intrinsic-size: auto 28px; }
.bpe-rows > .bpe-pair { contain-intrinsic-size: auto 56px; }
.bpe-row:last-child { border-bottom: none; }
.bpe-repeat { margin-left: 8px; padding: 0 6px; border-radius: 10px; background: var(--bpe-rule); color: var(--bpe-muted); font-size: 12px; }
.bpe-more { color: var(--bpe-muted); font-size: 12px; margin-left: 6px; }
table.bpe-candidates, table.bpe-merges { border-collapse: collapse; width: 100%; font-size: 13px; }
.bpe-candidates th, .bpe-candidates td, .bpe-merges th, .bpe-merges td {
  padding: 2px 6px; border-bottom: 1px solid var(--bpe-rule); text-align: left; white-space: nowrap;
}
.bpe-candidates th, .bpe-merges th { color: var(--bpe-muted); font-weight: 500; position: sticky; top: 0; background: var(--bpe-bg); }
.bpe-candidates td.bpe-num, .bpe-merges td.bpe-num { text-align: right; font-variant-numeric: tabular-nums; }
.bpe-candidates tr.bpe-tied td { background: var(--bpe-tied); }
.bpe-candidates tr.bpe-winner td { background: var(--bpe-won); font-weight: 600; }
.bpe-star { color: var(--bpe-star-c); }
.bpe-candidates tr.bpe-next .bpe-star { color: var(--bpe-muted); font-size: 11px; }
.bpe-scroll { max-height: 330px; overflow-y: auto; border: 1px solid var(--bpe-line); border-radius: 6px; }
.bpe-merges tr.bpe-current td { background: var(--bpe-won); }
/* Rounds not yet applied: muted, not faded, so their text keeps a 4.5:1 contrast. */
.bpe-merges tr.bpe-later td { color: var(--bpe-muted); }
.bpe-merges tr.bpe-later .bpe-chip { background: var(--bpe-bg); border-style: dashed; color: var(--bpe-muted); }
.bpe-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
:focus-visible { outline: 2px solid var(--bpe-focus); outline-offset: 2px; }
.bpe-note { color: var(--bpe-muted); font-size: 13px; margin: 4px 0; }
.bpe-note b { color: var(--bpe-ink); }
.bpe-heading { font-weight: 600; margin: 0 0 4px; }
.bpe-encoded { display: flex; flex-wrap: wrap; align-items: center; min-height: 28px; }
/* Lines break between ids, never inside one. */
.bpe-ids { font: 12px ui-monospace, monospace; color: var(--bpe-muted); overflow-wrap: break-word; margin-top: 4px; }
.bpe-message { padding: 8px 12px; border-radius: 6px; border: 1px solid; font-size: 14px; }
.bpe-message.bpe-error { background: var(--bpe-error-bg); border-color: #ff818266; color: var(--bpe-error); }
.bpe-message.bpe-info { background: var(--bpe-info-bg); border-color: #54aeff66; color: var(--bpe-info); }
.bpe-chart-box { overflow-x: auto; position: relative; }
.bpe-chart-tip {
  position: absolute; pointer-events: none; white-space: nowrap; font-size: 12px; padding: 2px 6px;
  background: var(--bpe-bg); color: var(--bpe-ink); border: 1px solid var(--bpe-line); border-radius: 4px;
}
.bpe-chart { cursor: pointer; }
/* 12px labels stay at least 11px: the chart is drawn at 600px or wider, scrolling in its box. */
.bpe-chart { width: 100%; min-width: 600px; height: auto; max-height: 340px; font: 12px system-ui, sans-serif; fill: var(--bpe-muted); }
.bpe-chart .bpe-grid { stroke: var(--bpe-rule); }
.bpe-compare { margin-top: 6px; padding-top: 6px; border-top: 1px dashed var(--bpe-line); }
table.bpe-counts { border-collapse: collapse; margin-top: 6px; font-size: 13px; }
.bpe-counts th, .bpe-counts td { padding: 2px 8px; border-bottom: 1px solid var(--bpe-rule); text-align: left; }
.bpe-counts th { color: var(--bpe-muted); font-weight: 500; }
.bpe-counts td.bpe-num { text-align: right; font-variant-numeric: tabular-nums; }
.bpe-note code { font-size: 12px; word-break: break-all; }
.bpe-caption { font-size: 14px; color: var(--bpe-ink); }
.bpe-caption .bpe-muted, .bpe-candidates .bpe-muted { color: var(--bpe-muted); }
.bpe-chip[role="button"], .bpe-rows .bpe-chip, .bpe-vrow { cursor: pointer; }
.bpe-muted { color: var(--bpe-muted); }
/* The inspector floats in the window's corner, so the chip clicked stays in view; a sheet on a phone. */
.bpe-inspector {
  position: fixed; right: 16px; bottom: 16px; z-index: 1000; width: min(440px, calc(100vw - 32px));
  max-height: min(72vh, 680px); overflow: auto; box-sizing: border-box; padding: 10px 14px;
  background: var(--bpe-bg); color: var(--bpe-ink); border: 1px solid var(--bpe-line); border-radius: 8px;
  box-shadow: 0 8px 28px rgba(0, 0, 0, 0.22); font-size: 14px;
}
@media (max-width: 700px) { .bpe-inspector { left: 8px; right: 8px; bottom: 8px; width: auto; max-height: 55vh; } }
.bpe-close { float: right; border: none; background: none; font-size: 16px; cursor: pointer; color: var(--bpe-muted); padding: 2px 6px; }
.bpe-action, .bpe-sort {
  font: inherit; font-size: 13px; cursor: pointer; color: var(--bpe-ink); background: var(--bpe-subtle);
  border: 1px solid var(--bpe-line); border-radius: 6px; padding: 2px 8px; margin: 2px 3px 2px 0; min-height: 28px;
}
.bpe-action:disabled { cursor: default; color: var(--bpe-muted); }
.bpe-sort { border: none; background: none; padding: 2px 0; color: var(--bpe-muted); font-weight: 500; }
.bpe-tree, .bpe-tree ul { list-style: none; margin: 0; padding-left: 20px; }
.bpe-tree { padding-left: 0; }
.bpe-tree li { position: relative; padding: 1px 0; }
.bpe-tree ul li::before {
  content: ""; position: absolute; left: -13px; top: 0; height: 0.95em; width: 10px;
  border-left: 1px solid var(--bpe-mark); border-bottom: 1px solid var(--bpe-mark);
}
.bpe-tree .bpe-later { font-style: italic; }
.bpe-text { font-family: ui-monospace, monospace; }
.bpe-split { display: inline-flex; flex-direction: column; align-items: center; margin: 0 1px;
  border: 1px dashed var(--bpe-hexc); border-radius: 5px; }
.bpe-split-chips { display: inline-flex; }
.bpe-split-char { font-size: 12px; line-height: 1.1; color: var(--bpe-hexc); }
.bpe-stepper { padding: 4px 0; }
.bpe-step-chips { display: flex; flex-wrap: wrap; align-items: center; min-height: 28px; }
.bpe-step-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 2px; }
.bpe-chunk { display: inline-flex; flex-wrap: wrap; margin-right: 6px; padding: 1px; border-bottom: 2px solid var(--bpe-rule); }
table.bpe-vocab { border-collapse: collapse; width: 100%; font-size: 13px; }
.bpe-vocab th, .bpe-vocab td { padding: 2px 6px; border-bottom: 1px solid var(--bpe-rule); text-align: left; white-space: nowrap; }
.bpe-vocab th { position: sticky; top: 0; background: var(--bpe-bg); color: var(--bpe-muted); font-weight: 500; }
.bpe-vocab .bpe-num { text-align: right; font-variant-numeric: tabular-nums; }
.bpe-vocab tr.bpe-vrow:hover td { background: var(--bpe-subtle); }
.bpe-hexcol { font: 12px ui-monospace, monospace; color: var(--bpe-muted); }
/* A and B: each document's two rows together, each labelled; the rounds where they differ marked. */
.bpe-pair { border-bottom: 1px solid var(--bpe-line); padding: 2px 3px; }
.bpe-pair:last-child { border-bottom: none; }
.bpe-pair .bpe-row { border-bottom: none; padding: 1px 0; }
.bpe-side { display: inline-block; min-width: 1.4em; margin-right: 4px; font: 600 11px ui-monospace, monospace;
  color: var(--bpe-muted); }
.bpe-side-b { background: var(--bpe-subtle); }
.bpe-merges tr.bpe-differs td:first-child { box-shadow: inset 3px 0 var(--bpe-accent); }
.bpe-merges tr.bpe-first td { border-top: 2px solid var(--bpe-accent); }
.bpe-differs-mark { color: var(--bpe-accent); font-weight: 600; }
.bpe-stopped { color: var(--bpe-muted); font-style: italic; }
.bpe-first-difference { margin: 6px 0; padding: 6px 8px; border-left: 3px solid var(--bpe-accent); background: var(--bpe-subtle); }
.bpe-encoded-b { margin-top: 8px; padding-top: 6px; border-top: 1px dashed var(--bpe-line); }
/* The tour's box floats in the window's other corner (the inspector has the right one); a sheet
   along the bottom on a phone, low enough to leave the pane it speaks about in view above it. */
.bpe-tour {
  position: fixed; left: 16px; bottom: 16px; z-index: 1001; width: min(420px, calc(100vw - 32px));
  max-height: 46vh; overflow: auto; box-sizing: border-box; padding: 10px 14px; font-size: 14px;
  background: var(--bpe-bg); color: var(--bpe-ink); border: 2px solid var(--bpe-focus); border-radius: 8px;
  box-shadow: 0 8px 28px rgba(0, 0, 0, 0.22);
}
.bpe-tour:focus { outline: 3px solid var(--bpe-focus); outline-offset: 2px; }
.bpe-tour h3 { margin: 2px 0 4px; font-size: 1.05em; }
.bpe-tour p { margin: 0 0 6px; line-height: 1.4; }
.bpe-tour-where, .bpe-tour-keys { color: var(--bpe-muted); font-size: 12px; }
/* Merges you can see happen: one round on, each pair in the corpus rows joins into its new token
   (a seam where the two were, closing); one round back, the two parts spread from where they were
   one. Transforms only, so nothing is laid out again; none under reduced motion. */
.bpe-rows .bpe-chip { transform-origin: var(--seam, 50%) 50%; }
@media (prefers-reduced-motion: no-preference) {
  .bpe-rows[data-motion="forward"] .bpe-chip.bpe-new { animation: bpe-join 220ms ease-out; }
  .bpe-rows[data-motion="back"] .bpe-chip.bpe-part-l { animation: bpe-part-l 220ms ease-out; }
  .bpe-rows[data-motion="back"] .bpe-chip.bpe-part-r { animation: bpe-part-r 220ms ease-out; }
}
@keyframes bpe-join {
  0%, 45% { transform: scaleX(1.18); background-image: linear-gradient(to right, transparent calc(var(--seam) - 1px),
            var(--bpe-ink) calc(var(--seam) - 1px), var(--bpe-ink) calc(var(--seam) + 1px), transparent calc(var(--seam) + 1px)); }
  100% { transform: none; }
}
@keyframes bpe-part-l { from { transform: translateX(4px); } to { transform: none; } }
@keyframes bpe-part-r { from { transform: translateX(-4px); } to { transform: none; } }
.bpe-settings-jump { display: none; }
@media (max-width: 700px) { .bpe-settings-jump { display: inline-block; } }
@media (max-width: 700px) { .bpe-tour { left: 0; right: 0; bottom: 0; width: auto; max-height: 38vh;
  border-radius: 8px 8px 0 0; border-width: 2px 0 0; } }
"""


def scoped(box: str) -> str:
    """STYLESHEET for HTML outside a shadow root: what it says of `:host` said of `box`, a selector,
    and its one rule for any element (the focus ring) kept to the elements inside `box`."""
    return STYLESHEET.replace(":host", box).replace("\n:focus-visible {", f"\n{box} :focus-visible {{")
