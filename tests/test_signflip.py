"""bleukit/meta/signflip.py: the exact sign-flip p-value against
exact rational binomial tails, and its edges."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.core.errors import InputError
from bleukit.core.resampling import Draws
from bleukit.meta.signflip import sign_flip_p_value, weighted_sign_flips


def exact_tail(wins: int, losses: int) -> Fraction:
    n = wins + losses
    return Fraction(sum(comb(n, k) for k in range(wins, n + 1)), 2**n)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 600), st.integers(0, 600))
def test_p_values_are_the_exact_binomial_tails(wins, losses):
    expected = exact_tail(wins, losses)
    got = sign_flip_p_value(wins, losses)
    assert abs(Fraction(got) - expected) <= expected * Fraction(1, 10**12)


def test_every_tail_of_small_counts_and_the_edges():
    for n in range(0, 60):
        for wins in range(n + 1):
            expected = exact_tail(wins, n - wins)
            assert abs(Fraction(sign_flip_p_value(wins, n - wins)) - expected) <= expected * 1e-13
    assert sign_flip_p_value(0, 0) == 1.0
    assert sign_flip_p_value(0, 10**8) == 1.0
    # all of a hundred million wins: 2**-1e8 is below every float
    assert sign_flip_p_value(10**8, 0) == 0.0
    # one more win than losses of an odd count: exactly half the outcomes
    assert sign_flip_p_value(50_000_001, 50_000_000) == pytest.approx(0.5, rel=1e-12)


def test_many_terms_agree_with_the_normal_approximation():
    # a hundred million terms, 2 standard deviations up: close to 1 - Phi(2)
    n = 10**8
    sd = n**0.5 / 2
    p = sign_flip_p_value(n // 2 + int(2 * sd), n // 2 - int(2 * sd))
    assert p == pytest.approx(0.0227501, rel=1e-3)


def test_negative_counts_are_refused():
    with pytest.raises(InputError, match="expected counts"):
        sign_flip_p_value(-1, 3)


def test_groups_of_one_size_are_the_exact_tail():
    draws = Draws.from_seed(1, 10, 0)
    terms = [(5, 2, 10), (3, 4, 10), (0, 0, 3)]
    assert weighted_sign_flips(terms, draws) == sign_flip_p_value(8, 6)
    assert weighted_sign_flips([], draws) == 1.0


def test_groups_of_other_sizes_are_drawn():
    """Groups weighing their terms 1 / size: trials from the draws'
    generator, close to the exact distribution enumerated here."""
    import itertools

    terms = [(3, 1, 2), (1, 2, 3)]  # weights 3 and 2 over 6
    observed = 3 * (3 - 1) + 2 * (1 - 2)
    signs = list(itertools.product((1, -1), repeat=7))
    exact = sum(3 * sum(s[:4]) + 2 * sum(s[4:]) >= observed for s in signs) / len(signs)
    p = weighted_sign_flips(terms, Draws.from_seed(1, 20000, 7))
    assert p == pytest.approx(exact, abs=0.015)
    assert p == weighted_sign_flips(terms, Draws.from_seed(1, 20000, 7))
