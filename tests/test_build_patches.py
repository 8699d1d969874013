"""build.py's patches to Panel that skip markdown-it and bleach for plain text give what those would."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

bleach = pytest.importorskip("bleach")
markup = pytest.importorskip("panel.pane.markup")


@pytest.fixture(scope="module")
def build():
    from bpe_build import patches

    return patches


@pytest.fixture(scope="module")
def plain_paragraph(build):
    namespace: dict = {}
    exec(build.PLAIN_PARAGRAPH, namespace)
    return namespace["_plain_paragraph"]


PIECES = ["a", "http", "www", "com", "org", "io", "mailto", "ftp", "GPT", "x", "e", "g", "uk", "MB", "256", "1", "2",
          "0", "1.0", "`", "`code`", "`a_b`", "--", "-", ".", ":", "'", "(", ")", ",", ";", "/", "_", " ", "  ", "#", "*", "<", "&"]


def samples(count: int = 20_000):
    rnd = random.Random(7)
    for _ in range(count):
        yield "".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 12)))


def test_plain_paragraph_is_what_markdown_it_renders(plain_paragraph):
    parser = markup.Markdown._get_parser("markdown-it", (), markup.Markdown.hard_line_break)
    fast = [text for text in samples(40_000) if plain_paragraph(text) is not None]
    assert len(fast) > 1000 and sum("<code>" in plain_paragraph(text) for text in fast) > 100
    for text in fast + ["Merges or vocabulary size, as `budget` says."]:
        assert plain_paragraph(text) == parser.render(text), text


def test_plain_text_is_what_bleach_returns(build):
    cleaner = bleach.sanitizer.Cleaner(strip=True)  # panel.util.HTML_SANITIZER's
    fast = [text for text in samples() if re.fullmatch(build.SANITIZER_PLAIN, text)]
    assert len(fast) > 1000
    for text in fast + ["start", "auto", "fixed", "AddressBar01234", "stretch_width"]:
        assert cleaner.clean(text) == text, text


def test_the_apps_descriptions_skip_markdown_it(plain_paragraph):
    from bpe_app.settings_view import DESCRIBED, help_text
    from bpe_app.state import AppState
    from bpe_app.state.documents import MAX_CORPUS_BYTES, megabytes

    corpus = f"Edit freely, then click outside the box to retrain. At most {megabytes(MAX_CORPUS_BYTES)}."
    docs = [AppState.param[name].doc for name in ("alphabet", "pretokenizer", "tie", "specials", "min_frequency",
                                                   "budget_size")]
    for text in [*map(help_text, DESCRIBED), corpus, *docs]:  # a widget from_param has its doc
        assert plain_paragraph(text) is not None, text


def test_patches_apply_to_the_installed_panel(build):
    import panel
    root = Path(panel.__file__).parents[1]
    for name, patches in build.PANEL_PATCHES.items():
        text = (root / name).read_text()
        for old, new in patches:
            assert old in text, (name, old)
            text = text.replace(old, new, 1)
        compile(text, name, "exec")
