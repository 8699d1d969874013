"""bpe as a library: its wheel, built from this checkout and installed into a new virtual
environment with nothing else, gives the command line and `import bpe` (standard library only,
no page dependencies), at the version `bpe.__version__` says. The page's views (`bpe_app`) come in
the same wheel, for `bpe.show` and `bpe serve`, which need the notebook extra's Panel and say so
without it."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import bpe

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the wheel, the new environment's python, its bpe command)."""
    pytest.importorskip("setuptools", minversion="68")
    pytest.importorskip("wheel")
    # Built from a copy of what the wheel is made of, so that no build/ or egg-info left in the
    # checkout (by an earlier build) can add a file that is no longer there.
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    for package in ("bpe", "site/bpe_app"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-w", str(out), str(source)], check=True, capture_output=True)
    [wheel] = out.glob("bpe-*.whl")
    env = tmp_path_factory.mktemp("venv")
    venv.create(env, with_pip=True)
    python, command = env / "bin" / "python", env / "bin" / "bpe"
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)], check=True,
                   capture_output=True)
    return wheel, python, command


def test_the_wheel_holds_the_core_its_data_and_nothing_of_the_page(installed):
    """Nothing of the page's dependencies nor its build: the views are there, for the extra's Panel."""
    wheel, python, _ = installed
    assert wheel.name == f"bpe-{bpe.__version__}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    assert {"bpe/__init__.py", "bpe/trainers/fast.py", "bpe/chat/mistral.py", "bpe/real/cl100k_base.ranks.gz",
            "bpe/corpora/from-scratch.txt", "bpe/panes/notebook.py", "bpe_app/notebook.py", "bpe_app/server.py"} <= set(names)
    assert not [name for name in names if name.startswith(("bpe_build", "tests", "site/"))]
    metadata = zipfile.ZipFile(wheel).read(f"bpe-{bpe.__version__}.dist-info/METADATA").decode()
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert all("extra ==" in line for line in requires)  # no dependency outside the extras
    assert 'Requires-Dist: panel==1.8.1; extra == "notebook"' in requires
    done = subprocess.run([str(python), "-c", "import sys, bpe; print(bpe.__version__, sorted(m for m in sys.modules "
                           "if m.split('.')[0] in ('panel', 'param', 'bokeh', 'numpy')))"],
                          capture_output=True, text=True, check=True, cwd="/")
    assert done.stdout.split() == [bpe.__version__, "[]"]


def test_the_installed_command_trains_and_encodes(installed, tmp_path):
    _, _, command = installed
    corpus, tokenizer = tmp_path / "corpus.txt", tmp_path / "tok.json"
    corpus.write_text("walk walked walking talk talked talking\n" * 20, encoding="utf-8")
    subprocess.run([str(command), "train", str(corpus), "--pretokenizer", "words", "--merges", "10", "--out",
                    str(tokenizer)], check=True, capture_output=True, cwd="/")
    done = subprocess.run([str(command), "encode", "--tokenizer", str(tokenizer), "--json", "walking"],
                          capture_output=True, text=True, check=True, cwd="/")
    ours = bpe.train(["walk walked walking talk talked talking\n" * 20], bpe.Settings(pretokenizer="words", merges=10))
    assert json.loads(done.stdout)["ids"] == ours.tokenizer.encode("walking")


def test_the_installed_library_trains_from_python(installed):
    _, python, _ = installed
    code = ("import bpe; t = bpe.train(['low lower lowest'] * 3, bpe.Settings(pretokenizer='words', merges=4)); "
            "print([t.tokenizer.token_text(m.id) for m in t.merges])")
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True, cwd="/")
    ours = bpe.train(["low lower lowest"] * 3, bpe.Settings(pretokenizer="words", merges=4))
    assert done.stdout.strip() == str([ours.tokenizer.token_text(m.id) for m in ours.merges])


def test_without_the_notebook_extra_the_views_say_what_to_install(installed, tmp_path):
    """`bpe.show` and `bpe serve` need Panel: one clear line, not a traceback; the cell's plain
    output needs nothing more."""
    _, python, command = installed
    code = ("import bpe\nt = bpe.train(['low lower'] * 3)\nprint('bpe-chip' in t._repr_html_())\n"
            "try:\n    bpe.show(t)\nexcept ImportError as error:\n    print(error)")
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True, cwd="/")
    shown, told = done.stdout.splitlines()
    assert shown == "True" and told.startswith("bpe.show needs Panel") and 'pip install "bpe[notebook]"' in told
    done = subprocess.run([str(command), "serve", "--port", "8123"], capture_output=True, text=True, cwd="/")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith("bpe: error: bpe serve needs Panel")
