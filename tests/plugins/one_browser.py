"""pytest-xdist scheduling for `build.py test` (`-p one_browser`): two units of work, one for each
of the two workers: the browser tests, one after another, and the CPython tests.

Two browsers at once only share the same two cores. One browser beside the CPython tests
overlaps those tests' 70 s with it instead; by module, xdist's own scheduling queued some CPython
modules behind the browser tests on the browser's worker (its first batch goes round-robin).

>>> OneBrowser._scope("tests/browser/test_site.py::test_a[chromium]")
'tests/browser'
>>> OneBrowser._scope("tests/test_cli.py::test_b")
'tests'
"""
from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

BROWSER = "tests/browser"


class OneBrowser(LoadScopeScheduling):
    """xdist's scheduling by scope, with two scopes: the browser tests and the rest."""

    @staticmethod
    def _scope(nodeid: str) -> str:
        return BROWSER if nodeid.startswith(BROWSER + "/") else "tests"

    def _split_scope(self, nodeid: str) -> str:
        return self._scope(nodeid)


def pytest_xdist_make_scheduler(config, log):
    return OneBrowser(config, log)
