"""Frozen records without `dataclasses`, for the classes every command loads.

A one-word `bpe encode` loads about a dozen small frozen classes (the options, `Settings`,
`Alphabet`, a loaded file). As dataclasses they cost a tenth of the whole command's time:
`dataclasses` imports `inspect`, and writes each class's methods with `exec`. A Record
does what a frozen dataclass did for them, with plain methods:
- its fields are the class's annotations, in order; a subclass adds its own after its
  parents' (so a parent's fields come first, as positional arguments too);
- a field's default is the value the class body gives it;
- `__post_init__` checks the new record (raise there to refuse it);
- equality, hashing and repr go by the fields; `replace` and `as_dict` read them.

Classes only training loads (the corpus, the language passages) stay dataclasses.

>>> class Point(Record):
...     x: int
...     y: int = 0
>>> Point(1), Point(1, y=2) == Point(1, 2), Point(1).replace(y=3).y, Point.fields
(Point(x=1, y=0), True, 3, ('x', 'y'))
>>> Point(1).x = 2
Traceback (most recent call last):
...
AttributeError: Point is frozen: use replace(x=...)
>>> Point(y=2)
Traceback (most recent call last):
...
TypeError: Point() needs a value for x
"""
from __future__ import annotations


class Record:
    #: The field names, in order (set for each subclass).
    fields: tuple[str, ...] = ()
    _defaults: dict = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        own = [name for name in cls.__annotations__ if name not in cls.fields]  # its own, from Python 3.10
        # Read from the class body itself: through the class, a default function would come back bound.
        cls._defaults = {**cls._defaults, **{name: cls.__dict__[name] for name in own if name in cls.__dict__}}
        cls.fields = (*cls.fields, *own)

    def __init__(self, *args, **kwargs) -> None:
        name, fields = type(self).__name__, self.fields
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes at most {len(fields)} positional arguments, not {len(args)}")
        values = {**self._defaults, **dict(zip(fields, args))}
        for field, value in kwargs.items():
            if field not in fields:
                raise TypeError(f"{name}() got an unexpected keyword argument {field!r}")
            if fields.index(field) < len(args):
                raise TypeError(f"{name}() got two values for {field!r}")
            values[field] = value
        for field in fields:
            if field not in values:
                raise TypeError(f"{name}() needs a value for {field}")
        self.__dict__.update((field, values[field]) for field in fields)
        self.__post_init__()

    def __post_init__(self) -> None:
        """Check the new record; a subclass raises here to refuse it."""

    def __setattr__(self, field: str, value) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: use replace({field}=...)")

    def __delattr__(self, field: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def _values(self) -> tuple:
        return tuple(map(self.__dict__.__getitem__, self.fields))

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{field}={value!r}" for field, value in zip(self.fields, self._values()))
        return f"{type(self).__name__}({shown})"

    def as_dict(self) -> dict:
        """The fields and their values, in order."""
        return dict(zip(self.fields, self._values()))

    def replace(self, **changes):
        """A copy with some fields changed (and checked again)."""
        return type(self)(**{**self.as_dict(), **changes})
