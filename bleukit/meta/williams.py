"""The Williams test for two dependent correlations (Williams 1959, as
Graham & Baldwin 2014, "Testing for Significance of Increased Correlation
with Human Judgment", advocate it for MT metrics; the WMT metrics tasks
used it up to 2021): whether metric A's Pearson correlation with the
humans is higher than metric B's, given how the two metrics correlate with
each other, over the same n items. As mt-metrics-eval's ``WilliamsTest``:
one-sided, the t statistic's absolute value against Student's t with n - 3
degrees of freedom.

Student's t survival function comes from the regularized incomplete beta
function, evaluated by its continued fraction (Lentz's method), so that
the core needs no scipy; ``tests_scipy`` checks it against
``scipy.stats.t.sf``."""

from __future__ import annotations

import math

#: the continued fraction's convergence: relative change per step
_EPS = 1e-16
_TINY = 1e-300
_STEPS = 10_000


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (Abramowitz & Stegun 26.5.8),
    evaluated by the modified Lentz method; converges fast for
    x < (a + 1) / (a + b + 2)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _STEPS):
        # the even step, then the odd one
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            step = c * d
            h *= step
        if abs(step - 1.0) < _EPS:
            return h
    raise ArithmeticError(f"incomplete beta ({a}, {b}, {x}) did not converge")


def incomplete_beta(a: float, b: float, x: float, y: float | None = None) -> float:
    """The regularized incomplete beta function I_x(a, b), a, b > 0; ``y``:
    1 - x where the caller knows it more precisely than the subtraction
    (near x = 1)."""
    y = 1.0 - x if y is None else y
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
        + a * math.log(x) + b * math.log(y)
    )  # fmt: skip
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    # the symmetry I_x(a, b) = 1 - I_{1-x}(b, a), where that side converges
    return 1.0 - front * _beta_fraction(b, a, y) / b


def t_sf(t: float, df: float) -> float:
    """Student's t survival function P(T > t) with ``df`` degrees of
    freedom (scipy's ``stats.t.sf``)."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    # x = df / (df + t^2) is near 1 for a small t: 1 - x is passed as such
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t), t * t / (df + t * t))
    return tail if t > 0 else 1.0 - tail


def williams_p(r12: float, r13: float, r23: float, n: int) -> float:
    """The one-sided p-value that the correlation r12 (metric A with the
    humans) and r13 (metric B with the humans) differ, given r23 (A with B)
    over n items (mt-metrics-eval's ``WilliamsTest``); NaN where undefined
    (n < 4, or a correlation that is)."""
    if n < 4 or any(math.isnan(r) for r in (r12, r13, r23)):
        return math.nan
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    mean = (r12 + r13) / 2
    numerator = (r12 - r13) * math.sqrt((n - 1) * (1 + r23))
    squared = 2 * (n - 1) / (n - 3) * k + mean**2 * (1 - r23) ** 3
    if squared <= 0:
        # the two metrics are one (r23 = 1, and so r12 = r13): no evidence
        return 1.0 if numerator == 0 else 0.0
    return t_sf(abs(numerator / math.sqrt(squared)), n - 3)


#: the most items ``items_needed`` looks for
MAX_ITEMS = 100_000


def items_needed(r12: float, r13: float, r23: float, alpha: float) -> int | None:
    """The fewest items over which the Williams test would call correlations
    r12 and r13 (their correlation with each other r23) different at
    ``alpha``, were they observed again: how many systems a study needs to
    separate a difference of this size. None where none up to
    ``MAX_ITEMS`` would (equal correlations, or undefined ones)."""
    if any(math.isnan(r) for r in (r12, r13, r23)) or r12 == r13:
        return None

    def separates(n: int) -> bool:
        p = williams_p(r12, r13, r23, n)
        return not math.isnan(p) and p <= alpha

    if not separates(MAX_ITEMS):
        return None
    # the p-value falls as n grows: bisect on the first n that separates
    low, high = 4, MAX_ITEMS
    while low < high:
        middle = (low + high) // 2
        if separates(middle):
            high = middle
        else:
            low = middle + 1
    return low
