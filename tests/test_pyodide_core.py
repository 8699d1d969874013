"""The bpe core runs unchanged inside Pyodide (the browser's Python), with the same answers."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import bpe

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r'''
import doctest, json, random, sys
import bpe, bpe.presets
from bpe.encoding import pretokenize, tokenizer
from bpe.io import files
from bpe.trainers import chunks, corpus, counts, fast, parallel, reference, training

assert sys.version_info[:2] == (3, 12), sys.version
failures = sum(doctest.testmod(module).failed
               for module in (bpe, chunks, corpus, counts, fast, files, parallel, pretokenize, reference, tokenizer, training))
assert parallel.default_workers() == 1  # no processes in the browser: counting stays in this one
assert parallel.count(["a b  c", "a"] * 3, "kinds", 4) == chunks.count_chunks(["a b  c", "a"] * 3, "kinds")
rng = random.Random(5)
for _ in range(60):
    docs = ["".join(rng.choice("ab a\né😀_1") for _ in range(rng.randint(0, 12))) for _ in range(rng.randint(0, 5))]
    settings = bpe.Settings(alphabet=rng.choice(["bytes", "chars"]), pretokenizer=rng.choice(pretokenize.PRETOKENIZERS),
                            tie=rng.choice(["smallest", "largest-text"]), min_frequency=rng.randint(1, 3), merges=rng.randint(0, 30))
    assert bpe.train(docs, settings).merges == bpe.train(docs, settings, "reference").merges, (docs, settings)
out = {name: [[m.left, m.right, m.count, m.replacements, m.ties] for m in bpe.train(p.documents, p.settings).merges]
       for name, p in bpe.presets.PRESETS.items()}
out["kinds"] = pretokenize.split("x_1 <|eos|> e\u0301 \r\n\t2024 😀日本", "kinds")
out["doctest_failures"] = failures
print("RESULT " + json.dumps(out))
'''


def _pyodide_dir() -> Path:
    from bpe_build.fetch import fetch_pyodide

    return fetch_pyodide()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run Pyodide")
def test_core_gives_the_same_answers_in_pyodide(tmp_path):
    script = tmp_path / "check.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(["node", str(ROOT / "tests" / "pyodide_run.js"), str(_pyodide_dir()), str(ROOT), str(script)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.split("RESULT ", 1)[1])
    assert result.pop("doctest_failures") == 0
    assert result.pop("kinds") == bpe.pretokenize.split("x_1 <|eos|> e\u0301 \r\n\t2024 😀日本", "kinds")
    from bpe.presets import PRESETS

    here = {name: [[m.left, m.right, m.count, m.replacements, m.ties] for m in bpe.train(p.documents, p.settings).merges]
            for name, p in PRESETS.items()}
    assert result == here
