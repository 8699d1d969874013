"""The one error type a user can cause; every front end catches it and nothing broader.

Each module's own error (SettingsError, TokenizerFileError, FormatError, TextError, ...)
is a `UserInputError`, whose message is one sentence naming what was wrong. Any other
exception is a bug, and the command line lets it show as one.

>>> issubclass(TextError, UserInputError) and issubclass(UserInputError, ValueError)
True
"""


class UserInputError(ValueError):
    """Input the person can fix: a setting, a file, a text or an id. The message says what and how."""


class TextError(UserInputError):
    """Text that is not Unicode text: invalid UTF-8 bytes, or a lone surrogate (which UTF-8 cannot hold)."""


def lone_surrogate(char: str) -> TextError:
    """The error for a lone surrogate found in a text.

    >>> str(lone_surrogate("\\udcff"))
    'the text has a lone surrogate (U+DCFF), which is not a Unicode character: UTF-8 cannot encode it'
    """
    return TextError(f"the text has a lone surrogate (U+{ord(char):04X}), which is not a Unicode character: "
                     "UTF-8 cannot encode it")
