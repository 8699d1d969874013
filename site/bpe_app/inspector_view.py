"""The token inspector: what a token is, where it came from (its merge tree), and how often it occurs.

It opens on a click on any chip (see `token_clicks`) and floats over the page's corner, so the
chip clicked stays in view; on a phone it is a sheet along the bottom.
"""
from __future__ import annotations

import html
from collections.abc import Callable

import panel as pn

import bpe
from bpe import real
from bpe.explain.tree import Node, merge_tree, real_parents
from bpe.explain.vocabulary import occurrences
from bpe.real import sentencepiece
from bpe.real.imported import ImportedEncoding
from bpe.real.sentencepiece import SentencePieceBPE

from bpe.panes.chips import label_html, token_chip
from bpe.panes.wording import plural
from .styles import html_pane

#: Tree nodes drawn at most; a 100-byte token of a large vocabulary has 199.
NODE_LIMIT = 255


def inspector_html(training: bpe.Training, rounds: int, inspected: tuple[str, int] | None,
                   reference: real.Encoding | None, training_b: bpe.Training | None = None) -> str:
    """The inspector's card for the inspected token ("" while closed): A's, B's ("b") or a real tokenizer's."""
    if not inspected:
        return ""
    vocabulary, token_id = inspected
    if vocabulary == "b":
        if training_b is None or token_id >= len(training_b.vocab):
            return ""
        body = token_html(training_b, min(rounds, len(training_b.merges)), token_id, "b")
    elif vocabulary:
        if reference is None or reference.name != vocabulary:
            return ""
        body = real_token_html(reference, token_id)
    else:
        body = token_html(training, rounds, token_id)
    where = f' data-vocab="{html.escape(vocabulary)}"' if vocabulary else ""
    return (f'<div class="bpe-inspector" data-id="{token_id}"{where} tabindex="-1" role="dialog" '
            f'aria-label="token inspector">'
            '<button class="bpe-close" data-action="close" aria-label="close the inspector" title="close (Esc)">✕</button>'
            f"{body}</div>")


def describe_bytes(token: bytes) -> str:
    """The bytes in hex, and which parts of a character they hold when they are not whole UTF-8.

    >>> describe_bytes("日".encode()[:2])
    'e6 97 · not valid UTF-8 on its own: it ends inside a character (the first 2 of its 3 bytes)'
    >>> describe_bytes(b"ab")
    '61 62'
    """
    hex_bytes = " ".join(f"{b:02x}" for b in token)
    try:
        token.decode("utf-8")
        return hex_bytes
    except UnicodeDecodeError:
        pass
    notes = []
    inside = len(token) - len(token.lstrip(bytes(range(0x80, 0xC0))))
    if inside:
        notes.append(f"it starts inside a character ({plural(inside, 'continuation byte')})")
    lead = max((i for i, b in enumerate(token) if b >= 0xC0), default=None)
    if lead is not None:
        need, have = (2 if token[lead] < 0xE0 else 3 if token[lead] < 0xF0 else 4), len(token) - lead
        if have < need:
            notes.append(f"it ends inside a character (the first {have} of its {need} bytes)")
    return f"{hex_bytes} · not valid UTF-8 on its own: " + ("; ".join(notes) or "it holds a byte no character has")


def _head(chip: str, token: bytes, what: str) -> list[str]:
    characters = len(token.decode("utf-8", "ignore"))
    return [f'<div class="bpe-heading">{chip} <span class="bpe-muted">{what}</span></div>',
            f'<div class="bpe-note">text <span class="bpe-text">{label_html(token)}</span> · '
            f"{plural(len(token), 'byte')}, {plural(characters, 'whole character')}</div>",
            f'<div class="bpe-note">bytes <code>{html.escape(describe_bytes(token))}</code></div>']


def token_html(training: bpe.Training, rounds: int, token_id: int, vocab_name: str = "") -> str:
    """One of this tokenizer's tokens (B's, with `vocab_name` "b"): its text and bytes, its birth,
    its count now, its tree."""
    vocab, tokenizer = training.vocab, training.tokenizer
    token = vocab[token_id]
    rank = token_id - tokenizer.first_merge_id
    chip = lambda i: token_chip(i, vocab[i], vocab=vocab_name)  # noqa: E731
    what = f"B's id {token_id}" if vocab_name else f"id {token_id}"
    if token_id in tokenizer.specials:
        return "".join(_head(chip(token_id), token, what) + [
            '<div class="bpe-note">A special token: its id is reserved, and no merge makes or uses it.</div>'])
    if rank < 0:
        unit = f"byte 0x{token[0]:02x}" if training.alphabet.byte_level else f"character U+{ord(token.decode()):04X}"
        born = f'<div class="bpe-note">A base unit ({unit}): every text starts as these, before any merge.</div>'
        tree = ""
    else:
        merge = training.merges[rank]
        ties = f", tied with {plural(merge.ties - 1, 'other pair')}" if merge.ties > 1 else ""
        born = (f'<div class="bpe-note">Made in <b>round {merge.rank + 1}</b> from {chip(merge.left)} + '
                f"{chip(merge.right)}: its pair was counted {plural(merge.count, 'time')}{ties}, and "
                f"{plural(merge.replacements, 'place')} became {chip(token_id)}.</div>")
        tree = ('<div class="bpe-heading">Merge tree</div>'
                + tree_html(merge_tree(tokenizer.parents, token_id), chip,
                            lambda node: _round_label(node.id - tokenizer.first_merge_id, rounds)))
    return "".join(_head(chip(token_id), token, what) + [born, _now_html(training, rounds, token_id), tree])


def _round_label(rank: int, rounds: int) -> str:
    if rank < 0:
        return ""
    later = " bpe-later" if rank >= rounds else ""
    return f'<span class="bpe-muted{later}"> round {rank + 1}</span>'


def _now_html(training: bpe.Training, rounds: int, token_id: int) -> str:
    """How often the token occurs at the selected round, or when it will first exist."""
    rank = token_id - training.tokenizer.first_merge_id
    if rank >= rounds:
        return (f'<div class="bpe-note bpe-unborn">Not made yet at round {rounds}: round {rank + 1} makes it. '
                f'<button class="bpe-action" data-action="round" data-value="{rank + 1}">Go to round {rank + 1}</button>'
                "</div>")
    count = occurrences(training, rounds)[token_id]
    marked = " (outlined in the corpus rows)" if count else ""
    return f'<div class="bpe-note">At round {rounds} it occurs <b>{plural(count, "time")}</b> in the corpus{marked}.</div>'


def real_token_html(encoding: real.Encoding, rank: int) -> str:
    """A real tokenizer's token: its text and bytes, and its tree rebuilt from the ranks (or, for an
    uploaded file, its tree of merges)."""
    token = encoding.tokens[rank]
    chip = lambda i: token_chip(i, encoding.tokens[i], vocab=encoding.name)  # noqa: E731
    if isinstance(encoding, ImportedEncoding):
        return imported_token_html(encoding, rank, chip)
    if isinstance(encoding, SentencePieceBPE):
        return piece_html(encoding, rank, chip)
    tree = merge_tree(real_parents(encoding), rank)
    if tree.children:
        made = " + ".join(chip(child.id) for child in tree.children)
        born = (f'<div class="bpe-note">{html.escape(encoding.name)} ships ranks, not merges. Rebuilt from them: '
                f"with only the ranks below {rank - encoding.rank_offset:,}, tiktoken's rule joins {made}.</div>"
                '<div class="bpe-heading">Merge tree</div>'
                + tree_html(tree, chip, lambda node: f'<span class="bpe-muted"> rank {node.id:,}</span>'))
    else:
        born = '<div class="bpe-note">A single byte: every text starts as these.</div>'
    offset = encoding.rank_offset
    what = f"rank {rank:,}" if not offset else f"id {rank:,}, rank {rank - offset:,}" if rank >= offset else f"id {rank:,}"
    return "".join(_head(chip(rank), token, f"{html.escape(encoding.name)} {what}") + [born])


def imported_token_html(encoding: ImportedEncoding, token_id: int, chip: Callable[[int], str]) -> str:
    """A token of an uploaded tokenizer file, by the file's own id: its text and bytes, the merge
    that made it, its tree."""
    name, token = html.escape(encoding.label), encoding.tokens[token_id]
    tree = merge_tree(encoding.parents, token_id)
    rank = encoding.merge_rank(token_id)

    def label(node: Node) -> str:
        made = encoding.merge_rank(node.id)
        return "" if made is None else _merge_label(made)

    if tree.children and rank is not None:
        born = (f'<div class="bpe-note">Merge {rank + 1:,} of {name} joins '
                f'{" + ".join(chip(child.id) for child in tree.children)}.</div><div class="bpe-heading">Merge tree</div>'
                + tree_html(tree, chip, label))
    elif encoding.is_byte(token_id):
        born = '<div class="bpe-note">A single byte: every text starts as these.</div>'
    elif encoding.is_added(token_id):
        born = (f'<div class="bpe-note">An added token: {name} gives it this id, and it is matched as a whole '
                'in any text, before the merges; no merge makes or uses it.</div>')
    else:
        born = '<div class="bpe-note">A special token: its id is reserved, and no merge makes or uses it.</div>'
    return "".join(_head(chip(token_id), token, f"{name} id {token_id:,}") + [born])


def piece_html(model: SentencePieceBPE, token_id: int, chip: Callable[[int], str]) -> str:
    """A SentencePiece model's piece: its text, bytes and score, and how the scores build it."""
    name, kind = html.escape(real.LABELS.get(model.name, model.name)), model.types[token_id]
    tree = merge_tree(model.parents, token_id)
    score = lambda node: f'<span class="bpe-muted"> score {model.scores[node.id]:,g}</span>'  # noqa: E731
    if tree.children:
        born = (f'<div class="bpe-note">SentencePiece has no merge list: encoding joins the adjacent pair whose '
                f'joined piece scores highest. Encoded alone, this piece is last made from '
                f'{" + ".join(chip(child.id) for child in tree.children)}.</div><div class="bpe-heading">Merge tree</div>'
                + tree_html(tree, chip, score))
    elif kind == sentencepiece.BYTE:
        born = ('<div class="bpe-note">A byte piece: a character with no piece of its own falls back to its '
                'UTF-8 bytes, each one of these.</div>')
    elif kind in (sentencepiece.CONTROL, sentencepiece.UNKNOWN):
        born = '<div class="bpe-note">A special piece: no text encodes to it; the model adds it itself.</div>'
    else:
        born = '<div class="bpe-note">A single character: every text starts as these (a space as ▁).</div>'
    return "".join(_head(chip(token_id), model.tokens[token_id],
                         f"{name} piece {token_id:,}, score {model.scores[token_id]:,g}") + [born])


def _merge_label(rank: int) -> str:
    return f'<span class="bpe-muted"> merge {rank + 1:,}</span>' if rank >= 0 else ""


def tree_html(root: Node, chip: Callable[[int], str], label: Callable[[Node], str]) -> str:
    """A tree as nested lists (each node its chip and label, its parents below it), at most NODE_LIMIT nodes."""
    budget = [NODE_LIMIT]

    def node_html(node: Node) -> str:
        budget[0] -= 1
        if budget[0] < 0:
            return '<li class="bpe-more">…</li>'
        children = "".join(node_html(child) for child in node.children)
        return f"<li>{chip(node.id)}{label(node)}{f'<ul>{children}</ul>' if children else ''}</li>"

    return f'<ul class="bpe-tree" aria-label="merge tree">{node_html(root)}</ul>'


class InspectorView(pn.viewable.Viewer):
    """The inspected token's card, empty while nothing is inspected."""

    def __init__(self, state, **params):
        super().__init__(**params)
        p = state.param
        self._pane = html_pane(pn.bind(inspector_html, p.training, p.round, p.inspected, p.reference, p.training_b),
                               margin=0, height=0, css_classes=["bpe-inspector-pane"])

    def __panel__(self):
        return self._pane
