#!/usr/bin/env python3
"""Make bpe/corpora/what-is-debian.<lang>.txt: one passage in seven languages and six scripts, for
the page's "cost across languages" view.

    python3 benchmarks/language_passages.py     # apt-get download installation-guide-amd64 (root or a working apt)

The passage is the first paragraph of section 1.1, "What is Debian?", of the Debian Installation
Guide for amd64 (Debian package installation-guide-amd64, which ships every translation in one
package), taken from each language's ch01s01.html as text, whitespace runs made single spaces.
"""
from __future__ import annotations

import html.parser
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.debian_docs import unpack  # noqa: E402

PACKAGE = "installation-guide-amd64"
#: Language code in the guide -> what the page calls it (its script in brackets).
LANGUAGES = {"en": "English (Latin)", "ja": "Japanese (kana and kanji)", "zh_CN": "Chinese (Han)",
             "ko": "Korean (Hangul)", "ru": "Russian (Cyrillic)", "el": "Greek (Greek)",
             "vi": "Vietnamese (Latin with diacritics)"}
HEADER = ("#: The Debian Installation Guide (Debian package installation-guide-amd64, version {version}), section 1.1,\n"
          "#: \"What is Debian?\", first paragraph ({lang}/ch01s01.html), whitespace runs made single spaces.\n"
          "#: Copyright 1996 Bruce Perens; 1996, 1997 Sven Rudolph; 1998 Igor Grobman, James Treacy; 1998-2002 Adam\n"
          "#: Di Carlo; 2003 Chris Tillman; 2004-2023 the Debian Installer team and other contributors; GPL-2.\n")


class _FirstParagraph(html.parser.HTMLParser):
    """The text of the first <p> inside the page's section."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth, self.parts, self.done = 0, [], False

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "p" and not self.done:
            self.depth += 1

    def handle_endtag(self, tag) -> None:
        if tag == "p" and self.depth:
            self.depth -= 1
            self.done = self.done or (self.depth == 0 and bool("".join(self.parts).strip()))

    def handle_data(self, data) -> None:
        if self.depth and not self.done:
            self.parts.append(data)


def passage(page: str) -> str:
    parser = _FirstParagraph()
    parser.feed(page)
    return re.sub(r"\s+", " ", "".join(parser.parts)).strip()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        deb = unpack([PACKAGE], work)[0]
        version = deb.name.split("_")[1]
        guide = work / "x" / "usr" / "share" / "doc" / PACKAGE
        write(guide, version)


def write(guide: Path, version: str) -> None:
    for lang in LANGUAGES:
        text = passage((guide / lang / "ch01s01.html").read_text(encoding="utf-8"))
        out = ROOT / "bpe" / "corpora" / f"what-is-debian.{lang}.txt"
        out.write_text(HEADER.format(version=version, lang=lang) + text + "\n", encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {len(text)} characters")


if __name__ == "__main__":
    main()
