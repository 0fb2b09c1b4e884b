"""The exact p-value of a sign-flip permutation test, where a trial flips
each of many +1 and -1 terms by a fair coin of its own: the wins (terms of
+1) and losses (-1) observed, the p-value is the probability that the
flipped sum reaches wins - losses, the upper tail of a binomial with
p = 1/2: P(K >= wins), K ~ Binomial(wins + losses, 1/2).

mt-metrics-eval's ``PairwisePermutationSigDiff`` is such a test (each pair
of items a term, its two metrics' outcomes swapped by a fair coin) and
estimates the tail from k trials; here it is computed to about 1e-11
relative error, for any number of terms (a grouping by system of 15 x 1,000
scores has millions, not grouped a hundred million).

The binomial probabilities follow Loader (2000), "Fast and Accurate
Computation of Binomial Probabilities" (R's ``dbinom``): Stirling's error
terms and the deviance ``bd0`` keep the relative error near machine
precision where log-gamma differences of numbers near 10^9 would lose
seven digits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.errors import InputError
from ..core.resampling import Draws

__all__ = ["sign_flip_p_value", "weighted_sign_flips"]

_LOG_2PI = math.log(2 * math.pi)
#: Stirling's series: log(n!) - log(sqrt(2 pi n) (n / e)^n) ~ 1/(12n) - ...
_S0, _S1, _S2, _S3, _S4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
#: a tail's sum stops at a term below this share of it
_NEGLIGIBLE = 2.0**-60


def sign_flip_p_value(wins: int, losses: int) -> float:
    """P(K >= wins), K ~ Binomial(wins + losses, 1/2): the exact p-value
    that the observed sum wins - losses of +1 and -1 terms is reached when
    each term's sign is flipped by a fair coin (1.0 for no terms)."""
    if wins < 0 or losses < 0:
        raise InputError(f"sign flips of {wins} wins and {losses} losses: expected counts")
    n = wins + losses
    if 2 * wins > n:
        return _upper_tail(wins, n)
    if wins == 0:
        return 1.0
    # P(K >= k) = 1 - P(K <= k - 1) = 1 - P(K >= n - k + 1), the binomial
    # with p = 1/2 being symmetric; here that tail is at most 1/2
    return 1.0 - _upper_tail(n - wins + 1, n)


def weighted_sign_flips(terms: Sequence[tuple[int, int, int]], draws: Draws) -> float:
    """The p-value of a sign-flip test of groups of terms, each group
    (wins, losses, size) weighing its terms 1 / size (a mean of the groups'
    shares): where every group with terms has one size, the exact tail
    ``sign_flip_p_value`` of all of them; otherwise the share of
    ``draws.count`` trials (``draws``'s generator) whose weighted sum
    reaches the observed one, a group's flipped sum 2 K - n, K the set bits
    of ``getrandbits(n)``, n its wins and losses: as exact integers over the
    least common multiple of the sizes."""
    sizes = {size for wins, losses, size in terms if wins + losses}
    if len(sizes) < 2:
        return sign_flip_p_value(sum(t[0] for t in terms), sum(t[1] for t in terms))
    common = math.lcm(*sizes)
    weighted = [(wins + losses, common // size) for wins, losses, size in terms if wins + losses]
    observed = sum((w - lo) * (common // size) for w, lo, size in terms if w + lo)
    rng = draws.rng()
    hits = 0
    for _ in range(draws.count):
        total = sum(k * (2 * rng.getrandbits(n).bit_count() - n) for n, k in weighted)
        hits += total >= observed
    return hits / draws.count if draws.count else math.nan


def _upper_tail(k: int, n: int) -> float:
    """P(K >= k) for n / 2 < k <= n: the probabilities from k up, each the
    last times (n - j) / (j + 1), which falls below 1 past the mean, so the
    sum stops once a term is negligible."""
    total, term = 0.0, _probability(k, n)
    while term > 0:
        total += term
        if term < total * _NEGLIGIBLE or k == n:
            break
        term *= (n - k) / (k + 1)
        k += 1
    return total


def _probability(k: int, n: int) -> float:
    """P(K = k), K ~ Binomial(n, 1/2) (Loader 2000; R's ``dbinom_raw``)."""
    if k in (0, n):
        return math.ldexp(1.0, -n)
    half = n / 2
    lc = _stirlerr(n) - _stirlerr(k) - _stirlerr(n - k) - _bd0(k, half) - _bd0(n - k, half)
    lf = _LOG_2PI + math.log(k) + math.log1p(-k / n)
    return math.exp(lc - 0.5 * lf)


def _stirlerr(n: int) -> float:
    """log(n!) - log(sqrt(2 pi n) (n / e)^n), for n >= 1 (Loader's series,
    from log-gamma for small n, where it loses nothing)."""
    if n <= 15:
        return math.lgamma(n + 1) - (n + 0.5) * math.log(n) + n - _LOG_2PI / 2
    nn = n * n
    if n > 500:
        return (_S0 - _S1 / nn) / n
    if n > 80:
        return (_S0 - (_S1 - _S2 / nn) / nn) / n
    if n > 35:
        return (_S0 - (_S1 - (_S2 - _S3 / nn) / nn) / nn) / n
    return (_S0 - (_S1 - (_S2 - (_S3 - _S4 / nn) / nn) / nn) / nn) / n


def _bd0(x: float, m: float) -> float:
    """The deviance x log(x / m) + m - x, by its series where x is near m
    (where the direct form cancels)."""
    if abs(x - m) < 0.1 * (x + m):
        v = (x - m) / (x + m)
        s, ej, v2 = (x - m) * v, 2 * x * v, v * v
        j = 1
        while True:
            ej *= v2
            nxt = s + ej / (2 * j + 1)
            if nxt == s:
                return s
            s = nxt
            j += 1
    return x * math.log(x / m) + m - x
