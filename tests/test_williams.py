"""bleukit/meta/williams.py: Student's t tail against the closed forms of
1, 2 and 3 degrees of freedom, the Williams test worked by hand (tests_scipy
checks both against scipy), and the systems a difference would need."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.meta.williams import MAX_ITEMS, incomplete_beta, items_needed, t_sf, williams_p

T = st.floats(-60, 60, allow_nan=False)


def cauchy(t):
    return 0.5 - math.atan(t) / math.pi


def two(t):
    return 0.5 - t / (2 * math.sqrt(2 + t * t))


def three(t):
    u = t / math.sqrt(3)
    return 0.5 - (math.atan(u) + u / (1 + u * u)) / math.pi


@given(T)
def test_t_tail_has_the_closed_forms_of_few_degrees_of_freedom(t):
    for df, exact in ((1, cauchy), (2, two), (3, three)):
        assert t_sf(t, df) == pytest.approx(exact(t), abs=1e-14, rel=1e-12), df


def test_t_tail_edges():
    assert t_sf(0.0, 7) == 0.5
    assert t_sf(math.inf, 3) == 0.0 and t_sf(-math.inf, 3) == 1.0
    assert math.isnan(t_sf(math.nan, 3))
    assert incomplete_beta(2.0, 3.0, 0.0) == 0.0 and incomplete_beta(2.0, 3.0, 1.0) == 1.0
    # I_x(1, 1) = x; I_x(a, 1) = x^a
    assert incomplete_beta(1.0, 1.0, 0.3) == pytest.approx(0.3, abs=1e-15)
    assert incomplete_beta(3.0, 1.0, 0.7) == pytest.approx(0.343, abs=1e-15)


def test_williams_by_hand():
    r12, r13, r23, n = 0.9, 0.8, 0.85, 6
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23))
    t /= math.sqrt(2 * (n - 1) / (n - 3) * k + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
    assert williams_p(r12, r13, r23, n) == pytest.approx(three(t), abs=1e-14)
    # symmetric in the two correlations, one-sided on |t|
    assert williams_p(r13, r12, r23, n) == williams_p(r12, r13, r23, n)
    assert williams_p(0.7, 0.7, 0.5, 10) == 0.5
    assert math.isnan(williams_p(0.9, 0.8, 0.85, 3)) and math.isnan(williams_p(math.nan, 1, 1, 9))
    # the two metrics are one: nothing separates them
    assert williams_p(0.8, 0.8, 1.0, 9) == 1.0


def test_systems_needed_are_the_fewest_that_separate():
    n = items_needed(0.971, 0.912, 0.95, 0.05)
    assert n is not None
    assert williams_p(0.971, 0.912, 0.95, n) <= 0.05 < williams_p(0.971, 0.912, 0.95, n - 1)
    assert items_needed(0.5, 0.5, 0.3, 0.05) is None
    assert items_needed(math.nan, 0.5, 0.3, 0.05) is None
    # a difference too small for any study of up to MAX_ITEMS systems
    assert items_needed(0.5, 0.5 - 1e-9, 0.1, 0.05) is None
    assert williams_p(0.5, 0.5 - 1e-9, 0.1, MAX_ITEMS) > 0.05
