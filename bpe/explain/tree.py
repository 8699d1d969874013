"""Where a token came from: its merge tree, down to base bytes or characters.

A learned token's parents are the two tokens its merge joined. A real tokenizer ships only
ranks, so its parents are rebuilt: the split of the token's bytes that tiktoken's rule
reaches using only the ranks below the token's own (`real_parents`).

>>> import bpe
>>> t = bpe.train(["walk", "walked", "talk"], bpe.Settings(alphabet="chars", pretokenizer="none", merges=3))
>>> tree = merge_tree(t.tokenizer.parents, t.merges[2].id)
>>> [t.vocab[node.id] for node in tree.walk()]
[b'walk', b'w', b'alk', b'al', b'a', b'l', b'k']
>>> tree.depth, tree.size
(3, 7)
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..encoding.ranks import parts

if TYPE_CHECKING:
    from ..real import Encoding


@dataclasses.dataclass(frozen=True)
class Node:
    id: int
    children: tuple[Node, ...] = ()

    def walk(self) -> Iterator[Node]:
        """This node, then each child's subtree, left to right (the order a tree is read)."""
        yield self
        for child in self.children:
            yield from child.walk()

    @property
    def depth(self) -> int:
        """Merges on the longest path down to a base unit (0 for a base unit)."""
        return 1 + max(child.depth for child in self.children) if self.children else 0

    @property
    def size(self) -> int:
        return sum(1 for _ in self.walk())


def merge_tree(parents: Callable[[int], Sequence[int]], token_id: int) -> Node:
    """The tree of `token_id`: each node's children are `parents(node)`, down to tokens with none."""
    return Node(token_id, tuple(merge_tree(parents, parent) for parent in parents(token_id)))


def real_parents(encoding: Encoding) -> Callable[[int], tuple[int, ...]]:
    """Parents of a real tokenizer's ranks: the parts tiktoken's rule leaves of a token's bytes
    when only lower ranks may be used. Two parts for a token BPE made; a single byte has none.

    >>> from bpe.real import Encoding
    >>> enc = Encoding("tiny", r"\\w+", [bytes([i]) for i in range(256)] + [b"ab", b"abc"], {})
    >>> real_parents(enc)(257), real_parents(enc)(97)
    ((256, 99), ())
    """
    def parents(rank: int) -> tuple[int, ...]:
        token = encoding.tokens[rank]
        if len(token) < 2:
            return ()
        return tuple(encoding.ranks[part] for part in parts(token, encoding.ranks, below=rank))
    return parents
