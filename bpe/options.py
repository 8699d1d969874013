"""Every training option and its values, in one place: the trainers, the command line,
tokenizer files, the page and its share links all read them from here.

A value knows its name (as files, links and the command line write it), its label and
help in the user's words, which published system uses it, and its behaviour: a tie
rule carries its sort keys, a pre-tokenizer its pattern, a specials set its tokens.
An unknown name fails here, once, with one message that names the option.

>>> TIE.choose("largest-text").used_by
'the from-scratch text'
>>> TIE.choose("random")
Traceback (most recent call last):
...
bpe.errors.SettingsError: --tie must be one of smallest, largest-text, not 'random'
>>> [value.name for value in PRETOKENIZER]
['none', 'words', 'kinds', 'gpt2']
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from .errors import SettingsError
from .record import Record
from .text import documents, patterns


class Value(Record):
    """One value of an option."""

    name: str  # as files, links and the command line write it
    label: str  # the page's words for it
    help: str  # one sentence
    used_by: str = ""  # the published systems that use it
    link: str = ""  # its word in a share link, where that differs from the name

    @property
    def link_word(self) -> str:
        return self.link or self.name


class Option(Record):
    """An option of `Settings`: its field, how each front end names it, and its values."""

    field: str
    label: str  # the page's name for it, as a sentence would use it
    help: str
    values: tuple[Value, ...] = ()

    @property
    def flag(self) -> str:
        """The command line's name: min_frequency -> --min-frequency."""
        return "--" + self.field.replace("_", "-")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(value.name for value in self.values)

    def __iter__(self) -> Iterator[Value]:
        return iter(self.values)

    def describe(self) -> str:
        """The option's help, then each value's, as one paragraph (the CLI's --help, the page's hover help)."""
        values = "; ".join(f"{value.name}: {value.help}" + (f" ({value.used_by})" if value.used_by else "")
                           for value in self.values)
        return f"{self.help} {values}." if values else self.help

    def labelled(self, label: str) -> Value:
        """The value the page shows as `label`."""
        return next(value for value in self.values if value.label == label)

    def choose(self, name) -> Value:
        """The value called `name`, or SettingsError naming this option and its values."""
        for value in self.values:
            if value.name == name:
                return value
        raise SettingsError(self.field, f"{{option}} must be one of {', '.join(self.names)}, not {SettingsError.shown(name)}")


# --------------------------------------------------------------------------- alphabets

class AlphabetKind(Value):
    byte_level: bool = True  # ids 0-255 are bytes; otherwise the corpus's characters


ALPHABET = Option("alphabet", "alphabet", "What the base ids are.", (
    AlphabetKind("bytes", "bytes", "256 base tokens, the byte values, so nothing is ever unknown",
                 "octlm and the course", byte_level=True),
    AlphabetKind("chars", "chars", "the corpus's own characters; one it never had has no id",
                 "the from-scratch text and the explainer", byte_level=False),
))


# --------------------------------------------------------------------------- pre-tokenizers

class Pretokenizer(Value):
    #: The split pattern in Python's `re` (True: with classes above U+FFFF); None keeps a document whole.
    pattern: Callable[[bool], str] | None = None
    #: A BMP stand-in by general category for a character above U+FFFF, which every class and
    #: literal of the pattern treats as the character itself (see `pretokenize.py`).
    stand_ins: dict = {}  # shared by those without, and never changed
    #: The pattern starts with `\s+|`, no other class holds whitespace, and nothing looks around:
    #: so a space between two other characters is always a chunk of its own (counting tallies
    #: those with `str.count` instead of matching each one), and a chunk always ends after a
    #: space that comes before a non-space (the encoder remembers whole stretches up to one).
    lone_spaces: bool = False


PRETOKENIZER = Option(
    "pretokenizer", "pre-tokenizer", "Where merges may not cross.", (
        Pretokenizer("none", "none", "whole documents", "the course"),
        Pretokenizer("words", "words", "a word keeps its leading space; runs of whitespace stand alone",
                     "the from-scratch text",
                     pattern=lambda astral=True: patterns.WORDS),
        Pretokenizer("kinds", "kinds", "runs of one kind: whitespace, word characters, digits, other", "octlm",
                     pattern=patterns.kinds, stand_ins={"L": "a", "M": "a", "N": "0"}, lone_spaces=True),
        Pretokenizer("gpt2", "gpt2", "GPT-2's pattern: contractions, letters, numbers, other, whitespace", "GPT-2",
                     pattern=patterns.gpt2, stand_ins={"L": "a", "N": "0"}),
    ))


# --------------------------------------------------------------------------- tie rules

def descending(text: bytes) -> tuple[int, ...]:
    """A key that sorts byte strings in reverse: b"ab" comes before b"a" and after b"b".

    The end marker 256 is above every complemented byte, so a prefix sorts after
    its extensions, which is what reversed lexicographic order asks for."""
    return (*(255 - value for value in text), 256)


class TieRule(Value):
    """Among pairs with the top count, the one with the smallest key wins.

    `key(vocab)` keys a pair of ids; `pair_key(vocab)` keys the same pair written as the
    fast trainer's two-character string (see `sequence.py`), giving the same order."""

    key: Callable[[Sequence[bytes]], Callable[[int, int], tuple]] = None
    pair_key: Callable[[Sequence[bytes]], Callable[[str], object]] = None


def _largest_text(vocab: Sequence[bytes]) -> Callable[[int, int], tuple]:
    # UTF-8 byte order is code-point order, so this agrees with comparing the tokens' text.
    return lambda left, right: (descending(vocab[left]), descending(vocab[right]))


def _largest_text_of_pair(vocab: Sequence[bytes]) -> Callable[[str], tuple]:
    return lambda pair: (descending(vocab[ord(pair[0])]), descending(vocab[ord(pair[1])]))


TIE = Option("tie", "tie rule", "Which pair wins when several share the top count.", (
    TieRule("smallest", "smallest ids", "smallest ids (left id, then right id)",
            "octlm, the course, the explainer",
            key=lambda vocab: lambda left, right: (left, right),
            pair_key=lambda vocab: str),  # code-point order of the two characters is id order
    TieRule("largest-text", "largest text", "largest text (left text, then right text)", "the from-scratch text",
            key=_largest_text, pair_key=_largest_text_of_pair),
))


# --------------------------------------------------------------------------- specials

class SpecialSet(Value):
    tokens: tuple[str, ...] = ()  # reserved right after the base alphabet, in id order
    needs: str = ""  # the alphabet they need ("" for any)
    # Whether a file format that cannot say "only when allowed" matches their text in any text
    # (Hugging Face's added tokens): a chat template writes ChatML's as text; octlm's seed says
    # its `<|eos|>` written in a text is plain text.
    matched: bool = False

    @property
    def ids(self) -> dict[str, int]:
        """Each token's id, after the 256 bytes."""
        return {name: 256 + i for i, name in enumerate(self.tokens)}


SPECIALS = Option("specials", "special tokens", "Ids reserved after the base alphabet.", (
    SpecialSet("none", "none", "no reserved ids"),
    # octlm reserves five ids after the bytes; <|eos|> is 258 and two are kept for tool use,
    # so that their ids never move. The seed names only <|eos|>; the other names are ours.
    SpecialSet("octlm", "octlm", "pad, bos, eos and two tool tokens, ids 256-260", "octlm",
               tokens=("<|pad|>", "<|bos|>", "<|eos|>", "<|tool_call|>", "<|tool_result|>"), needs="bytes"),
    # ChatML's markers, so that a tokenizer trained here can count a chat (bpe.chat's ChatML).
    SpecialSet("chatml", "ChatML", "end of text, and ChatML's start and end of a message, ids 256-258",
               "ChatML chat templates (OpenAI's chat markup, Qwen and many open models)",
               tokens=("<|endoftext|>", "<|im_start|>", "<|im_end|>"), needs="bytes", matched=True),
))


# --------------------------------------------------------------------------- numbers

MIN_FREQUENCY = Option("min_frequency", "minimum count",
                       "Training stops when the best pair occurs fewer times than this.")
MERGES = Option("merges", "merges", "At most this many merges.")
VOCAB_SIZE = Option("vocab_size", "vocabulary size", "At most this many vocabulary entries.")

#: Every option of `Settings`, by field.
OPTIONS: dict[str, Option] = {option.field: option for option in
                              (ALPHABET, PRETOKENIZER, TIE, SPECIALS, MIN_FREQUENCY, MERGES, VOCAB_SIZE)}


# --------------------------------------------------------------------------- documents and formats

class DocumentSplit(Value):
    split: Callable[[str], list[str]] = None  # a text's documents (`documents.py` states the rule)


DOCUMENTS = Option("documents", "documents", "Documents are barriers: merges never cross from one document "
                   "to the next.", (
    DocumentSplit("line", "each line", "each line is a document (a line ends at a line feed only)", link="lines",
                  split=documents.lines),
    DocumentSplit("paragraph", "blank lines", "paragraphs between blank lines are documents", link="paragraphs",
                  split=documents.paragraphs),
    DocumentSplit("file", "whole text", "the whole text is one document", link="whole", split=documents.whole),
))


class Budget(Value):
    field: str = ""  # the Settings field its number goes to ("" for none)
    counts_base: bool = False  # its number counts the base vocabulary too


#: How the page gives the budget: the command line has a flag for each of the first two.
BUDGET = Option("budget", "budget", "How much to learn: a number of merges, a vocabulary size, or until no "
                "pair is frequent enough.", (
    Budget("merges", "merges", "at most this many merges", field="merges"),
    Budget("vocab-size", "vocab size", "at most this many vocabulary entries", field="vocab_size", link="vocab",
           counts_base=True),
    Budget("none", "no limit", "until no pair reaches the minimum count"),
))


class Format(Value):
    """Another library's tokenizer file. `module()` gives its module (`formats/NAME.py`), which has
    `export(tokenizer, path, name)` and `load(path, pretokenizer)` for the command line, and
    `download(tokenizer)`, `DOWNLOAD` (its file name), `problem(tokenizer)` and `how_to_load(tokenizer)`
    for the page."""

    module: Callable[[], object] = None


def _format_module(name: str) -> Callable[[], object]:
    def load():  # imported on use: formats read tokenizer files, which read these options
        import importlib

        return importlib.import_module(f".formats.{name}", __package__)
    return load


FORMAT = Option("format", "format", "Another library's tokenizer file.", (
    Format("hf", "Hugging Face", "a tokenizer.json that tokenizers.Tokenizer.from_file reads", "Hugging Face",
           module=_format_module("hf")),
    Format("tiktoken", "tiktoken", "a rank file, and its Encoding arguments beside it as PATH.json", "OpenAI",
           module=_format_module("tiktoken")),
))
