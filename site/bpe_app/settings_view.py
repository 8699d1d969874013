"""The settings panel: preset, corpus (typed or uploaded) and every training option."""
from __future__ import annotations

import html

import panel as pn

from bpe.options import ALPHABET, BUDGET, DOCUMENTS, MIN_FREQUENCY, PRETOKENIZER, SPECIALS, TIE, Option
from bpe.presets import PRESETS

from .documents import MAX_CORPUS_BYTES, megabytes
from .styles import html_pane


#: The options whose help the settings show on hover.
DESCRIBED = (DOCUMENTS, ALPHABET, PRETOKENIZER, TIE, SPECIALS, MIN_FREQUENCY, BUDGET)


def help_text(option: Option) -> str:
    """An option's hover help, from the registry (Panel renders it as HTML, so it is escaped)."""
    return html.escape(option.describe(), quote=False)


def preset_description(name: str) -> str:
    return f'<div class="bpe-note">{html.escape(PRESETS[name].description)}</div>'


class SettingsView(pn.viewable.Viewer):
    """Every input of the training; changing one retrains."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p, widgets = state.param, pn.widgets
        upload = widgets.FileInput(accept=".txt,.md,.csv,.tsv,.json,.py,text/plain", multiple=False,
                                   sizing_mode="stretch_width")
        upload.param.watch(lambda event: state.load_upload(upload.filename or "the file", event.new), "value")
        budget_size = widgets.IntInput.from_param(p.budget_size, name="how many", start=0, width=110,
                                                  disabled=p.budget.rx().rx.pipe(lambda budget: not BUDGET.labelled(budget).field), css_classes=["budget-size"])
        self._layout = pn.Column(
            widgets.Select.from_param(p.preset, name="Preset", css_classes=["preset-select"],
                                      sizing_mode="stretch_width"),
            html_pane(pn.bind(preset_description, p.preset), margin=(0, 10)),
            widgets.TextAreaInput.from_param(
                p.corpus_text, name="Corpus", css_classes=["corpus-input"], height=150,
                max_length=4 * MAX_CORPUS_BYTES, sizing_mode="stretch_width",
                description=f"Edit freely, then click outside the box to retrain. At most {megabytes(MAX_CORPUS_BYTES)}.",
            ),
            widgets.Select.from_param(p.split, name="Documents", description=help_text(DOCUMENTS),
                                      sizing_mode="stretch_width"),
            html_pane(f'<div class="bpe-note">Or upload a UTF-8 text file (at most {megabytes(MAX_CORPUS_BYTES)}):</div>',
                      margin=(0, 10)),
            upload,
            widgets.Select.from_param(p.alphabet, name="Alphabet", description=help_text(ALPHABET),
                                      sizing_mode="stretch_width"),
            widgets.Select.from_param(p.pretokenizer, name="Pre-tokenizer", description=help_text(PRETOKENIZER),
                                      sizing_mode="stretch_width"),
            widgets.Select.from_param(p.tie, name="Tie rule", css_classes=["tie-select"], description=help_text(TIE),
                                      sizing_mode="stretch_width"),
            widgets.Select.from_param(p.specials, name="Special tokens", description=help_text(SPECIALS),
                                      sizing_mode="stretch_width"),
            widgets.IntInput.from_param(p.min_frequency, name="Minimum pair count", start=1,
                                        description=help_text(MIN_FREQUENCY), sizing_mode="stretch_width"),
            pn.Row(widgets.Select.from_param(p.budget, name="Budget", description=help_text(BUDGET),
                                             sizing_mode="stretch_width"),
                   budget_size, margin=0, sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
