"""The story of a training: the moments worth stopping at, each a step a tour can show.

Every claim a step makes (a count, a tie, a token, a round) is read from the training record,
and kept beside the sentence in `Step.facts`, so that a test can hold the sentence to the record.

>>> import bpe
>>> t = bpe.train(["low lower lowest"], bpe.Settings(alphabet="chars", pretokenizer="words", merges=3))
>>> [step.kind for step in story(t)]
['start', 'first-merge', 'whole-chunk', 'longest', 'used-up']
>>> story(t)[1].text
'Round 1 joins l + o into lo: it ties with 1 other pair at 3, and the smallest-ids rule picks it.'
"""
from __future__ import annotations

from collections import Counter

from ..encoding.vocab import render
from ..options import TIE
from ..record import Record
from ..text.scripts import SHARED, script, script_of, scripts_in
from ..trainers.merge import Merge
from ..trainers.training import Training
from .difference import differing_rounds, explain

#: The panes a step can speak about (the page highlights the one named).
PANES = ("corpus", "candidates", "encoder", "chart", "difference")
#: A merge "saves" the tokens it replaces; below this share of the tokens before it, a merge saves little.
SMALL_SAVING = 0.01


class Step(Record):
    """One stop of a tour: what the page shows (round, encoder text, B) and what it says."""

    kind: str  # what moment this is: "first-merge", "first-tie", ...
    title: str
    text: str  # one or two sentences, plain text (the page escapes it)
    round: int
    pane: str = "corpus"  # one of PANES
    encode: str = ""  # the encoder's text for this step ("" leaves it as it is)
    b: bool = False  # whether the step shows B beside A
    facts: dict = None  # the figures the sentence states, by name, as read from the record

    def __post_init__(self) -> None:
        if self.pane not in PANES:
            raise ValueError(f"pane must be one of {', '.join(PANES)}, not {self.pane!r}")


def shown(training: Training, token_id: int) -> str:
    """A token as a sentence writes it: spaces as ␣, line breaks as ↵, broken UTF-8 as escapes.

    >>> import bpe
    >>> shown(bpe.train(["a b"], bpe.Settings(pretokenizer="words", merges=1)), 32)
    '␣'
    """
    return render(training.vocab[token_id]).replace(" ", "␣").replace("\n", "↵")


def times(n: int) -> str:
    """'once', 'twice', '19 times'."""
    return {1: "once", 2: "twice"}.get(n, f"{n:,} times")


def plural(n: int, noun: str) -> str:
    """'1 document', '23 documents'."""
    return f"{n:,} {noun}{'s' * (n != 1)}"


def joined(training: Training, merge: Merge) -> str:
    """'a + l into al'."""
    return f"{shown(training, merge.left)} + {shown(training, merge.right)} into {shown(training, merge.id)}"


def tied(training: Training, round: int) -> list[tuple[int, int]]:
    """The pairs that shared the top count at `round` (from 1), the winner first."""
    table = training.candidates(round)
    return [(c.left, c.right) for c in table if c.count == table[0].count]


def rule_name(training: Training) -> str:
    """'smallest-ids' or 'largest-text': the tie rule as the page names it."""
    return TIE.choose(training.settings.tie).label.replace(" ", "-")


def chunk_bytes(training: Training) -> dict[bytes, int]:
    """Each distinct chunk's bytes, and how often it occurs."""
    vocab, found = training.vocab, Counter()
    for chunk, weight in zip(training.corpus.chunks, training.corpus.counts):
        found[b"".join(vocab[ord(c)] for c in chunk)] += weight
    return found


def occurrences(training: Training, rounds: int) -> Counter:
    """How often each token stands in the corpus after `rounds` merges."""
    counted: Counter = Counter()
    for chunk, weight in zip(training.chunks(rounds), training.corpus.counts):
        for token, times in Counter(chunk).items():
            counted[ord(token)] += times * weight
    return counted


def story(training: Training, b: Training | None = None) -> list[Step]:
    """The moments of `training` worth stopping at, in the order of their rounds."""
    steps = [_start(training)]
    if training.merges:
        steps.append(_first_merge(training))
        for moment in (_first_tie, _whole_chunk, _longest, _used_up, _small_savings, _scripts):
            step = moment(training)
            if step is not None:
                steps.append(step)
    if b is not None:
        step = _difference(training, b)
        if step is not None:
            steps.append(step)
    return steps


def _start(t: Training) -> Step:
    tokens, docs = t.tokens[0], len(t.corpus.documents)
    if not t.merges:
        return Step("start", "No merges", f"The corpus is {tokens:,} tokens in {plural(docs, 'document')}, and training made "
                    f"no merge: {t.stopped}.", 0, facts={"tokens": tokens, "documents": docs, "stopped": t.stopped})
    return Step("start", "The corpus", f"Before any merge the corpus is {tokens:,} tokens in {plural(docs, 'document')}, one "
                f"token per base unit. Training makes {len(t.merges):,} merges, then stops: {t.stopped}.", 0,
                facts={"tokens": tokens, "documents": docs, "merges": len(t.merges), "stopped": t.stopped})


def _first_merge(t: Training) -> Step:
    merge = t.merges[0]
    pairs = tied(t, 1)
    if len(pairs) > 1:
        why = (f"it ties with {len(pairs) - 1:,} other pair{'s' * (len(pairs) > 2)} at {merge.count:,}, "
               f"and the {rule_name(t)} rule picks it")
    else:
        why = f"the pair occurs {times(merge.count)}, more than any other"
    return Step("first-merge", "The first merge", f"Round 1 joins {joined(t, merge)}: {why}.", 1, "candidates",
                facts={"round": 1, "token": merge.id, "count": merge.count, "ties": len(pairs)})


def _first_tie(t: Training) -> Step | None:
    """The first round decided by the tie rule (skipped when it is round 1, which the first merge tells)."""
    first = next((m for m in t.merges if m.ties > 1), None)
    if first is None or first.rank == 0:
        return None
    k = first.rank + 1
    pairs = tied(t, k)
    names = [f"{shown(t, left)} + {shown(t, right)}" for left, right in pairs]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) <= 4 else f"{len(names):,} pairs"
    return Step("first-tie", "The first tie", f"At round {k}, {listed} {'both' if len(names) == 2 else 'all'} occur {times(first.count)}. The "
                f"{rule_name(t)} rule decides: {joined(t, first)}.", k, "candidates",
                facts={"round": k, "token": first.id, "count": first.count, "ties": len(pairs)})


def _whole_chunk(t: Training) -> Step | None:
    """The first token that is a whole chunk of the corpus (a word, when the chunk is one)."""
    chunks = chunk_bytes(t)
    merge = next((m for m in t.merges if t.vocab[m.id] in chunks), None)
    if merge is None:
        return None
    text = render(t.vocab[merge.id])
    what = "a whole word" if text.strip().isalpha() else "a whole chunk"
    k = merge.rank + 1
    return Step("whole-chunk", "A whole word" if what == "a whole word" else "A whole chunk",
                f"Round {k} makes {shown(t, merge.id)}, the first token that is {what} of the corpus: it stands "
                f"for it, whole, wherever it occurs ({times(chunks[t.vocab[merge.id]])}).", k, "encoder",
                encode=text, facts={"round": k, "token": merge.id, "occurs": chunks[t.vocab[merge.id]]})


def _longest(t: Training) -> Step:
    """The longest token, in the alphabet's units (the earliest of equals)."""
    unit = "characters" if t.settings.alphabet == "chars" else "bytes"
    size = (lambda i: len(render(t.vocab[i]))) if unit == "characters" else (lambda i: len(t.vocab[i]))  # noqa: E731
    merge = max(t.merges, key=lambda m: (size(m.id), -m.rank))
    k, length = merge.rank + 1, size(merge.id)
    return Step("longest", "The longest token", f"The longest token is {shown(t, merge.id)}, {length:,} {unit}, "
                f"made in round {k}.", k, "encoder", encode=render(t.vocab[merge.id]),
                facts={"round": k, "token": merge.id, "length": length})


def _used_up(t: Training) -> Step | None:
    """A token that, by the last round, stands only inside longer tokens."""
    last = len(t.merges)
    counted = occurrences(t, last)
    merge = next((m for m in t.merges if counted[m.id] == 0), None)
    if merge is None:
        return None
    inside = [m.id for m in t.merges if merge.id in (m.left, m.right)]
    into = ", ".join(shown(t, i) for i in inside[:4]) + (" and more" if len(inside) > 4 else "")
    return Step("used-up", "Used up", f"By round {last:,}, {shown(t, merge.id)} (made in round {merge.rank + 1:,}) "
                f"no longer stands on its own anywhere in the corpus: every one went into {into}.", last,
                facts={"round": last, "token": merge.id, "made": merge.rank + 1, "inside": inside})


def _small_savings(t: Training) -> Step | None:
    """The round after which every merge saves less than SMALL_SAVING of the tokens before it."""
    tokens, merges = t.tokens, t.merges
    big = [m.rank + 1 for m in merges if m.replacements >= SMALL_SAVING * tokens[m.rank]]
    after = big[-1] if big else 0
    if after == len(merges):
        return None
    saved = 1 - tokens[after] / tokens[0]
    return Step("small-savings", "Smaller and smaller", f"After round {after:,}, each merge saves less than "
                f"{SMALL_SAVING:.0%} of the tokens. By then the corpus is {tokens[after]:,} tokens, {saved:.0%} fewer "
                f"than at the start.", after, "chart", facts={"round": after, "tokens": tokens[after]})


def _scripts(t: Training) -> Step | None:
    """Where the corpus mixes scripts, the first merge in each. A token counts for a script when
    its characters are of that script, apart from Common and Inherited ones (ニャー is Katakana:
    ー is Common); a token of Common characters alone (spaces, digits, emoji) counts for none."""
    weights: Counter = Counter()
    for chunk, weight in chunk_bytes(t).items():
        for char in chunk.decode("utf-8", "ignore"):
            weights[script(char)] += weight
    scripts = [name for name, _ in weights.most_common() if name not in SHARED]
    if len(scripts) < 2:
        return None
    firsts, touched = {}, set()  # the first merge of each script; scripts found in any merged token
    for merge in t.merges:
        try:
            text = t.vocab[merge.id].decode("utf-8")
        except UnicodeDecodeError:  # a part of a character's bytes: no script of its own yet
            continue
        firsts.setdefault(script_of(text), merge)
        touched |= scripts_in(text)
    said, never = [], {}
    for name in scripts:
        merge = firsts.get(name)
        if merge:
            said.append(f"{name} in round {merge.rank + 1:,} ({shown(t, merge.id)})")
            continue
        never[name] = "mixed" if name in touched else "unmerged"
        said.append(f"{name} in none: its characters are each merged only with others'" if name in touched
                    else f"{name} in none: none of its characters is in a merged token")
    k = max([firsts[name].rank + 1 for name in scripts if name in firsts] or [1])
    return Step("scripts", "Several scripts", f"The corpus mixes {len(scripts)} scripts. The first merge of each: "
                f"{'; '.join(said)}.", k, facts={"round": k, "never": never,
                                                 "firsts": {name: firsts[name].id if name in firsts else None
                                                            for name in scripts}})


def _difference(a: Training, b: Training) -> Step | None:
    rounds = differing_rounds(a, b)
    if not rounds:
        return Step("difference", "A and B", f"A and B take the same pairs at all {len(a.merges):,} rounds.", 0,
                    "difference", b=True, facts={"round": 0})
    k = rounds[0]
    return Step("difference", "Where B parts", explain(a, b, k), min(k, len(a.merges)), "difference", b=True,
                facts={"round": k})
