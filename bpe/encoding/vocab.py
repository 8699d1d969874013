"""The vocabulary's bytes before any merge, and how a token's bytes are shown as text."""
from __future__ import annotations

from ..settings import Settings
from .alphabet import Alphabet


def base_vocab(settings: Settings, alphabet: Alphabet) -> list[bytes]:
    """Every id's bytes before the first merge: the alphabet, then the specials. Training and
    loading both start here, and each merge appends its two parts joined.

    >>> len(base_vocab(Settings(specials="octlm"), Alphabet("bytes"))), base_vocab(Settings(specials="octlm"), Alphabet("bytes"))[258]
    (261, b'<|eos|>')
    """
    return alphabet.symbols + [name.encode() for name in settings.special_tokens]


def render(token: bytes) -> str:
    r"""b'\xe3\x81' -> '\\xe3\\x81'; valid UTF-8 stays as it is."""
    return token.decode("utf-8", "backslashreplace")
