"""bleukit/core/float32.py: float32 arithmetic and NumPy's pairwise sums
without NumPy, against NumPy's sums recorded in
tests/golden/numpy_draws.json (tests/golden/make_numpy_golden.py) and, where
NumPy is installed (tox -e oracle requires it), against NumPy 2 itself on
values Hypothesis draws."""

from __future__ import annotations

import json
import math
import operator
import statistics
import warnings
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.core.float32 import F32, pairwise_sum, to_f32

GOLDEN = json.loads((Path(__file__).parent / "golden" / "numpy_draws.json").read_text("utf-8"))


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["sums"], ids=lambda c: f"{len(c['values'])}-{c['float32']}")
def test_pairwise_sums_and_means_equal_numpys(case):
    values, single = case["values"], case["float32"]
    total = pairwise_sum(values, single)
    assert total == case["sum"]
    n = len(values)
    mean = to_f32(total / to_f32(float(n))) if single else total / n
    assert mean == case["mean"]


def test_the_golden_sums_tell_pairwise_from_sequential():
    """The recorded float32 sum of 3,000 values is not the sequential one:
    the golden case would catch a sum in the wrong order."""
    (case,) = [c for c in GOLDEN["sums"] if len(c["values"]) == 3000]
    sequential = 0.0
    for x in case["values"]:
        sequential = to_f32(sequential + x)
    assert sequential != case["sum"]


def test_numpy_2s_promotion_rules():
    """NEP 50: a Python number is weak, converted to float32 first."""
    x = F32(0.1)
    assert x == 0.1 and x.value != 0.1 and not x > 0.1
    assert isinstance(100.0 * x, F32) and isinstance(x / 3, F32) and isinstance(3 - x, F32)
    assert (100.0 * x).value == to_f32(to_f32(100.0) * x.value)
    assert float(F32(1) / 0) == math.inf and math.isnan(float(F32(0) / 0))
    assert float(F32(-2) / 0) == -math.inf
    assert to_f32(1e39) == math.inf and to_f32(-1e39) == -math.inf
    assert f"{F32(0.1):.3f}" == "0.100" and int(F32(2.7)) == 2 and bool(F32(0)) is False
    # statistics.mean reads the exact ratio and gives back a float32
    mean = statistics.mean([F32(1), F32(2), F32(4)])
    assert isinstance(mean, F32) and mean == F32(Fraction(7, 3))


NUMBERS = st.one_of(
    st.floats(allow_nan=False, width=32),
    st.floats(-1e6, 1e6),
    st.integers(0, 2**30),
    st.sampled_from([0, 0.0, -0.0, 1, 100.0]),
)
OPS = [operator.add, operator.sub, operator.mul, operator.truediv]
COMPARISONS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


@settings(max_examples=2000, deadline=None)
@given(NUMBERS, NUMBERS, st.sampled_from(OPS), st.sampled_from(COMPARISONS), st.integers(0, 2))
def test_arithmetic_and_comparisons_equal_numpys(numpy, a, b, op, compare, kind):
    np = numpy
    fa = np.float32(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns where it divides by 0
        if kind == 0:
            expected, got = op(fa, np.float32(b)), op(F32(a), F32(b))
        elif kind == 1:
            expected, got = op(fa, b), op(F32(a), b)
        else:
            expected, got = op(b, fa), op(b, F32(a))
    assert isinstance(expected, np.float32) and isinstance(got, F32)
    assert float(expected) == float(got) or (math.isnan(expected) and math.isnan(float(got)))
    assert bool(compare(fa, b)) == compare(F32(a), b)
    assert bool(compare(b, fa)) == compare(b, F32(a))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(0, 1e7), max_size=600), st.booleans())
def test_pairwise_sums_equal_numpys_live(numpy, values, single):
    np = numpy
    array = np.array(values, dtype=np.float32 if single else np.float64)
    assert pairwise_sum(array.tolist(), single) == float(array.sum())
