"""Small source patches to Panel, each checked to apply exactly, and what they rely on."""
from __future__ import annotations


# What markdown-it renders for one line of words, plain punctuation and `code` spans with nothing
# linkify would take for a link, and plain text bleach returns unchanged: tests/test_build_patches.py
# checks both against markdown-it and bleach themselves.
PLAIN_PARAGRAPH = '''
def _plain_paragraph(text):
    """What markdown-it renders for `text` if it is one line of plain words (else None), without importing it."""
    import re
    words = re.sub(r"`[A-Za-z0-9_]+`", "", text)
    if (re.fullmatch(r"[A-Za-z][A-Za-z0-9 ,.:;'()-]*", words) is None or text.endswith(" ")
            or re.search(r"[A-Za-z0-9][.:][A-Za-z]|``", text) is not None):
        return None
    return "<p>" + re.sub(r"`([A-Za-z0-9_]+)`", r"<code>\\1</code>", text) + "</p>\\n"
'''
SANITIZER_PLAIN = r"[A-Za-z0-9_ .,:;/-]*"
# Small source patches to Panel, each checked to apply exactly.
PANEL_PATCHES = {
    # Panel's own CSS/JS addresses: honour PANEL_CDN_ROOT (the worker points it at dist/static/panel/).
    "panel/io/resources.py": [(
        'CDN_ROOT = "https://cdn.holoviz.org/panel/"',
        'CDN_ROOT = os.environ.get("PANEL_CDN_ROOT") or "https://cdn.holoviz.org/panel/"',
    )],
    # Without pyodide_http, panel.io.pyodide imports pandas only to patch pandas.read_csv for URLs;
    # do that only when pandas is there, so a widgets app need not ship or import pandas.
    "panel/io/pyodide.py": [(
        "if pyodide_http is None:\n    import pandas\n",
        "if pyodide_http is None and __import__('importlib.util').util.find_spec('pandas') is not None:\n"
        "    import pandas\n",
    )],
    # A widget's description is rendered with markdown-it, and ReactiveHTML passes every string
    # parameter (name, align, ...) through bleach: importing both (with html5lib) costs start-up time
    # although neither changes plain text. Plain text skips them and gets what they would give.
    "panel/widgets/base.py": [
        ("from ..viewable import Layoutable, Viewable\n",
         "from ..viewable import Layoutable, Viewable\n\n" + PLAIN_PARAGRAPH),
        ("                from ..pane.markup import Markdown\n"
         "                parser = Markdown._get_parser('markdown-it', (), Markdown.hard_line_break, **renderer_options)\n"
         "                html = parser.render(description)\n",
         "                html = None if renderer_options else _plain_paragraph(description)\n"
         "                if html is None:\n"
         "                    from ..pane.markup import Markdown\n"
         "                    parser = Markdown._get_parser('markdown-it', (), Markdown.hard_line_break, **renderer_options)\n"
         "                    html = parser.render(description)\n"),
    ],
    # panel/__init__ imports panel.chat (a tenth of `import panel` here, measured with
    # benchmarks/import_profile.js), which this site never uses: imported when first asked for.
    "panel/__init__.py": [(
        "from . import chat  # isort:skip noqa has to be after widgets\n",
        "def __getattr__(name):  # bpe's build: panel.chat on first use (PEP 562)\n"
        "    if name == 'chat':\n"
        "        import importlib\n"
        "        return importlib.import_module('.chat', __name__)\n"
        "    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')\n",
    )],
    "panel/util/__init__.py": [(
        "    def clean(self, text):\n"
        "        if self._cleaner is None:\n",
        "    def clean(self, text):\n"
        f"        if isinstance(text, str) and re.fullmatch(r'{SANITIZER_PLAIN}', text):\n"
        "            return text  # nothing bleach would change\n"
        "        if self._cleaner is None:\n",
    )],
}
