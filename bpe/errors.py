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


class SettingsError(UserInputError):
    """A setting, or a combination of settings, that cannot work.

    It names its option (a `Settings` field) and keeps the sentence with a place for the
    option's name, so each front end says it in its own words: `str()` gives the command
    line's (`--min-frequency ...`), `render` another's.

    >>> error = SettingsError("min_frequency", "{option} must be at least 1, not 0")
    >>> str(error), error.render({"min_frequency": "minimum count"}.get)
    ('--min-frequency must be at least 1, not 0', 'minimum count must be at least 1, not 0')
    """

    def __init__(self, option: str, template: str, *others: str):
        self.option, self.template, self.others = option, template, others
        super().__init__(self.render(lambda field: "--" + field.replace("_", "-")))

    @staticmethod
    def shown(value) -> str:
        """A value as the sentence shows it, safe inside the template (braces doubled)."""
        return repr(value).replace("{", "{{").replace("}", "}}")

    def render(self, name_of) -> str:
        """The sentence with each option named by `name_of(field)`."""
        names = [name_of(field) for field in (self.option, *self.others)]
        return self.template.format(option=names[0], *names[1:])
