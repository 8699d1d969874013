"""The registry is the one home of every option: a value added there reaches every front end."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bpe import options
from bpe.errors import SettingsError

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("option", [*options.OPTIONS.values(), options.DOCUMENTS, options.BUDGET, options.FORMAT])
def test_every_value_speaks_for_itself(option):
    assert option.label and option.help and option.flag.startswith("--")
    for value in option:
        assert value.name and value.label and value.help and option.choose(value.name) is value
        assert option.labelled(value.label) is value


def test_an_unknown_name_fails_in_one_place_naming_the_option():
    with pytest.raises(SettingsError) as caught:
        options.PRETOKENIZER.choose("bert")
    assert str(caught.value) == "--pretokenizer must be one of none, words, kinds, gpt2, not 'bert'"
    assert caught.value.render({"pretokenizer": "pre-tokenizer"}.get).startswith("pre-tokenizer must be one of")


#: Run in a fresh interpreter: values are added to the registry before anything else reads it,
#: as a change to bpe/options.py alone would add them.
ADDED = r'''
import dataclasses, io, json, sys, types
from bpe import options
from bpe.options import Format, Pretokenizer, TieRule

def add(option, value):
    object.__setattr__(option, "values", option.values + (value,))

add(options.TIE, TieRule("largest-id", "largest ids", "largest ids (left id, then right id)", "nobody",
                         key=lambda vocab: lambda left, right: (-left, -right),
                         pair_key=lambda vocab: lambda pair: (-ord(pair[0]), -ord(pair[1]))))
add(options.PRETOKENIZER, Pretokenizer("letters", "letters", "runs of ASCII letters, and each other character",
                                       pattern=lambda astral=True: r"[A-Za-z]+|[^A-Za-z]"))
toy = types.SimpleNamespace(
    export=lambda tokenizer, path, name: ({path: "toy %d" % len(tokenizer.merges)}, "wrote " + path, []),
    load=None, DOWNLOAD="toy.txt", problem=lambda tokenizer: "",
    download=lambda tokenizer: b"toy", how_to_load=lambda tokenizer: "Toy: read it.")
add(options.FORMAT, Format("toy", "Toy", "a toy format", module=lambda: toy))

import bpe
from bpe.cli import main
out = {}
docs = ["abab cdcd", "x_1"]  # (a, b) and (c, d) both count 2
settings = bpe.Settings(tie="largest-id", pretokenizer="letters", min_frequency=1, merges=6)
out["same"] = bpe.train(docs, settings).merges == bpe.train(docs, settings, "reference").merges
out["first"] = [bpe.train(docs, settings).merges[0].left, bpe.train(docs, settings).merges[0].right]
out["cli"] = main(["train", "--text", "abab cdcd", "--tie", "largest-id", "--pretokenizer", "letters",
                   "--merges", "2", "--out", sys.argv[1] + "/t.json"])
out["export"] = main(["export", "--tokenizer", sys.argv[1] + "/t.json", "--format", "toy", "--out", sys.argv[1] + "/t.toy"])
out["exported"] = open(sys.argv[1] + "/t.toy").read()
sys.path.insert(0, sys.argv[2])
from bpe_app.state import AppState
from bpe_app import link_fields, downloads, settings_view
out["page_ties"] = list(AppState.param.tie.objects)
out["page_pretokenizers"] = list(AppState.param.pretokenizer.objects)
out["link"] = link_fields.FIELDS["tie"].read("largest-id")
out["help"] = "largest ids" in settings_view.help_text(options.TIE)
state = AppState(preset="course")
state.param.update(tie="largest-id", pretokenizer="letters")
out["page_trained"] = state.training.settings.tie
view = downloads.DownloadsView(state)
import panel as pn
out["buttons"] = [w.css_classes for w in view._layout.select(pn.widgets.FileDownload)]
out["note"] = "Toy: read it." in downloads.export_note_html(state.training)
print(json.dumps(out))
'''


def test_a_value_added_to_the_registry_reaches_every_front_end(tmp_path):
    done = subprocess.run([sys.executable, "-c", ADDED, str(tmp_path), str(ROOT / "site")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["same"] and out["first"] == [99, 100]  # the tie goes to (c, d): the larger ids
    assert out["cli"] == 0 and out["export"] == 0 and out["exported"] == "toy 2"
    assert "largest-id" in out["page_ties"] and "letters" in out["page_pretokenizers"]
    assert out["link"] == "largest-id" and out["help"] and out["page_trained"] == "largest-id"
    assert ["export-toy"] in out["buttons"] and out["note"]
