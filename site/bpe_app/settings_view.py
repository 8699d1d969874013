"""The settings panel: preset, corpus (typed or uploaded) and every training option."""
from __future__ import annotations

import html

import panel as pn

from bpe.presets import PRESETS

from .documents import MAX_CORPUS_BYTES, megabytes
from .styles import html_pane

#: Hover help for each option (Panel renders it as HTML: no angle brackets).
HELP = {
    "split": "Documents are barriers: merges never cross from one document to the next.",
    "alphabet": "bytes: 256 base tokens, so nothing is ever unknown. chars: the corpus's own characters.",
    "pretokenizer": ("Where merges may not cross. none: whole documents. words: a word keeps its leading space. "
                     "kinds: runs of letters, digits, spaces, other (octlm). gpt2: GPT-2's pattern."),
    "tie": "Which pair wins when several share the top count.",
    "specials": "Ids reserved after the base alphabet. octlm: pad, bos, eos and two tool tokens, ids 256-260.",
    "min_frequency": "Training stops when the best pair occurs fewer times than this.",
    "budget": "How much to learn: a number of merges, a vocabulary size, or until no pair is frequent enough.",
}


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
                                                  disabled=p.budget.rx() == "no limit", css_classes=["budget-size"])
        self._layout = pn.Column(
            widgets.Select.from_param(p.preset, name="Preset", css_classes=["preset-select"],
                                      sizing_mode="stretch_width"),
            html_pane(pn.bind(preset_description, p.preset), margin=(0, 10)),
            widgets.TextAreaInput.from_param(
                p.corpus_text, name="Corpus", css_classes=["corpus-input"], height=150,
                max_length=4 * MAX_CORPUS_BYTES, sizing_mode="stretch_width",
                description=f"Edit freely, then click outside the box to retrain. At most {megabytes(MAX_CORPUS_BYTES)}.",
            ),
            widgets.Select.from_param(p.split, name="Documents", description=HELP["split"],
                                      sizing_mode="stretch_width"),
            html_pane(f'<div class="bpe-note">Or upload a UTF-8 text file (at most {megabytes(MAX_CORPUS_BYTES)}):</div>',
                      margin=(0, 10)),
            upload,
            widgets.Select.from_param(p.alphabet, name="Alphabet", description=HELP["alphabet"],
                                      sizing_mode="stretch_width"),
            widgets.Select.from_param(p.pretokenizer, name="Pre-tokenizer", description=HELP["pretokenizer"],
                                      sizing_mode="stretch_width"),
            widgets.Select.from_param(p.tie, name="Tie rule", css_classes=["tie-select"], description=HELP["tie"],
                                      sizing_mode="stretch_width"),
            widgets.Select.from_param(p.specials, name="Special tokens", description=HELP["specials"],
                                      sizing_mode="stretch_width"),
            widgets.IntInput.from_param(p.min_frequency, name="Minimum pair count", start=1,
                                        description=HELP["min_frequency"], sizing_mode="stretch_width"),
            pn.Row(widgets.Select.from_param(p.budget, name="Budget", description=HELP["budget"],
                                             sizing_mode="stretch_width"),
                   budget_size, margin=0, sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
