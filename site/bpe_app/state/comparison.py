"""The real tokenizers the encoder compares with (one) and counts with (several), each loaded a
moment after it is chosen, since loading takes a second or two in the browser.

>>> from .app_state import AppState
>>> state = AppState(preset="course")
>>> state.compare = "cl100k_base"
>>> state.reference.name, [name for name in COMPARISONS.values()][:2]
('cl100k_base', ['', 'cl100k_base'])
"""
from __future__ import annotations

import param

from bpe import real

from . import real_tokenizers

#: The name a tokenizer file the person uploads goes by.
UPLOAD = "upload"
#: The real tokenizers the encoder can be compared with: label → name ("" for none).
COMPARISONS = {"nothing": "", **{real.LABELS[name]: name for name in real.NAMES},
               "your tokenizer file (upload it below)": UPLOAD}
assert set(COMPARISONS.values()) == {"", *real.NAMES, UPLOAD}


class Comparison(param.Parameterized):
    compare = param.Selector(default="", objects=COMPARISONS, doc="The real tokenizer the encoder compares with.")
    reference = param.ClassSelector(class_=real.Encoding, doc="The real tokenizer `compare` names, once loaded.")
    counted = param.ListSelector(default=[], objects=list(real.NAMES), doc="""
        Real tokenizers whose counts are shown too (the encoder's text, the cost across languages),
        each loaded when first chosen.""")
    loaded = param.Dict(default={}, doc="The real tokenizers loaded so far, by name (what `counted` shows).")

    @param.depends("compare", watch=True)
    def _load_reference(self) -> None:
        """Load the real tokenizer to compare with, a moment later: it takes a second or two in the browser."""
        if not self.compare or (self.reference is not None and self.reference.name == self.compare):
            return
        if self.compare == UPLOAD:
            if self.uploaded is None:
                self.param.update(compare="", message_kind="info", message=(
                    "Upload a tokenizer file first: the box under the comparison takes a Hugging Face "
                    "tokenizer.json, this page's tiktoken zip, or a .tiktoken rank file."))
            else:
                self.reference = self.uploaded
            return
        self.busy = True
        self.later(lambda name=self.compare: self._loaded_reference(name))


    @param.depends("counted", watch=True)
    def _load_counted(self) -> None:
        """Load the tokenizers to count with that are not loaded yet, a moment later (a second or two each)."""
        missing = [name for name in self.counted if name not in self.loaded]
        if missing:
            self.busy = True
            self.later(lambda: self._loaded_counted(missing))


    def _loaded_counted(self, names: list[str]) -> None:
        loaded = dict(self.loaded)
        for name in names:
            try:
                loaded[name] = real_tokenizers.load(name)
            except real_tokenizers.LoadError as error:
                self.param.update(counted=[n for n in self.counted if n != name], message=str(error),
                                  message_kind="error")
        self.param.update(loaded=loaded, busy=False)


    def _loaded_reference(self, name: str) -> None:
        if name != self.compare:
            return  # another choice came meanwhile
        try:
            reference = real_tokenizers.load(name)
        except real_tokenizers.LoadError as error:
            self.param.update(compare="", message=str(error), message_kind="error", busy=False)
            return
        self.param.update(reference=reference, busy=False)

