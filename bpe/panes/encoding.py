"""The encoder's HTML: a text's chips, its ids and its counts, as the tokenizer stands after a round.

>>> import bpe
>>> from bpe.presets import PRESETS
>>> explainer = bpe.train(PRESETS["explainer"].documents, PRESETS["explainer"].settings)
>>> 'data-id="16"' in encoding_html(explainer, "walkable", 6)  # walk, the third merge
True
"""
from __future__ import annotations

import html

from ..encoding.specials import find_special
from ..trainers.training import Training
from .chips import grouped_chips, special_chip, token_chip, unknown_chip
from .wording import plural

#: (button label, text): each shows one thing the explainers point at.
EXAMPLES = (
    ("walkable", "walkable"),
    ("stalking", "stalking"),
    ("strawberry", "strawberry"),
    ("2023 and 2024", "in 2023 and 2024"),  # a year is one token with its leading space (numbers)
    ("walk vs ␣walk", "walk walk"),  # the first has no leading space, the second has one
    ("emoji", "I ❤️ 🍣"),
    ("Japanese", "東京は日本の首都です。"),
)
#: Ids listed under the chips; a pasted page would otherwise list thousands.
ID_LIMIT = 200


def encoding_html(training: Training, text: str, rounds: int, vocab_name: str = "", specials: bool = False) -> str:
    """The text's chips, its ids, and how many characters, bytes and tokens it takes (B's chips: `vocab_name` "b").
    With `specials`, a special token's text (octlm's `<|eos|>`) is that special, a chip of its own
    kind; without, it is plain text, as octlm encodes it, and a line says so."""
    tokenizer = training.tokenizer
    try:
        pieces = tokenizer.pieces(text, rounds=rounds, **_allowed(specials))
    except ValueError as error:  # a lone surrogate, which UTF-8 cannot encode
        return f'<div class="bpe-encoded"></div><div class="bpe-note">{html.escape(str(error))}</div>'
    named = tokenizer.specials if specials else {}
    chips = [unknown_chip(piece) if i is None else special_chip(i, named[i], TYPED) if i in named
             else token_chip(i, tokenizer.vocab[i], vocab=vocab_name) for i, piece in pieces]
    note = specials_note(tokenizer.special_tokens, text, specials)
    if tokenizer.alphabet.byte_level:  # only bytes can split a character
        return note + tokens_html(grouped_chips(chips, [tokenizer.vocab[i] for i, _ in pieces]), [i for i, _ in pieces], text)
    return note + tokens_html("".join(chips), [i for i, _ in pieces], text)


#: What a special token's chip says it is, when it was written in the text.
TYPED = "a special token written in the text"


def _allowed(specials: bool) -> dict:
    """`encode`'s arguments for the "special tokens in text" toggle: on, every special's text is its
    id; off, none is looked for (`encode_ordinary`)."""
    return {"allowed_special": "all"} if specials else {}


def specials_note(special_tokens: dict[str, int], text: str, specials: bool) -> str:
    """One line when the text holds a special token's text that is encoded as plain text.

    >>> "&#x27;&lt;|eos|&gt;&#x27; at character 2: it is encoded as plain text." in specials_note({"<|eos|>": 258}, "a <|eos|>", False)
    True
    >>> specials_note({"<|eos|>": 258}, "a <|eos|>", True), specials_note({"<|eos|>": 258}, "a", False)
    ('', '')
    """
    found = None if specials else find_special(text, special_tokens)
    if not found:
        return ""
    token, offset = found
    return (f'<div class="bpe-note bpe-specials-note">The text holds the special token {html.escape(repr(token))} '
            f'at character {offset:,}: it is encoded as plain text. Turn on "special tokens in text" to encode '
            f"it as its id.</div>")


def tokens_html(chips: str, ids: list[int | None], text: str) -> str:
    """Chips of an encoded text, then its ids (None for an unknown character), then its counts."""
    listed = " ".join("?" if i is None else str(i) for i in ids[:ID_LIMIT])
    more = f" … ({len(ids) - ID_LIMIT} more)" if len(ids) > ID_LIMIT else ""
    size = len(text.encode("utf-8", "surrogatepass"))
    counts = f"{plural(len(text), 'character')} · {plural(size, 'byte')} · <b>{plural(len(ids), 'token')}</b>"
    return (f'<div class="bpe-encoded">{chips}</div><div class="bpe-ids">ids: [{listed}{more}]</div>'
            f'<div class="bpe-note">{counts}</div>')


def counts_table(rows: list[tuple], characters: int) -> str:
    """(tokenizer, tokens or None, vocabulary size[, (model, context window)]) rows, with characters
    per token and, for a real tokenizer, the text's share of its model's context window.

    >>> "1.22% of GPT-4's 8,192" in counts_table([("GPT-4's cl100k_base", 100, 100277, ("GPT-4", 8192))], 400)
    True
    """
    body, windows = [], any(len(row) > 3 for row in rows)
    for label, tokens, vocabulary, *context in rows:
        count = "–" if tokens is None else f"{tokens:,}"
        per_token = f"{characters / tokens:.2f}" if tokens else "–"
        share = ""
        if windows:
            share = (f'<td class="bpe-num">{share_of(tokens or 0, *context[0])}</td>' if context
                     else '<td class="bpe-num">–</td>')
        body.append(f'<tr><td>{html.escape(label)}</td><td class="bpe-num">{count}</td>'
                    f'<td class="bpe-num">{per_token}</td><td class="bpe-num">{vocabulary:,}</td>{share}</tr>')
    window_head = "<th>context window used</th>" if windows else ""
    return ('<table class="bpe-counts"><thead><tr><th>tokenizer</th><th>tokens</th><th>characters per token</th>'
            f'<th>vocabulary</th>{window_head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def share_of(tokens: int, model: str, window: int) -> str:
    """'1.22% of GPT-4's 8,192' (tokens as a share of a context window); above 100%, it says it does not fit."""
    share = tokens / window
    shown = f"{share:.2%}" if share >= 0.0001 or not tokens else "<0.01%"
    return html.escape(f"{shown} of {model}'s {window:,}" + (" (does not fit)" if share > 1 else ""), quote=False)


def side_rows(training: Training, rounds: int, text: str, training_b: Training | None = None,
              specials: bool = False) -> list:
    """counts_table rows for this tokenizer (A when there is a B) and B, each after the selected round."""
    sides = [("this tokenizer" if training_b is None else "A", training, rounds)]
    if training_b is not None:
        sides.append(("B", training_b, min(rounds, len(training_b.merges))))
    rows = []
    for label, side, k in sides:
        try:
            tokens = len(side.tokenizer.encode(text, rounds=k, **_allowed(specials)) if specials
                         else side.tokenizer.encode_ordinary(text, rounds=k))
        except ValueError:  # a lone surrogate, which UTF-8 cannot encode
            tokens = None
        rows.append((f"{label} after round {k}", tokens, side.vocab_size(k)))
    return rows


def b_encoding_html(training: Training, training_b: Training | None, text: str, rounds: int,
                    specials: bool = False) -> str:
    """The text as B cuts it, and A's and B's token counts side by side ("" with no B)."""
    if training_b is None:
        return ""
    k = min(rounds, len(training_b.merges))
    counts = counts_table(side_rows(training, rounds, text, training_b, specials), len(text))
    return (f'<div class="bpe-encoded-b"><div class="bpe-heading">B, after round {k}</div>'
            f"{encoding_html(training_b, text, k, 'b', specials)}{counts}</div>")
