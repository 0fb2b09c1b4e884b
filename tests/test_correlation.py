"""bleukit/meta/correlation.py: PERM-BOTH's system-level trials, by hand
(the statistics themselves: tests/test_statistics.py, and against scipy in
tests_scipy)."""

from __future__ import annotations

import pytest

from bleukit.core.errors import InputError
from bleukit.core.resampling import Draws
from bleukit.meta.correlation import SYSTEM_STATISTICS, swapped, system_swaps


def test_swapped_exchanges_the_cells_whose_bit_is_set():
    assert swapped([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], 0b101) == ([4.0, 2.0, 6.0], [1.0, 5.0, 3.0])
    assert swapped([1.0], [2.0], 0) == ([1.0], [2.0])


@pytest.mark.parametrize("statistic", list(SYSTEM_STATISTICS))
def test_trials_are_counted_from_the_draws_bits(statistic):
    a, b = [0.1, 0.4, 0.2, 0.9, 0.5], [0.3, 0.1, 0.6, 0.8, 0.7]
    human = [1.0, 2.0, 3.0, 4.0, 5.0]
    f = SYSTEM_STATISTICS[statistic]
    draws = Draws.from_seed(5, 50, 3)
    rng = draws.rng()
    observed = f(b, human) - f(a, human)
    expected = 0
    for _ in range(50):
        bits = rng.getrandbits(5)
        x = [bv if bits >> k & 1 else av for k, (av, bv) in enumerate(zip(a, b))]
        y = [av if bits >> k & 1 else bv for k, (av, bv) in enumerate(zip(a, b))]
        expected += f(y, human) - f(x, human) >= observed
    assert system_swaps(a, b, human, statistic, draws) == expected
    # a variant against itself: every trial reaches the observed 0
    assert system_swaps(a, a, human, statistic, draws) == 50


def test_unknown_statistics_and_lengths_are_refused():
    draws = Draws.from_seed(2, 5, 1)
    with pytest.raises(InputError, match="expected one of pearson"):
        system_swaps([1.0, 2.0], [2.0, 1.0], [1.0, 2.0], "tau", draws)
    with pytest.raises(InputError, match="2 metric scores for 3 human scores"):
        system_swaps([1.0, 2.0], [2.0, 1.0], [1.0, 2.0, 3.0], "pearson", draws)


def test_pearson_of_tiny_or_huge_values_scales_before_squaring():
    """Squares of 1e-255 underflow to 0 and of 1e200 overflow: the norms
    are scaled first, as scipy's are, so these are perfectly correlated."""
    from bleukit.meta.correlation import pearson

    assert pearson([0.0, 1.0], [0.0, 1e-255]) == pytest.approx(1.0, abs=1e-12)
    assert pearson([0.0, 1.0, 2.0], [1e200, 0.0, -1e200]) == pytest.approx(-1.0, abs=1e-12)
    assert pearson([0.0, 1.0, 3.0], [0.0, 1.0, 3.0]) == pytest.approx(1.0, abs=1e-12)
