"""bleukit.core.buffers: integers as typed buffers, uncopied where they
already are one."""

from array import array

import pytest

from bleukit.core.buffers import typed_buffer


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
