"""The tokenizer file the person uploaded: read as `bpe import` reads it, and compared with as the
real tokenizers are (`Comparison`), under the name UPLOAD.
"""
from __future__ import annotations

import param

from bpe import real

from .comparison import UPLOAD
from .inputs import sentence


class Upload(param.Parameterized):
    uploaded = param.ClassSelector(class_=real.Encoding, allow_None=True, doc="""
        The tokenizer file the person uploaded last (`bpe.real.imported.ImportedEncoding`), if any.""")

    def load_tokenizer_file(self, filename: str, data: bytes, pretokenizer: str = "gpt2") -> None:
        """Compare with an uploaded tokenizer file, read as `bpe import` reads it; a file it cannot
        express is refused with a message, and everything else stays as it was.

        `pretokenizer` splits a bare tiktoken rank file, which holds no pattern of its own."""
        # Imported on first use: the page starts without the formats.
        from bpe.errors import UserInputError
        from bpe.formats import upload
        from bpe.real.imported import ImportedEncoding

        try:
            imported = upload.read(data, filename, pretokenizer)
            encoding = ImportedEncoding(UPLOAD, filename, imported.saved.tokenizer, imported.notes,
                                        imported.saved.file_ids)
        except (UserInputError, MemoryError) as error:
            self.report(f"This tokenizer file could not be used: {error}" if not isinstance(error, MemoryError)
                        else "This tokenizer file could not be used: there is not enough memory for it")
            return
        if self.inspected and self.inspected[0] == UPLOAD:
            self.inspected = None  # a token of the file before
        notes = "; ".join(imported.notes)
        self.param.update(uploaded=encoding, reference=encoding, compare=UPLOAD, message_kind="info", message=(
            sentence(f"Comparing with {filename}: {len(encoding.tokens):,} tokens"
                     + (f" ({notes})" if notes else ""))))

