"""The benchmark scripts' own logic, without a browser: benchmarks/site_profile.py's reading of a
Chrome trace (its doctest)."""
from __future__ import annotations

import doctest
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import site_profile  # noqa: E402


def test_site_profile_reads_a_traces_samples():
    assert doctest.testmod(site_profile).failed == 0


def test_site_profile_finds_the_visit_by_its_address():
    events = [{"name": "navigationStart", "ts": 5, "args": {"data": {"documentLoaderURL": ""}}},
              {"name": "navigationStart", "ts": 9, "args": {"data": {"documentLoaderURL": "http://h/"}}}]
    assert site_profile.navigation_start(events, "http://h/") == 9
