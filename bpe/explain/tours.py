"""A tour of each seed system: the moments its published text stops at, told from its preset's training.

The rounds and texts each tour shows are its choice (the seed's own examples); every figure a
step states is read from the training, so a changed preset changes the sentence, and the tests
(`tests/test_story.py`) hold each sentence to the record.

>>> steps = tour("explainer")
>>> len(steps), steps[1].text
(8, 'Round 1: a + l and l + k both occur 19 times, the most of any pair. The smallest-ids rule breaks the tie: a + l into al.')
"""
from __future__ import annotations

import functools

from ..presets import PRESETS
from ..trainers.training import Training, train
from .story import Step, joined, rule_name, shown, story, tied, times

#: The seed tours, by the preset each tells.
NAMES = ("explainer", "course", "octlm", "from-scratch")


@functools.lru_cache(maxsize=None)
def trainings(name: str) -> tuple[Training, Training | None]:
    """The preset's training, and B's (the preset's suggested contrast), as the page trains them."""
    preset = PRESETS[name]
    b = train(preset.documents, preset.settings.replace(**preset.contrast)) if preset.contrast else None
    return train(preset.documents, preset.settings), b


def tour(name: str) -> list[Step]:
    """The steps of the seed tour `name` (one of NAMES)."""
    if name not in NAMES:
        raise ValueError(f"there is no tour named {name!r}: the tours are {', '.join(NAMES)}")
    a, b = trainings(name)
    return _TOURS[name](a, b)


def moment(steps: list[Step], kind: str) -> Step:
    """The one step of `kind` in a story."""
    return next(step for step in steps if step.kind == kind)


def tie_step(t: Training, k: int, title: str = "A tie", more: str = "") -> Step:
    """Round `k` as a tie the rule decides: which pairs shared the top count, and which one won."""
    pairs, merge = tied(t, k), t.merges[k - 1]
    names = [f"{shown(t, left)} + {shown(t, right)}" for left, right in pairs]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    every = "both" if len(names) == 2 else "all"
    return Step("tie", title, f"Round {k}: {listed} {every} occur {times(merge.count)}, the most of any pair.{more} "
                f"The {rule_name(t)} rule breaks the tie: {joined(t, merge)}.", k, "candidates",
                facts={"round": k, "token": merge.id, "count": merge.count, "ties": len(pairs)})


def count_step(t: Training, k: int) -> Step:
    """The corpus and the vocabulary after `k` merges."""
    return Step("count", f"After {k} merges", f"After {k} merges the corpus is {t.tokens[k]:,} tokens, down from "
                f"{t.tokens[0]:,}, and the vocabulary holds {t.vocab_size(k):,} entries.", k,
                facts={"round": k, "tokens": t.tokens[k], "vocab": t.vocab_size(k)})


def encode_step(t: Training, text: str, k: int, point: str, title: str) -> Step:
    """`text` in the encoder at round `k`, its tokens listed, `point` said after them."""
    ids = t.tokenizer.encode_ordinary(text, rounds=k)
    pieces = " ".join("?" if i is None else shown(t, i) for i in ids)
    unknown = sum(i is None for i in ids)
    return Step("encode", title, f"At round {k}, {text} encodes as {pieces}: {point}", k, "encoder", encode=text,
                facts={"round": k, "ids": ids, "unknown": unknown})


def builds(t: Training, token: int) -> list[int]:
    """The rounds of every merge that goes into `token`, its own last, in order."""
    first = t.tokenizer.first_merge_id
    rounds, todo = set(), [token]
    while todo:
        i = todo.pop()
        if i >= first:
            merge = t.merges[i - first]
            rounds.add(merge.rank + 1)
            todo += [merge.left, merge.right]
    return sorted(rounds)


def growth_step(t: Training, text: bytes) -> Step:
    """How the token `text` grows, merge by merge."""
    token = t.vocab.index(text)
    rounds = builds(t, token)
    grown = ", ".join(f"{shown(t, t.merges[k - 1].id)} ({k})" for k in rounds)
    return Step("growth", f"{shown(t, token)}, merge by merge", f"{shown(t, token)} takes {len(rounds)} merges to "
                f"build, each joining two tokens made before: {grown}.", rounds[-1], "encoder",
                encode=text.decode(), facts={"round": rounds[-1], "token": token, "rounds": rounds})


def _explainer(a: Training, b: Training) -> list[Step]:
    told = story(a, b)
    words = a.corpus.documents
    start = Step("start", "Seven words", f"The corpus is {a.tokens[0]:,} characters: {len(set(a.corpus.chunks))} "
                 f"different words, each occurrence its own document ({len(words):,} of them), so no pair crosses "
                 f"from one word to the next. Every character starts as its own token.", 0,
                 facts={"tokens": a.tokens[0], "words": len(set(a.corpus.chunks)), "documents": len(words)})
    three = next(m.rank + 1 for m in a.merges if m.ties >= 3)
    return [start, tie_step(a, 1, "Two pairs tie"), moment(told, "whole-chunk"), tie_step(a, three, "Three pairs tie"),
            count_step(a, 6),
            encode_step(a, "walkable", 6, "it was never in the corpus, yet every piece of it was.", "A new word"),
            encode_step(a, "stalking", len(a.merges), "s never occurs in the corpus, so it stays unknown (?).",
                        "An unknown letter"),
            moment(told, "difference")]


def _course(a: Training, b: Training) -> list[Step]:
    first = a.merges[0]
    joined_count = train(["".join(PRESETS["course"].documents)], a.settings.replace(merges=1)).merges[0].count
    docs = PRESETS["course"].documents
    return [
        Step("start", "Two documents", f"Two documents, {' and '.join(docs)}: {a.tokens[0]:,} bytes, and no "
             f"pre-tokenization, so each document is one chunk.", 0,
             facts={"tokens": a.tokens[0], "documents": len(docs)}),
        Step("overlap", "Counted twice, replaced once", f"{shown(a, first.left)} + {shown(a, first.right)} is counted "
             f"{times(first.count)}: {docs[0]} holds it twice, overlapping. A pass from left to right replaces it "
             f"{times(first.replacements)}, so the corpus goes from {a.tokens[0]:,} tokens to {a.tokens[1]:,}.", 1,
             "candidates", facts={"round": 1, "count": first.count, "replacements": first.replacements,
                                  "tokens": a.tokens[1]}),
        Step("barrier", "Documents are barriers", f"No pair spans two documents: the last a of {docs[0]} and the first "
             f"a of {docs[1]} are never counted together. Joined into one text, {shown(a, first.left)} + "
             f"{shown(a, first.right)} would count {joined_count:,}.", 1, "corpus",
             facts={"round": 1, "count": first.count, "joined": joined_count}),
        tie_step(a, 2, "A count-one merge", f" The minimum pair count is {a.settings.min_frequency}, so a pair "
                 f"seen {times(a.merges[1].count)} may still merge."),
        count_step(a, len(a.merges)),
        moment(story(a, b), "difference"),
    ]


def _octlm(a: Training, b: Training | None) -> list[Step]:
    specials = a.tokenizer.specials
    low, high = min(specials), max(specials)
    touching = [m for m in a.merges if m.left in specials or m.right in specials]
    return [
        Step("start", "Reserved ids", f"Ids 0 to 255 are the bytes, and octlm reserves {low} to {high} for "
             f"{len(specials)} special tokens ({', '.join(specials.values())}), so the first merge takes id "
             f"{a.tokenizer.first_merge_id}.", 0, facts={"specials": sorted(specials), "first": a.tokenizer.first_merge_id}),
        moment(story(a), "first-merge"),
        tie_step(a, 2, "A tie on the smallest pair"),
        growth_step(a, b"_number"),
        growth_step(a, b"total"),
        Step("specials", "Specials never merge", f"No merge joins a special token: of the {len(a.merges)} merges, "
             f"{len(touching)} use an id from {low} to {high}. The special tokens are never counted as pairs.",
             len(a.merges), "candidates", facts={"round": len(a.merges), "touching": len(touching)}),
        moment(story(a), "longest"),
    ]


def _from_scratch(a: Training, b: Training) -> list[Step]:
    told = story(a, b)
    base = a.tokenizer.first_merge_id
    space = a.vocab.index(b" ")
    spaced = next(m for m in a.merges if m.left == space and len(a.vocab[m.right]) > 1)
    sentence = "the fat cat sat on a mat."
    return [
        Step("start", "Characters, then merges", f"The cat/mat corpus starts from its {base} characters, ids 0 to "
             f"{base - 1} in sorted order; each merge takes the next id, from {base}.", 0, facts={"first": base}),
        Step("first-merge", "The first merge", f"Round 1 joins {joined(a, a.merges[0])}, id {a.merges[0].id}: the "
             f"pair occurs {times(a.merges[0].count)}.", 1, "candidates",
             facts={"round": 1, "token": a.merges[0].id, "count": a.merges[0].count}),
        moment(told, "first-tie"),
        Step("space", "The space belongs to the word", f"Round {spaced.rank + 1} joins {joined(a, spaced)}, id "
             f"{spaced.id}: a word keeps the space before it, so {shown(a, spaced.id)} and "
             f"{shown(a, spaced.right)} are two different tokens.", spaced.rank + 1, "candidates",
             facts={"round": spaced.rank + 1, "token": spaced.id}),
        encode_step(a, sentence, len(a.merges), f"{len(a.tokenizer.encode_ordinary(sentence)):,} tokens for "
                    f"{len(sentence)} characters.", "A sentence"),
        encode_step(a, "the elephant sat on a submarine.", len(a.merges),
                    "what the merges cover is joined, and letters the corpus never holds stay unknown (?).",
                    "A word never seen"),
        moment(told, "difference"),
    ]


_TOURS = {"explainer": _explainer, "course": _course, "octlm": _octlm, "from-scratch": _from_scratch}
