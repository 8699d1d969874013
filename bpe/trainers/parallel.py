"""Counting chunks on several cores: batches of documents go to a process pool, and the
tables come back in the order the batches went out.

Adding the tables in that order gives exactly one process's count, chunk order included
(a chunk is first seen in the first batch that holds it; lone spaces are added last, see
`chunks.tally`), so the training is identical for any number of workers. Where there are no processes (Pyodide), counting stays in
this one.

>>> count(["the cat", "the"], "words", workers=1)
Counter({'the': 2, ' cat': 1})
"""
from __future__ import annotations

import os
import sys
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from itertools import chain

from .chunks import count_chunks, finish, tally

#: Characters of text in one batch: big enough that sending it costs little beside counting it.
BATCH_CHARS = 1 << 22


def default_workers() -> int:
    """The cores this process may use (one where processes cannot be started)."""
    if sys.platform == "emscripten":
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not every platform has it
        return os.cpu_count() or 1


def count(documents: Iterable[str], pretokenizer: str, workers: int) -> Counter[str]:
    """`chunks.count_chunks` on `workers` processes. Documents are read as they come, and at
    most a few batches per worker are in flight, so memory stays bounded for a stream."""
    if workers <= 1 or sys.platform == "emscripten":
        return count_chunks(documents, pretokenizer)
    groups = batches(documents, BATCH_CHARS)
    first = next(groups, None)
    second = next(groups, None)
    if second is None:  # one batch: starting processes would cost more than it saves
        return count_chunks(first or [], pretokenizer)
    from concurrent.futures import ProcessPoolExecutor  # only a parallel count pays for the import

    total: Counter[str] = Counter()
    lone = 0
    pending: deque = deque()

    def add(done) -> None:
        nonlocal lone
        counts, spaces = done.result()
        total.update(counts)
        lone += spaces

    with ProcessPoolExecutor(workers) as pool:
        for batch in chain([first, second], groups):
            pending.append(pool.submit(tally, batch, pretokenizer))
            if len(pending) > 2 * workers:
                add(pending.popleft())
        while pending:
            add(pending.popleft())
    return finish(total, lone)


def batches(documents: Iterable[str], size: int) -> Iterator[list[str]]:
    """Documents grouped, in order, into lists of about `size` characters (a longer document
    is a batch of its own: documents are never cut).

    >>> list(batches(["ab", "c", "defg", "h"], 3))
    [['ab', 'c'], ['defg'], ['h']]
    """
    batch: list[str] = []
    held = 0
    for document in documents:
        batch.append(document)
        held += len(document)
        if held >= size:
            yield batch
            batch, held = [], 0
    if batch:
        yield batch
