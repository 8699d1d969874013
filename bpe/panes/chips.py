"""Token chips: one small coloured box per token, as HTML.

The same id gets the same colour in every row and round; whitespace is drawn as a visible
mark; bytes that are not a whole UTF-8 character are shown as hex. All text is escaped.

>>> label_html(b"walk ") + " " + label_html(b"\\xe3\\x81")
'walk<span class="bpe-ws">␣</span> <span class="bpe-hex">e3 81</span>'
>>> token_chip(257, b"<b>", new=True)
'<span class="bpe-chip bpe-new" data-id="257" title="257: &quot;&lt;b&gt;&quot;" style="--h:60" role="button" tabindex="0">&lt;b&gt;</span>'

A chip opens the token inspector when clicked, or focused and Enter pressed (see `token_clicks`):
`data-id` is its id, `data-vocab` names a real tokenizer's vocabulary (none: this tokenizer's).
"""
from __future__ import annotations

import functools
import html

#: Marks that make whitespace visible, as the explainers draw it.
WHITESPACE_MARKS = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}
#: The golden angle: consecutive ids get hues far apart, so neighbouring new tokens differ.
HUE_STEP = 137.508
_TITLE_ESCAPES = str.maketrans({"\n": "\\n", "\t": "\\t", "\r": "\\r"})


def hue(token_id: int) -> int:
    """The chip colour's hue (0-359) for a token id."""
    return round(token_id * HUE_STEP) % 360


def _mark(char: str) -> str | None:
    """The visible mark standing for an invisible character, or None if it shows as itself."""
    if char in WHITESPACE_MARKS:
        return WHITESPACE_MARKS[char]
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ ␁ ...
    if code == 0x7F:
        return "␡"
    if char.isspace():
        return "⍽"
    return None


def label_html(token: bytes) -> str:
    """A token's text as safe HTML: whitespace as marks, broken UTF-8 as hex bytes."""
    return _text_html(token.decode("utf-8", "surrogateescape"))


def _text_html(text: str) -> str:
    """Text as safe HTML, with lone surrogates U+DC80-U+DCFF (from `surrogateescape`) as hex bytes."""
    parts, hex_run = [], []
    for char in text:
        if 0xDC80 <= ord(char) <= 0xDCFF:  # a byte that is not part of a whole character
            hex_run.append(f"{ord(char) - 0xDC00:02x}")
            continue
        if hex_run:
            parts.append(f'<span class="bpe-hex">{" ".join(hex_run)}</span>')
            hex_run = []
        mark = _mark(char)
        parts.append(html.escape(char) if mark is None else f'<span class="bpe-ws">{mark}</span>')
    if hex_run:
        parts.append(f'<span class="bpe-hex">{" ".join(hex_run)}</span>')
    return "".join(parts)


@functools.lru_cache(maxsize=8192)
def token_chip(token_id: int, token: bytes, new: bool = False, vocab: str = "", focusable: bool = True,
               part: str = "") -> str:
    """One token as a chip; `new` marks a token the selected round's merge just made, and `part`
    ("l" or "r") the left or right token of a pair the next round's merge joins.

    `focusable` chips are buttons in the tab order. The corpus's thousands are not: its rows
    are one stop, and the arrow keys move between their chips."""
    title = html.escape(f'{token_id}: "{token.decode("utf-8", "backslashreplace").translate(_TITLE_ESCAPES)}"')
    classes = ("bpe-chip bpe-new" if new else "bpe-chip") + (f" bpe-part-{part}" if part else "")
    where = f' data-vocab="{html.escape(vocab)}"' if vocab else ""
    button = ' role="button" tabindex="0"' if focusable else ""
    return (f'<span class="{classes}" data-id="{token_id}"{where} title="{title}" style="--h:{hue(token_id)}"{button}>'
            f"{label_html(token)}</span>")


def special_chip(token_id: int, name: str, what: str = "a special token") -> str:
    """A special token (a chat template's, or one typed in a text): a chip of its own kind, never
    coloured like text."""
    title = html.escape(f"{token_id}: {name}, {what}")
    return f'<span class="bpe-chip bpe-special" data-id="{token_id}" title="{title}">{html.escape(name)}</span>'


def unknown_chip(char: str) -> str:
    """A character outside a `chars` alphabet: it has no id."""
    title = html.escape(f'unknown: "{char}" is not in the alphabet')
    return f'<span class="bpe-chip bpe-unknown" data-id="unknown" title="{title}">{_text_html(char)}</span>'


def chips_html(ids: list[int], vocab: list[bytes], new_id: int | None = None, focusable: bool = True,
               vocab_name: str = "", parts: dict[int, str] | None = None) -> str:
    """A run of chips for token ids; chips of `new_id` are highlighted, and `parts` marks positions
    as the left ("l") or right ("r") token of a pair (see `token_chip`)."""
    parts = parts or {}
    return "".join(token_chip(i, vocab[i], i == new_id, vocab_name, focusable, parts.get(k, ""))
                   for k, i in enumerate(ids))


def pair_positions(ids: list[int], left: int, right: int) -> dict[int, str]:
    """Where a left-to-right pass would join `left` and `right`: {position: "l" or "r"}.

    >>> pair_positions([1, 1, 1, 2, 1, 1], 1, 1)
    {0: 'l', 1: 'r', 4: 'l', 5: 'r'}
    """
    found, k = {}, 0
    while k < len(ids) - 1:
        if ids[k] == left and ids[k + 1] == right:
            found[k], found[k + 1] = "l", "r"
            k += 2
        else:
            k += 1
    return found


def grouped_chips(chips: list[str], tokens: list[bytes]) -> str:
    """Chips in a row, the chips of a character split across tokens boxed together under that character.

    A token of a byte-level vocabulary can hold part of a character (one of 東's three bytes, say);
    the box shows which character its bytes belong to, as tiktokenizer groups a split grapheme.

    >>> grouped_chips(["A", "B", "C"], [b"x", "東".encode()[:2], "東".encode()[2:]])
    'A<span class="bpe-split" title="東: 3 bytes over 2 tokens"><span class="bpe-split-chips">BC</span><span class="bpe-split-char">東</span></span>'
    """
    out, group, held = [], [], b""
    for chip, token in zip(chips, tokens):
        group.append(chip)
        held += token
        try:
            whole = held.decode("utf-8")
        except UnicodeDecodeError:
            continue  # the group ends inside a character: the next token holds the rest
        if len(group) > 1:
            title = html.escape(f"{whole}: {len(held)} bytes over {len(group)} tokens")
            out.append(f'<span class="bpe-split" title="{title}"><span class="bpe-split-chips">{"".join(group)}</span>'
                       f'<span class="bpe-split-char">{_text_html(whole)}</span></span>')
        else:
            out.append(group[0])
        group, held = [], b""
    return "".join(out) + "".join(group)
