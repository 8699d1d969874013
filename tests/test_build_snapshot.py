"""What the worker's memory snapshot may name: the functions Python makes with run_js, read from Panel.

The browser tests (tests/browser/test_site_shipping.py) start the page from a snapshot; these check,
without a browser, that the build lists exactly the function the pinned Panel makes, as JavaScript's
`toString()` gives it, and refuses a Panel it cannot read.
"""
from __future__ import annotations

import doctest
import subprocess

import pytest
from bpe_build import snapshot
from bpe_build.paths import CACHE
from bpe_build.util import pins

PANEL_STYLE = '''
_dict_converter = pyodide.code.run_js("""
((entries) => {
  return Object.fromEntries(entries);
})
""")
'''


def test_doctests():
    assert doctest.testmod(snapshot).failed == 0


def test_the_source_is_what_javascript_gives_for_the_function():
    source = snapshot.function_source(PANEL_STYLE)
    assert source == "(entries) => {\n  return Object.fromEntries(entries);\n}"
    made = subprocess.run(["node", "-e", "process.stdout.write((0, eval)(process.argv[1]).toString())",
                           PANEL_STYLE.split('"""')[1]], capture_output=True, text=True, check=True)
    assert made.stdout == source


@pytest.mark.parametrize("text", ["no functions here", PANEL_STYLE * 2, 'run_js("""x => x""")'])
def test_a_panel_it_cannot_read_stops_the_build(text):
    with pytest.raises(SystemExit):
        snapshot.function_source(text)


def test_the_pinned_panel_makes_one_function():
    if not (CACHE / "pypi" / pins()["pure_wheels"]["panel"]["file"]).exists():
        pytest.skip("the build has not fetched Panel yet")
    [source] = snapshot.snapshot_functions()
    assert source.startswith("(entries) =>") and "Object.fromEntries(entries)" in source
