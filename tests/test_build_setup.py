"""Set-up and build steps a fresh machine pays for (issue 24): what is built from source, and what
every long step prints."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from bpe_build import cli, fetch, util

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("module", [cli, util], ids=["cli", "util"])
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
