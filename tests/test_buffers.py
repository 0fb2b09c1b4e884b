"""bleukit.core.buffers: integers as typed buffers, uncopied where they
already are one."""

from array import array
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.buffers import ROW_TYPES, extend_rows, typed_buffer


def test_a_buffer_of_the_type_is_passed_as_it_is_and_others_copied():
    same = array("i", [1, 2])
    assert typed_buffer(same, "i") is same
    view = memoryview(array("q", [3])).cast("B").cast("q")
    assert typed_buffer(view, "q") is view
    copied = typed_buffer([1, 2, 3], "b")
    assert isinstance(copied, array) and copied.typecode == "b" and list(copied) == [1, 2, 3]
    assert list(typed_buffer(same, "q")) == [1, 2]


def test_a_value_that_does_not_fit_is_an_overflow():
    with pytest.raises(OverflowError):
        typed_buffer([300], "b")
    with pytest.raises(OverflowError):
        typed_buffer([2**40], "b", "i")


def test_several_types_pass_any_of_them_and_copy_to_the_first_that_fits():
    wide = memoryview(array("i", [1, 2])).cast("B").cast("i")
    assert typed_buffer(wide, "b", "i") is wide
    narrow = typed_buffer([1, -2], "b", "i")
    assert isinstance(narrow, array) and narrow.typecode == "b" and list(narrow) == [1, -2]
    widened = typed_buffer([1, 300], "b", "i")
    assert isinstance(widened, array) and widened.typecode == "i" and list(widened) == [1, 300]


@given(st.lists(st.lists(st.integers(0, 2**32 - 1) | st.integers(0, 9), min_size=1, max_size=4)))
def test_rows_take_the_narrowest_row_type_their_values_fit(rows):
    acc = array(ROW_TYPES[0])
    for row in rows:
        acc = extend_rows(acc, row)
    flat = [x for row in rows for x in row]
    assert acc.tolist() == flat
    assert acc.typecode == ("H" if all(x < 2**16 for x in flat) else "I")


def test_rows_past_the_widest_type_or_not_ints_are_refused_and_left_as_they_were():
    rows = extend_rows(array("H"), [1, 2])
    for bad, error in (([3, 2**32], OverflowError), ([3, -1], OverflowError),
                       ([3, Fraction(1, 2)], TypeError)):  # fmt: skip
        with pytest.raises(error):
            extend_rows(rows, bad)
        assert rows.tolist() == [1, 2] and rows.typecode == "H"
    # an array of rows of another type is added by value
    assert extend_rows(rows, array("q", [70_000])).tolist() == [1, 2, 70_000]
