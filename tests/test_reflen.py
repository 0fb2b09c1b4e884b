from fractions import Fraction

import pytest

from bleukit.core.reflen import REF_LENGTHS, average, closest, closest_first, shortest


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
