"""Set-up and build steps a fresh machine pays for (issue 24): what is built from source, what
every long step prints, how the tests are spread over the cores."""
from __future__ import annotations

import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from bpe_build import cli, fetch, util

ROOT = Path(__file__).resolve().parents[1]


def plugin(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "plugins" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("module", [cli, util, plugin("one_browser")], ids=["cli", "util", "one_browser"])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_only_the_two_sdists_are_taken_from_source(monkeypatch):
    """`--no-binary=:all:` also applied to their build tools, and pip compiled Cython for minutes."""
    calls = []
    monkeypatch.setattr(fetch, "pip_download", lambda entries, *options: calls.append((entries, options)))
    fetch.fetch_pypi()
    sdists = util.pins()["pure_sdists"]
    source_calls = [options for entries, options in calls if any(o.startswith("--no-binary") for o in options)]
    assert source_calls == [(f"--no-binary={','.join(sdists)}",)]
    assert not any(":all:" in option for _, options in calls for option in options if option.startswith("--no-binary"))
    # and each sdist is asked for by its pinned version and hash
    asked = [entry for entries, options in calls if options == source_calls[0] for entry in entries]
    assert asked == [(f"{name}=={pin['version']}", pin["file"], pin["sha256"]) for name, pin in sdists.items()]


def test_a_step_says_what_it_does_before_and_how_long_after(capsys):
    with util.step("counting sheep"):
        print("inside")
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["[build] counting sheep ...", "inside"]
    assert lines[2].startswith("[build] counting sheep: done in ") and lines[2].endswith(" s") and len(lines) == 3


def test_a_failing_step_is_not_reported_done(capsys):
    with pytest.raises(RuntimeError):
        with util.step("breaking"):
            raise RuntimeError("no")
    assert capsys.readouterr().out.splitlines() == ["[build] breaking ..."]


def test_the_browser_tests_run_on_one_worker_one_at_a_time(tmp_path):
    """A small suite laid out like ours, run as `build.py test` runs pytest: every test under
    tests/browser/ on one worker, every other test on the other."""
    modules = [*(f"tests/browser/test_{name}.py" for name in "abcd"), "tests/test_e.py", "tests/test_f.py"]
    for module in modules:
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text(WHERE_TESTS_RUN.replace("MODULE", module))
    options, env = cli.parallel([])
    if not options:
        pytest.skip("one core: build.py test runs pytest without workers")
    done = subprocess.run([sys.executable, "-m", "pytest", *options, "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                           "--rootdir", str(tmp_path), "tests"], cwd=tmp_path, capture_output=True, text=True,
                          env={**env, "RAN_FILE": str(tmp_path / "ran.txt")})
    assert done.returncode == 0, done.stdout + done.stderr
    ran = dict(line.split() for line in (tmp_path / "ran.txt").read_text().splitlines())
    assert len(ran) == len(modules) * 3
    browser = {worker for test, worker in ran.items() if test.startswith("tests/browser/")}
    others = {worker for test, worker in ran.items() if not test.startswith("tests/browser/")}
    assert len(browser) == 1 and others.isdisjoint(browser), ran


#: Three tests a module, each noting which worker ran it.
WHERE_TESTS_RUN = """
import os
import pytest

@pytest.mark.parametrize("n", range(3))
def test_n(n):
    with open(os.environ["RAN_FILE"], "a") as out:
        out.write(f"MODULE::{n} {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""
