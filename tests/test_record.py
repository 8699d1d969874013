"""Record, the frozen dataclass stand-in of the classes every command loads (`bpe/record.py`)."""
import copy
import functools
import pickle

import pytest

from bpe.encoding.alphabet import Alphabet
from bpe.options import PRETOKENIZER, TIE, Pretokenizer, TieRule
from bpe.record import Record
from bpe.settings import Settings, SettingsError


class Base(Record):
    name: str
    size: int = 1


class Child(Base):
    colour: str = "red"
    action: object = None

    @functools.cached_property
    def twice(self) -> int:
        return self.size * 2


def test_a_subclass_adds_its_fields_after_its_parents():
    assert Base.fields == ("name", "size")
    assert Child.fields == ("name", "size", "colour", "action")
    assert Child("a", 2, colour="blue").as_dict() == {"name": "a", "size": 2, "colour": "blue", "action": None}


@pytest.mark.parametrize("args, kwargs, says", [
    ((), {}, "needs a value for name"),
    (("a",), {"name": "b"}, "two values for 'name'"),
    (("a",), {"shape": 1}, "unexpected keyword argument 'shape'"),
    (("a", 1, "c", None, 5), {}, "at most 4 positional arguments"),
])
def test_wrong_arguments_are_a_type_error(args, kwargs, says):
    with pytest.raises(TypeError, match=says):
        Child(*args, **kwargs)


def test_a_record_is_frozen_and_replace_makes_a_new_one():
    record = Child("a")
    with pytest.raises(AttributeError, match="frozen"):
        record.size = 3
    with pytest.raises(AttributeError, match="frozen"):
        del record.size
    changed = record.replace(size=3)
    assert (record.size, changed.size, changed.name) == (1, 3, "a")


def test_equality_and_hashing_go_by_type_and_fields():
    assert Child("a") == Child("a") and hash(Child("a")) == hash(Child("a"))
    assert Child("a") != Child("b")
    assert Base("a") != Child("a")  # same values, another type
    assert len({Settings(), Settings(), Settings(tie="largest-text")}) == 2


def test_a_function_given_as_a_value_stays_a_plain_function():
    def act():
        return "done"
    assert Child("a", action=act).action() == "done"
    assert TIE.choose("smallest").key([])(1, 2) == (1, 2)


def test_cached_properties_work_on_a_frozen_record():
    record = Child("a", 4)
    assert record.twice == 8 and record.twice == 8
    assert record == Child("a", 4)  # the cached value is no field
    assert Alphabet("bytes").byte_level is True


def test_settings_check_themselves_when_made_and_when_replaced():
    with pytest.raises(SettingsError, match="tie"):
        Settings(tie="random")
    with pytest.raises(SettingsError, match="specials"):
        Settings(alphabet="bytes", specials="octlm").replace(alphabet="chars")
    assert Settings().replace(min_frequency=1).to_dict()["min_frequency"] == 1


@pytest.mark.parametrize("value", [Settings(tie="largest-text", merges=5), Alphabet("chars", "ab")])
def test_records_survive_pickling_and_copying(value):
    """The trainer's worker processes receive settings and alphabets pickled."""
    for twin in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert twin == value and twin is not value and repr(twin) == repr(value)


def test_option_values_keep_their_own_fields():
    kinds = PRETOKENIZER.choose("kinds")
    assert isinstance(kinds, Pretokenizer) and kinds.lone_spaces and kinds.stand_ins["N"] == "0"
    assert PRETOKENIZER.choose("none").stand_ins == {} and PRETOKENIZER.choose("none").pattern is None
    assert isinstance(TIE.choose("largest-text"), TieRule)
    assert repr(Settings()) == ("Settings(alphabet='bytes', pretokenizer='kinds', tie='smallest', min_frequency=2, "
                                "merges=None, vocab_size=None, specials='none')")
