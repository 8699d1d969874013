"""The decode box's HTML: ids back to chips and text, with whichever tokenizer is selected.

That is the real tokenizer the encoder compares with, once loaded, or else this tokenizer as it
stands after the selected round (ids of merges not made yet are out of range). A character cut
between the ids shows as its bytes in hex.

>>> import bpe
>>> from bpe.presets import PRESETS
>>> explainer = bpe.train(PRESETS["explainer"].documents, PRESETS["explainer"].settings)
>>> html_text = decode_html(explainer, 6, "[16]", None)
>>> 'data-id="16"' in html_text and "walk" in html_text
True
"""
from __future__ import annotations

import html

from ..trainers.training import Training
from .. import real
from ..encoding.decoding import IdsError, read_ids

from .chips import grouped_chips, label_html, token_chip
from .wording import plural


def decoder(training: Training, rounds: int, reference: real.Encoding | None):
    """(label, vocabulary name for chips, number of ids, token bytes by id, text bytes of ids)."""
    if reference is not None:
        label = getattr(reference, "label", "") or real.LABELS.get(reference.name, reference.name)
        return label, reference.name, reference.n_vocab, reference.token_bytes, reference.decode_bytes
    tokenizer = training.tokenizer
    size = tokenizer.first_merge_id + min(rounds, len(training.merges))
    return (f"this tokenizer after round {rounds}", "", size, tokenizer.vocab.__getitem__, tokenizer.decode_bytes)


def decode_html(training: Training, rounds: int, ids_text: str, reference: real.Encoding | None) -> str:
    """The chips and the text of `ids_text`; raises IdsError (one sentence) when it is not ids of this decoder."""
    label, vocab, size, token_bytes, text_bytes = decoder(training, rounds, reference)

    def known(i: int) -> bool:
        try:
            token_bytes(i)
            return True
        except (ValueError, IndexError):
            return False

    ids = read_ids(ids_text, size, known)
    if not ids:
        return f'<div class="bpe-note">Type ids to decode them with {html.escape(label)}.</div>'
    tokens = [token_bytes(i) for i in ids]
    chips = grouped_chips([token_chip(i, token, vocab=vocab) for i, token in zip(ids, tokens)], tokens)
    text = text_bytes(ids)
    try:
        text.decode("utf-8")
        cut = ""
    except UnicodeDecodeError:
        cut = ' · <span class="bpe-muted">bytes that are not a whole character are shown in hex</span>'
    return (f'<div class="bpe-note">Decoded with {html.escape(label)}: {plural(len(ids), "id")}, '
            f'{plural(len(text), "byte")}{cut}</div>'
            f'<div class="bpe-encoded bpe-decoded">{chips}</div>'
            f'<div class="bpe-note">text <span class="bpe-text bpe-decoded-text">{label_html(text)}</span></div>')
