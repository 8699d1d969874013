"""pytest-xdist scheduling for `build.py test` (`-p one_browser`): the browser tests, one after
another, on one worker; the CPython test modules spread over both.

Two browsers at once only share the same two cores: measured on a 2-core machine, the suite took
366 s on two workers by file against 424 s on one, with every browser step twice as slow. One
browser beside the CPython tests overlaps those tests' 70 s instead.

>>> OneBrowser._scope("tests/browser/test_site.py::test_a[chromium]")
'tests/browser'
>>> OneBrowser._scope("tests/test_cli.py::test_b")
'tests/test_cli.py'
"""
from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

BROWSER = "tests/browser"


class OneBrowser(LoadScopeScheduling):
    """xdist's by-module scheduling, with every browser test in one unit of work."""

    @staticmethod
    def _scope(nodeid: str) -> str:
        return BROWSER if nodeid.startswith(BROWSER + "/") else nodeid.split("::", 1)[0]

    def _split_scope(self, nodeid: str) -> str:
        return self._scope(nodeid)


def pytest_xdist_make_scheduler(config, log):
    return OneBrowser(config, log)
