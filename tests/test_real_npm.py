"""Every shipped real tokenizer gives the ids its own npm package gives, computed at test time
under Node (tests/real_ids.js): js-tiktoken for OpenAI's tables, @anthropic-ai/tokenizer for
Claude's. The packages are the pinned ones (site/bpe_build/pins.json), fetched as the build does."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bpe import real

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "site"))

#: Held out from every training here: English, Japanese, code, digits, emoji, odd whitespace.
TEXTS = [
    (ROOT / "tests" / "data" / "heldout.txt").read_text(encoding="utf-8"),
    "Hello 世界! def f(x):\n\treturn x**2  # 2024-12-01, 1,234,567.89 🍣🍣👍🏽 東京は日本の首都です。  don't WE'LL\r\n\n   ",
    "ﬁne Ⅻ ｶﾀｶﾅ ①②  ²³ — café naïve",  # NFKC changes all of these (the Claude tokenizer applies it)
]


#: The tokenizers published on npm, which tests/real_ids.js runs (the others are tested against
#: their PyPI packages, tests/test_real_packages.py).
NPM = ("cl100k_base", "o200k_base", "r50k_base", "p50k_base", "claude_legacy")


def ids_from_node(names: list[str], text: str) -> dict[str, list[int]]:
    from bpe_build.fetch import node_modules
    from bpe_build.installs import REAL_IDS_PACKAGES

    folder = node_modules(list(REAL_IDS_PACKAGES))
    done = subprocess.run(["node", str(ROOT / "tests" / "real_ids.js")], input=json.dumps({"text": text, "names": names}),
                          capture_output=True, text=True, env={**os.environ, "NODE_PATH": str(folder)}, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the npm packages")
@pytest.mark.parametrize("text", TEXTS, ids=["heldout.txt", "mixed", "NFKC"])
def test_each_tokenizer_gives_its_packages_ids(text):
    expected = ids_from_node(list(NPM), text)
    for name in NPM:
        assert real.load(name).encode_ordinary(text) == expected[name], name


def test_the_new_tables_are_the_pinned_ones():
    for name in ("r50k_base", "p50k_base", "claude_legacy"):
        encoding = real.load(name, check=True)
        assert len(encoding.ranks) == real.SPECS[name]["n_ranks"]
    assert real.load("p50k_base").token_bytes(50256) == b"<|endoftext|>"  # a special inside the ids
    assert real.load("claude_legacy").decode([10002]) == "Hello"
