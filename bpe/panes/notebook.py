"""The core's objects as a notebook cell's output (`_repr_html_`, see `bpe.display`), drawn with
the page's own pane functions and its stylesheet, scoped to the output's box. No Panel: for the
live views (scrubbing, the inspector), `bpe.show`.

>>> import bpe
>>> t = bpe.train(["walk walked walking"] * 4, bpe.Settings(pretokenizer="words", merges=6))
>>> page = html(t)
>>> page.startswith('<div class="bpe-shown">'), "bpe-corpus-summary" in page, "Merge list" in page
(True, True, True)
>>> 'data-id="258"' in html(t.tokenizer.encode_pieces("walking"))
True
"""
from __future__ import annotations

import functools
import html as markup

from ..encoding.pieces import Pieces
from ..encoding.tokenizer import Tokenizer
from ..real.encoding import Encoding
from ..trainers.training import Training
from .chart import merges_html
from .chips import grouped_chips, special_chip, token_chip, unknown_chip
from .corpus import corpus_html
from .encoding import tokens_html
from .style import scoped
from .wording import plural

#: The box every output is drawn in: the stylesheet's `:host`.
BOX = "bpe-shown"
#: The merges a tokenizer's output lists, its first ones.
FIRST_MERGES = 12


def html(obj) -> str:
    """`obj` as HTML for a notebook cell: a Training, a Tokenizer, a real tokenizer or a text's pieces."""
    for kind, render in ((Training, training_html), (Pieces, pieces_html), (Tokenizer, tokenizer_html),
                         (Encoding, encoding_html)):
        if isinstance(obj, kind):
            return boxed(render(obj))
    return boxed(f"<pre>{markup.escape(repr(obj))}</pre>")


def boxed(body: str) -> str:
    return f'<div class="{BOX}"><style>{_style()}</style>{body}</div>'


@functools.cache
def _style() -> str:
    return scoped(f".{BOX}")


def training_html(training: Training) -> str:
    """Its settings and why it stopped, the corpus as it stands after the last merge, and the merge list."""
    last, settings = len(training.merges), training.settings
    chosen = " · ".join(f"{name} {getattr(settings, name)}" for name in ("alphabet", "pretokenizer", "tie", "specials"))
    head = (f'<div class="bpe-heading">bpe.Training: {plural(last, "merge")} ({markup.escape(chosen)}, minimum count '
            f'{settings.min_frequency}); stopped: {markup.escape(training.stopped)}</div>')
    hint = '<div class="bpe-note">bpe.show(training) scrubs through the rounds, live.</div>'
    return head + corpus_html(training, last) + merges_html(training, last) + hint


def pieces_html(pieces: Pieces) -> str:
    """A text's chips (a character split over several tokens boxed), its ids and its counts."""
    chips = [unknown_chip(piece.token.decode("utf-8", "surrogatepass")) if piece.id is None
             else special_chip(piece.id, piece.token.decode("utf-8", "replace"), "a special token written in the text")
             if piece.special else token_chip(piece.id, piece.token, vocab=pieces.vocabulary) for piece in pieces]
    return tokens_html(grouped_chips(chips, [piece.token for piece in pieces]), pieces.ids, pieces.text)


def tokenizer_html(tokenizer: Tokenizer) -> str:
    """Its vocabulary in parts (alphabet, specials, merges) and its first merges."""
    settings, merges, vocab = tokenizer.settings, tokenizer.merges, tokenizer.vocab
    base = tokenizer.first_merge_id - len(tokenizer.specials)
    unit = "bytes" if settings.alphabet_kind.byte_level else "characters"
    specials = "".join(special_chip(i, name) for i, name in tokenizer.specials.items())
    rows = "".join(f"<li>{token_chip(left, vocab[left])} + {token_chip(right, vocab[right])} → "
                   f"{token_chip(tokenizer.first_merge_id + rank, vocab[tokenizer.first_merge_id + rank])}</li>"
                   for rank, (left, right) in enumerate(merges[:FIRST_MERGES]))
    more = f'<div class="bpe-more">… and {plural(len(merges) - FIRST_MERGES, "more merge")}</div>' if len(merges) > FIRST_MERGES else ""
    return (f'<div class="bpe-heading">bpe.Tokenizer: vocabulary {len(vocab):,} = {base:,} {unit} + '
            f'{plural(len(tokenizer.specials), "special")} + {plural(len(merges), "merge")} '
            f'(pre-tokenizer {markup.escape(settings.pretokenizer)})</div>'
            + (f'<div class="bpe-encoded">{specials}</div>' if specials else "")
            + f'<ol class="bpe-note">{rows}</ol>{more}')


def encoding_html(encoding: Encoding) -> str:
    """A real tokenizer: its name, vocabulary, specials and the chips of a sample text."""
    label = getattr(encoding, "label", "") or encoding.name
    sample = encoding.encode_pieces("Hello world! 日本語 2024", disallowed_special=())
    return (f'<div class="bpe-heading">{markup.escape(label)}: vocabulary {encoding.n_vocab:,}, '
            f'{plural(len(encoding.special_tokens), "special token")}</div>{pieces_html(sample)}')
