"""core.record: a Record behaves as the frozen dataclass written the same way."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.record import FrozenInstanceError, Record, field, fields, has_fields, replace


class Point(Record):
    x: int
    y: str
    z: float = 0.5
    tags: tuple[str, ...] = field(default_factory=tuple)
    note: str = field(default="", compare=False, repr=False)
    scale: ClassVar[int] = 3


@dataclasses.dataclass(frozen=True)
class DataPoint:
    x: int
    y: str
    z: float = 0.5
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    note: str = dataclasses.field(default="", compare=False, repr=False)
    scale: ClassVar[int] = 3


class Labelled(Point, kw_only=True):
    label: str


class Checked(Record):
    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("negative")


class Identity(Record, eq=False):
    value: int


values = st.tuples(
    st.integers(-5, 5),
    st.text(max_size=3),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=2), max_size=2).map(tuple),
    st.text(max_size=2),
)


@given(values, values)
def test_a_record_compares_hashes_and_prints_as_the_dataclass(a, b):
    ra, rb = Point(*a[:4], note=a[4]), Point(*b[:4], note=b[4])
    da, db = DataPoint(*a[:4], note=a[4]), DataPoint(*b[:4], note=b[4])
    assert (ra == rb) == (da == db)
    assert hash(ra) == hash(da)
    assert repr(ra).removeprefix("Point") == repr(da).removeprefix("DataPoint")
    assert [f.name for f in fields(ra)] == [f.name for f in dataclasses.fields(da)]
    assert replace(ra, x=a[0] + 1) == Point(a[0] + 1, *a[1:4]) and replace(ra) == ra
    assert pickle.loads(pickle.dumps(ra)) == ra == copy.deepcopy(ra)


def test_init_takes_what_the_dataclass_takes():
    assert Point(1, "a") == Point(x=1, y="a") == Point(1, y="a", z=0.5)
    assert Point(1, "a").tags == () and Point.z == 0.5 and Point.scale == 3
    assert "scale" not in {f.name for f in fields(Point)}
    for args, kwargs, message in [
        ((1,), {}, "missing required argument: 'y'"),
        ((1, "a", 0.5, (), "", 9), {}, "takes 5 positional arguments but 6 were given"),
        ((1, "a"), {"w": 1}, "unexpected keyword argument 'w'"),
        ((1, "a"), {"x": 1}, "multiple values for argument 'x'"),
    ]:
        with pytest.raises(TypeError, match=message):
            Point(*args, **kwargs)


def test_kw_only_fields_come_last_and_take_keywords_only():
    made = Labelled(1, "a", label="b")
    assert [f.name for f in fields(made)][-1] == "label" and made.label == "b"
    with pytest.raises(TypeError, match="takes 5 positional"):
        Labelled(1, "a", 0.5, (), "", "b")
    assert Labelled(1, "a", label="b") != Point(1, "a")


def test_a_record_is_frozen():
    p = Point(1, "a")
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del p.y
    assert isinstance(FrozenInstanceError(), AttributeError)


def test_post_init_runs_on_every_construction():
    assert Checked(1).value == 1
    with pytest.raises(ValueError, match="negative"):
        Checked(-1)
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), value=-1)


def test_eq_false_keeps_identity():
    a, b = Identity(1), Identity(1)
    assert a != b and a == a and hash(a) != hash(b)


def test_a_required_field_after_a_default_is_refused():
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        class Bad(Record):
            a: int = 0
            b: int


def test_fields_and_replace_take_a_dataclass_too():
    d = DataPoint(1, "a")
    assert has_fields(DataPoint) and has_fields(Point) and not has_fields(int)
    assert [f.name for f in fields(DataPoint)] == ["x", "y", "z", "tags", "note"]
    assert replace(d, x=2) == DataPoint(2, "a")
    with pytest.raises(TypeError, match="has no field 'w'"):
        replace(Point(1, "a"), w=1)
    with pytest.raises(ValueError, match="not both"):
        field(default=1, default_factory=int)


@pytest.mark.skipif(sys.version_info < (3, 13), reason="copy.replace is Python 3.13's")
def test_copy_replace():
    assert copy.replace(Point(1, "a"), y="b") == Point(1, "b")  # type: ignore[attr-defined]
