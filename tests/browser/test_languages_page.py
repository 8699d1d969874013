"""Cost across languages in the built site: the passage in seven languages, counted by the
tokenizer trained here and by the real one chosen, the figures those tokenizers give."""
from __future__ import annotations

from playwright.sync_api import expect

import bpe
from bpe import real
from bpe.explain import languages
from bpe.presets import PRESETS
from bpe_app.state import COMPARISONS
from test_accessibility import violations

LABEL = next(label for label, name in COMPARISONS.items() if name == "o200k_base")


def test_each_language_is_counted_by_every_chosen_tokenizer(app):
    app.url += "?preset=english-japanese&round=200"
    app.open()
    page = app.page
    page.locator(".compare-select select").first.select_option(label=LABEL)
    table = page.locator(".bpe-languages table").first
    expect(table).to_contain_text(LABEL, timeout=60_000)
    preset = PRESETS["english-japanese"]
    ours = bpe.train(preset.documents, preset.settings).tokenizer
    o200k = real.load("o200k_base")
    for code, text in languages.passages().items():
        row = table.locator("tr").filter(has_text=languages.LANGUAGES[code]).first
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == f"{len(text):,}"
        assert cells[1] == f"{len(ours.encode(text, rounds=200)):,}", code
        assert cells[4] == f"{len(o200k.encode_ordinary(text)):,}", code
    assert violations(page) == []
    assert not app.errors, app.errors
