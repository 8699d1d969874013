"""The settings panel: preset, corpus (typed or uploaded) and every training option."""
from __future__ import annotations

import html

import panel as pn

from bpe.options import ALPHABET, BUDGET, DOCUMENTS, MIN_FREQUENCY, PRETOKENIZER, SPECIALS, TIE, Option
from bpe.presets import PRESETS

from .corpus_editor import CorpusEditor
from .notes import preset_description
from .state import TRAINING_INPUTS
from .state.documents import MAX_CORPUS_BYTES, megabytes
from .state.inputs import preset_inputs
from .styles import file_input, html_pane, light_button


#: The options whose help the settings show on hover.
DESCRIBED = (DOCUMENTS, ALPHABET, PRETOKENIZER, TIE, SPECIALS, MIN_FREQUENCY, BUDGET)


def help_text(option: Option) -> str:
    """An option's hover help, from the registry (Panel renders it as HTML, so it is escaped)."""
    return html.escape(option.describe(), quote=False)


#: The menu's value while the corpus on screen is no preset's.
YOURS = ""


def preset_options(preset: str, corpus_edited: bool) -> dict[str, str]:
    """The preset menu's choices (label -> preset); while the corpus is the person's, one more, first, says so.

    >>> list(preset_options("course", True))[0], "course" in preset_options("course", False)
    ('your corpus (settings from course)', True)
    """
    options = {name: name for name in PRESETS}
    return {f"your corpus (settings from {preset})": YOURS, **options} if corpus_edited else options


def preset_menu(state) -> pn.widgets.Select:
    """The preset menu, which never names a preset whose corpus is not the one on screen.

    Choosing the current preset again reloads it (after an edit, that is a change of the menu's value)."""
    syncing = []
    menu = pn.widgets.Select(name="Preset", css_classes=["preset-select"], sizing_mode="stretch_width",
                             description="A corpus and settings to start from; choosing one undoes every edit.")

    def show(*events) -> None:
        yours = state.corpus_text != preset_inputs(state.preset)["corpus_text"]
        syncing.append(True)
        try:
            menu.param.update(options=preset_options(state.preset, yours), value=YOURS if yours else state.preset)
        finally:
            syncing.clear()

    def chosen(event) -> None:
        if syncing or event.new == YOURS:
            return
        if event.new == state.preset:
            state.reload_preset()
        else:
            state.preset = event.new

    show()
    state.param.watch(show, ["preset", "corpus_text"])
    menu.param.watch(chosen, "value")
    return menu


def option_widgets(state, side: str = "") -> list:
    """A side's training options, from the alphabet to the budget: A's, or B's (side `b_`).

    B's widgets carry the same classes as A's with b- in front (b-tie-select), and say B's in
    their names ("B's tie rule"), so a screen reader tells the two apart."""
    p, widgets = state.param, pn.widgets
    css = (lambda name: [side.replace("_", "-") + name]) if side else (lambda name: [name])
    label = (lambda name: f"B's {name[:1].lower()}{name[1:]}") if side else (lambda name: name)
    # Typed numbers reach the state whatever they are, so that a bad one is refused with a message
    # (a widget bound would drop it silently).
    budget_size = widgets.IntInput.from_param(
        p[side + "budget_size"], name="how many (B)" if side else "how many", width=110, css_classes=css("budget-size"),
        disabled=p[side + "budget"].rx().rx.pipe(lambda budget: not BUDGET.labelled(budget).field))
    return [
        widgets.Select.from_param(p[side + "alphabet"], name=label("Alphabet"), description=help_text(ALPHABET),
                                  css_classes=css("alphabet-select"), sizing_mode="stretch_width"),
        widgets.Select.from_param(p[side + "pretokenizer"], name=label("Pre-tokenizer"), description=help_text(PRETOKENIZER),
                                  css_classes=css("pretokenizer-select"), sizing_mode="stretch_width"),
        widgets.Select.from_param(p[side + "tie"], name=label("Tie rule"), css_classes=css("tie-select"),
                                  description=help_text(TIE), sizing_mode="stretch_width"),
        widgets.Select.from_param(p[side + "specials"], name=label("Special tokens"), description=help_text(SPECIALS),
                                  css_classes=css("specials-select"), sizing_mode="stretch_width"),
        widgets.IntInput.from_param(p[side + "min_frequency"], name=label("Minimum pair count"), css_classes=css("min-frequency"),
                                    description=help_text(MIN_FREQUENCY), sizing_mode="stretch_width"),
        pn.Row(widgets.Select.from_param(p[side + "budget"], name=label("Budget"), description=help_text(BUDGET),
                                         css_classes=css("budget-select"), sizing_mode="stretch_width"),
               budget_size, margin=0, sizing_mode="stretch_width"),
    ]


class SettingsView(pn.viewable.Viewer):
    """Every input of the training; changing one retrains."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p, widgets = state.param, pn.widgets
        upload = file_input(accept=".txt,.md,.csv,.tsv,.json,.py,text/plain", multiple=False,
                            sizing_mode="stretch_width", name="Upload a corpus")
        clearing = []  # set while the chooser is emptied for a preset: that is no upload
        handled = {}  # the contents handled last, and the name they were handled under

        def uploaded(event) -> None:
            if not clearing:
                handled.update(value=upload.value, name=upload.filename)
                state.load_upload(upload.filename or "the file", upload.value)

        def renamed(event) -> None:
            # The browser sends a file's contents and then its name, as two changes: contents that
            # were handled under the name of the file chosen before are handled again under theirs.
            if not clearing and handled.get("value") is upload.value and handled["name"] != upload.filename:
                uploaded(event)

        def preset_loaded(event) -> None:
            clearing.append(True)
            try:
                upload.clear()  # so the chooser no longer names a file the corpus is not from
            finally:
                clearing.clear()

        upload.param.watch(uploaded, "value")
        upload.param.watch(renamed, "filename")
        state.param.watch(preset_loaded, "preset")
        edited = pn.bind(lambda *inputs: state.edited, p.preset, *[p[name] for name in TRAINING_INPUTS])
        reload = light_button(name="↺ back to the preset", css_classes=["reload-preset"], visible=edited,
                              sizing_mode="stretch_width",
                              description="Undo every edit: the preset's own corpus and settings.")
        reload.on_click(lambda event: state.reload_preset())
        self._layout = pn.Column(
            preset_menu(state),
            html_pane(pn.bind(preset_description, p.preset, edited, p.upload_name, p.corpus_text), margin=(0, 10),
                      css_classes=["bpe-preset-note-pane"]),
            reload,
            CorpusEditor(state),
            widgets.Select.from_param(p.split, name="Documents", description=help_text(DOCUMENTS),
                                      sizing_mode="stretch_width"),
            html_pane(f'<div class="bpe-note">Or upload a UTF-8 text file (at most {megabytes(MAX_CORPUS_BYTES)}):</div>',
                      margin=(0, 10)),
            upload,
            *option_widgets(state),
            sizing_mode="stretch_width",
        )

    def __panel__(self):
        return self._layout
