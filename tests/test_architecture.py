"""The shape of the house (docs/architecture.md): no import circles, no import that runs up the
layers, and no module too long to read in one sitting. Imports are read from the source, as text
parsed by `ast` (those inside functions and `if TYPE_CHECKING:` included), nothing is imported."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"

#: The layers, lowest first. A module belongs to the longest name here that is its own or a
#: package holding it; it may import its own layer's modules and those of lower layers only.
#: `bpe` itself (its __init__ and __main__) is the core's top; the site sits on the whole core.
LAYERS = (
    "bpe.errors", "bpe.record", "bpe.display", "bpe.text", "bpe.options", "bpe.settings", "bpe.presets",
    "bpe.encoding", "bpe.trainers", "bpe.io", "bpe.formats", "bpe.real", "bpe.chat", "bpe.explain", "bpe.panes",
    "bpe.views", "bpe.cli", "bpe", "bpe_app.state", "bpe_app", "bpe_build",
)
#: Longest module, in lines, of the Python a reader walks through, and of any JavaScript file.
MAX_PYTHON_LINES = 300
MAX_JS_LINES = 250


def module_name(path: Path) -> str:
    base = SITE if SITE in path.parents else ROOT
    parts = list(path.relative_to(base).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_modules() -> dict[str, Path]:
    folders = [ROOT / "bpe", SITE / "bpe_app", SITE / "bpe_build"]
    return {module_name(path): path for folder in folders for path in sorted(folder.rglob("*.py"))
            if "__pycache__" not in path.parts}


MODULES = python_modules()


def imported(name: str, path: Path) -> set[str]:
    """The modules of this project that module `name` imports.

    `from . import x` names the submodule x (importing a package's submodule is no import of the
    package's own code beyond what `x` itself needs)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            submodules = {f"{source}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules if len(submodules) == len(node.names) else {source, *submodules})
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def layer(module: str) -> int:
    """The index in LAYERS of the longest entry that is `module` or a package holding it."""
    matches = [i for i, entry in enumerate(LAYERS) if module == entry or module.startswith(entry + ".")]
    if not matches:
        raise AssertionError(f"{module} is in no layer: add its package to LAYERS and docs/architecture.md")
    return max(matches, key=lambda i: len(LAYERS[i]))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle, as the modules on it (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while not component or component[-1] != module:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1 or module in graph[module]:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_reader_finds_every_import():
    """The reader above sees the imports that matter: a circle it makes up is found."""
    assert imported("bpe.trainers.training", MODULES["bpe.trainers.training"]) >= {
        "bpe.trainers.fast", "bpe.trainers.reference", "bpe.encoding.tokenizer", "bpe.settings"}
    assert "bpe.trainers.parallel" in GRAPH["bpe.trainers.corpus"]  # imported inside a function
    assert "bpe.real" in GRAPH["bpe.explain.tree"]  # imported for type checking only
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles():
    assert cycles(GRAPH) == []


def test_no_import_runs_up_the_layers():
    upward = sorted(f"{module} ({LAYERS[layer(module)]}) imports {other} ({LAYERS[layer(other)]})"
                    for module, others in GRAPH.items() for other in others if layer(other) > layer(module))
    assert upward == []


def test_every_package_has_a_layer_and_a_docstring():
    """A new package or top-level module of the core is placed in a layer on purpose, and says what
    lives in it (docs/architecture.md gives each one a paragraph)."""
    tops = {f"bpe.{path.stem}" for path in (ROOT / "bpe").glob("*.py") if path.stem not in ("__init__", "__main__")}
    tops |= {f"bpe.{path.name}" for path in (ROOT / "bpe").iterdir() if (path / "__init__.py").exists()}
    assert tops <= set(LAYERS)
    packages = [path for path in MODULES.values() if path.name == "__init__.py"]
    assert [str(p.relative_to(ROOT)) for p in packages if not ast.get_docstring(ast.parse(p.read_text()))] == []
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [entry for entry in LAYERS if f"`{entry}`" not in architecture]
    assert missing == []


@pytest.mark.parametrize("folder", ["bpe", "site/bpe_app"])
def test_no_python_module_is_too_long(folder):
    long = {str(path.relative_to(ROOT)): n for path in sorted((ROOT / folder).rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_PYTHON_LINES}
    assert long == {}


def our_javascript() -> list[Path]:
    skipped = {"tests", "benchmarks", "node_modules", "dist", ".cache", ".venv", "build"}
    return [path for path in sorted(ROOT.rglob("*.js")) if not skipped & set(path.relative_to(ROOT).parts)]


def test_no_javascript_file_is_too_long():
    files = our_javascript()
    assert any(path.parent.name == "worker" for path in files)  # the worker's parts are among them
    long = {str(path.relative_to(ROOT)): n for path in files
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_JS_LINES}
    assert long == {}


#: Ways a script makes HTML of its own. Our scripts make none: a pane's HTML is its Python
#: renderer's (bpe.panes), which the worker sends and the page sets on the pane's model as it is.
HTML_SINKS = re.compile(r"\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML|document\.write|createContextualFragment"
                        r"|DOMParser|srcdoc|setHTMLUnsafe|parseHTMLUnsafe")
#: The lines that write HTML, each exactly: the still page (still_page.js) parses the page's own
#: HTML, recorded at build time (still.py), once; and it sets each answer's pane HTML (Python's,
#: as the worker sent it, `view.panes`) on its copy of the pane, as the page sets it on the pane's
#: model once Bokeh has drawn.
HTML_WRITTEN = {
    "site/bpe_build/still_page.js": [
        'shadow.setHTMLUnsafe(data.head.map((text) => style(text)).join("") + html);',
        "if (box && set[name] !== html) box.innerHTML = set[name] = html;",
    ],
}


def test_no_script_of_ours_writes_html():
    files = our_javascript()
    assert any(path.name == "adopt.js" for path in files) and any(path.name == "first_screen.js" for path in files)
    written = {}
    for path in files:
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if HTML_SINKS.search(line)]
        if lines:
            written[str(path.relative_to(ROOT))] = lines
    assert written == HTML_WRITTEN
    still = (ROOT / "site/bpe_build/still_page.js").read_text(encoding="utf-8")
    assert "for (const [name, html] of Object.entries(view.panes)) {" in still  # the panes' HTML: the worker's


#: The modules that bind another by name at call time, and the names they bind: the lazy public
#: names (relative), the formats a `Format` option loads, the notebook's drawing of the core's
#: objects, and the live views in a notebook or on a server (bpe_app.notebook, bpe_app.server). Any other such binding would hide an import from the
#: layers above, so it is listed here on purpose or not made at all.
LATE_BINDINGS = {
    "bpe": {".{...}"},
    "bpe.options": {".formats.{...}"},
    "bpe.display": {"bpe.panes.notebook"},
    "bpe.views": {"bpe_app.notebook", "bpe_app.server"},
}


def late_bindings(path: Path) -> set[str]:
    """The names `importlib.import_module` is given in a module (an f-string's fields as {...})."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__"):
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant):
                found.add(arg.value)
            elif isinstance(arg, ast.JoinedStr):
                found.add("".join(part.value if isinstance(part, ast.Constant) else "{...}" for part in arg.values))
            else:
                found.add("?")
    return found


def test_modules_are_bound_by_name_only_where_listed():
    bound = {name: names for name, path in MODULES.items() if (names := late_bindings(path))}
    assert {name: names for name, names in bound.items() if not name.startswith("bpe_build")} == LATE_BINDINGS
