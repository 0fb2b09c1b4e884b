from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.reflen import (
    REF_LENGTHS,
    average,
    closest,
    closest_first,
    mean_length,
    mean_of,
    shortest,
    sum_lengths,
)


@pytest.mark.parametrize(
    ("hyp", "refs", "expected"),
    [(10, [8, 12], 8), (10, [12, 8], 8), (10, [9, 13], 9), (10, [10, 3], 10), (0, [5, 7], 5)],
)
def test_closest_ties_go_to_the_shorter(hyp, refs, expected):
    assert closest(hyp, refs) == expected


@pytest.mark.parametrize(
    ("hyp", "refs", "expected"),
    [(10, [8, 12], 8), (10, [12, 8], 12), (10, [9, 13], 9), (10, [13, 11, 9], 11), (0, [7, 5], 5)],
)
def test_closest_first_ties_go_to_the_first_listed(hyp, refs, expected):
    assert closest_first(hyp, refs) == expected


def test_shortest_and_average():
    assert shortest(10, [12, 9, 30]) == 9
    assert average(10, [1, 2]) == Fraction(3, 2)


def test_registered_policies():
    assert REF_LENGTHS.names() == ["average.v1", "closest-first.v1", "closest.v1", "shortest.v1"]
    assert REF_LENGTHS.get("closest") is closest


LENGTH = st.one_of(
    st.integers(0, 10**6), st.builds(Fraction, st.integers(0, 10**6), st.integers(1, 4))
)


@given(st.lists(LENGTH, max_size=30))
def test_sum_lengths_is_sums_exact_sum_and_type(lengths):
    total = sum_lengths(lengths)
    assert total == sum(lengths)
    assert type(total) is type(sum(lengths))


def test_mean_of_is_exact():
    assert mean_of(6, 3) == 2 and type(mean_of(6, 3)) is int
    assert mean_of(7, 3) == Fraction(7, 3)
    assert mean_length([["a"], ["a", "b"]]) == Fraction(3, 2)
