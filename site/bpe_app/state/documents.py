"""From what a person typed or uploaded to a list of documents, or a message saying what is wrong.

>>> split_documents("walk\\nwalked\\n\\ntalk\\n", "each line")
['walk', 'walked', 'talk']
>>> split_documents("one\\ntwo\\n\\nthree\\n", "blank lines")
['one\\ntwo', 'three']
"""
from __future__ import annotations

from bpe.io import textio
from bpe.options import DOCUMENTS

#: How the corpus text is cut into documents (merges never cross a document's edge), as the page
#: labels `bpe.text.documents`' modes, whose rule (what a line or a paragraph break is) they follow.
SPLITS = tuple(value.label for value in DOCUMENTS)
#: The largest corpus the page trains on. Training time grows with it, and in the browser
#: a 2 MB corpus already takes several seconds.
MAX_CORPUS_BYTES = 2 * 1024 * 1024


class InputError(ValueError):
    """Input the page cannot train on; the message is shown to the person as it is."""


def split_documents(text: str, split: str) -> list[str]:
    """The documents of a corpus text; empty ones are dropped."""
    return DOCUMENTS.labelled(split).split(text)


def join_documents(documents: list[str]) -> tuple[str, str]:
    """(text, split) that gives `documents` back through `split_documents`, as nearly as it can."""
    for split, separator in (("each line", "\n"), ("blank lines", "\n\n")):
        text = separator.join(documents)
        if split_documents(text, split) == documents:
            return text, split
    return "\n\n".join(documents), "blank lines"


def check_size(text: str, limit: int = MAX_CORPUS_BYTES) -> None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise InputError(
            f"The corpus is {megabytes(size)}, over the limit of {megabytes(limit)}: "
            "training would take too long in the browser. Use a shorter extract."
        )


def documents_of(text: str, split: str, limit: int = MAX_CORPUS_BYTES) -> list[str]:
    """The documents to train on, or InputError when there is nothing (or too much) to train on."""
    check_size(text, limit)
    documents = split_documents(text, split)
    if not any(document.strip() for document in documents):
        raise InputError("The corpus is empty: type or paste some text, upload a file, or pick a preset.")
    return documents


def decode_upload(filename: str, data: bytes | None) -> str:
    """The text of an uploaded file, or InputError for an empty, binary, non-UTF-8 or too large file."""
    if not data:  # the file chooser gives None for a 0-byte file
        raise InputError(f"{filename} is empty: there is nothing in it to train on.")
    if len(data) > MAX_CORPUS_BYTES:
        raise InputError(
            f"{filename} is {megabytes(len(data))}, over the limit of {megabytes(MAX_CORPUS_BYTES)}. "
            "Upload a shorter extract."
        )
    if b"\x00" in data:
        raise InputError(f"{filename} looks like a binary file (it holds NUL bytes). Upload a plain text file.")
    try:
        return textio.decode(data, filename)  # the command line's reading: byte for byte
    except textio.InputFileError as error:
        raise InputError(
            f"{filename} is not UTF-8 text (byte {error.at} is 0x{data[error.at]:02X}). "
            "Save it as UTF-8 and upload it again."
        ) from None


def megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"
