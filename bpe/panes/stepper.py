"""The encoder's stepper: the typed text as base units, then one merge rule at a time, as the encoder applies them.

It is the explainer's "walk the merge rules from first to last, and wherever a rule matches,
apply it" made visible (`bpe.explain.steps`): each step names the rule, its rank and how many places it
matched, and outlines the tokens it made. The last step is the encoder's output, and says why
nothing more merges.
"""
from __future__ import annotations

import functools

from ..trainers.training import Training
from ..explain.steps import Step, encode_steps, pairs_left

from .chips import grouped_chips, token_chip, unknown_chip
from .wording import plural

#: Characters stepped through at most (whole chunks): a pasted page would make thousands of steps.
TEXT_LIMIT = 400
#: Pairs named when saying why encoding stopped.
PAIRS_NAMED = 8


@functools.lru_cache(maxsize=2)  # a training is large: keep few alive
def steps_of(training: Training, text: str, rounds: int) -> tuple[list[Step], str]:
    """The steps for the start of `text` (whole chunks, at most TEXT_LIMIT characters; or just the
    first TEXT_LIMIT characters, when the first chunk is longer), and that start."""
    stepped, used = text[:TEXT_LIMIT], 0
    if len(text) > TEXT_LIMIT:
        for chunk in training.tokenizer.split(text):
            if used + len(chunk) > TEXT_LIMIT:
                break
            used += len(chunk)
        stepped = text[:used] or stepped
    return encode_steps(training.tokenizer, stepped, rounds), stepped


def last_step(training: Training, text: str, rounds: int) -> int:
    """The stepper's last step: how many rules match somewhere in the text."""
    try:
        return len(steps_of(training, text, rounds)[0]) - 1
    except ValueError:  # a lone surrogate, which the encoder refuses too
        return 0


def stepper_html(training: Training, text: str, rounds: int, step: int, playing: bool = False) -> str:
    """The controls, the sentence for step `step` and the text's chips as they stand after it."""
    try:
        steps, stepped = steps_of(training, text, rounds)
    except ValueError:
        return ""
    if not text:
        return ""
    step = min(step, len(steps) - 1)
    shown, last = steps[step], len(steps) - 1
    tokenizer = training.tokenizer
    made = None if shown.rank is None else tokenizer.first_merge_id + shown.rank
    unknown = iter(c for c in stepped if not training.alphabet.byte_level and c not in training.alphabet.chars)
    chunks = "".join(f'<span class="bpe-chunk">{_chips(training, chunk, made, unknown)}</span>' for chunk in shown.chunks)
    cut = (f'<div class="bpe-note">Stepping through the first {plural(len(stepped), "character")} '
           f"of {len(text):,}.</div>" if len(stepped) < len(text) else "")
    return (
        '<div class="bpe-stepper" tabindex="0" role="group" aria-label="encoding step by step; ← and → step">'
        f'<div class="bpe-step-controls">{_controls(step, last, playing)}'
        f'<span class="bpe-muted">step {step} of {last}</span></div>'
        f'<div class="bpe-note bpe-step-words" aria-live="polite">{step_words(training, steps, step, rounds)}</div>'
        f'<div class="bpe-step-chips">{chunks}</div>{cut}</div>'
    )


def _chips(training: Training, chunk: tuple[int | None, ...], made: int | None, unknown) -> str:
    """A chunk's chips, the tokens `made` by the step outlined; `unknown` gives the characters of the ids None."""
    vocab = training.vocab
    chips = [unknown_chip(next(unknown)) if i is None else token_chip(i, vocab[i], i == made) for i in chunk]
    return grouped_chips(chips, [vocab[i] for i in chunk]) if training.alphabet.byte_level else "".join(chips)


def _controls(step: int, last: int, playing: bool) -> str:
    buttons = [("first", "start", "back to the start", step == 0), ("-1", "◀ previous", "previous step", step == 0),
               ("+1", "next ▶", "next step", step == last), ("last", "end", "to the last step", step == last)]
    html_buttons = [f'<button class="bpe-action" data-action="encode-step" data-value="{value}" '
                    f'title="{label}"{" disabled" if off else ""}>{text}</button>'
                    for value, text, label, off in buttons]
    play = "⏸ pause" if playing else "▶ play"
    html_buttons.append(f'<button class="bpe-action" data-action="encode-play" data-value="{0 if playing else 1}"'
                        f'{" disabled" if last == 0 else ""}>{play}</button>')
    return "".join(html_buttons)


def step_words(training: Training, steps: list[Step], step: int, rounds: int) -> str:
    """What step `step` did, in words (HTML): "rank 3: w + alk → walk, 1 place"."""
    vocab, last = training.vocab, len(steps) - 1
    chip = lambda i: token_chip(i, vocab[i])  # noqa: E731
    if step == 0:
        start = steps[0]
        unit = "byte" if training.alphabet.byte_level else "character"
        words = f"The text starts as {plural(len(start.ids), unit)} in {plural(len(start.chunks), 'chunk')}."
        if rounds:
            words += (f" The encoder walks the first {plural(rounds, 'rule')} by rank, the order training learned "
                      "them, and applies each wherever it matches.")
    else:
        shown = steps[step]
        left, right = training.tokenizer.merges[shown.rank]
        made = training.tokenizer.first_merge_id + shown.rank
        words = (f"<b>rank {shown.rank + 1}</b>: {chip(left)} + {chip(right)} → {chip(made)}, "
                 f"{plural(shown.places, 'place')}.")
    if step == last:
        words += " " + _why_done(training, steps[-1], rounds, step)
    return words


def _why_done(training: Training, final: Step, rounds: int, step: int) -> str:
    """Why no rule applies after the last step: each pair left is no rule, or a rule not yet learned."""
    vocab = training.vocab
    if not rounds:
        return "At round 0 there are no rules yet: the base units are the output."
    left = pairs_left(training.tokenizer, final)
    done = "That is the encoder's output." if step else "No rule matches: the base units are the output."
    if not left:
        return done + " Every chunk is one token."
    named = [f"{token_chip(a, vocab[a])} + {token_chip(b, vocab[b])}"
             + (f" (rank {rank + 1}, learned after round {rounds})" if rank is not None else "")
             for a, b, rank in left[:PAIRS_NAMED]]
    more = f" and {plural(len(left) - PAIRS_NAMED, 'more pair')}" if len(left) > PAIRS_NAMED else ""
    return f"{done} No rule among the first {plural(rounds, 'rule')} joins what is left: {', '.join(named)}{more}."
