"""The system-level statistics of meta-evaluation (``meta.statistics``
names the papers), as pure functions of two score vectors, and PERM-BOTH's
trials over them: the reference of ``kernels.MetaKernels.system_swaps``."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from ..core.errors import InputError
from ..core.resampling import Draws
from .pairs import Pairs, pair_counts
from .pairs import check as _check

nan = math.nan
Vector = Sequence[float]


def pearson(x: Vector, y: Vector) -> float:
    """Pearson's r (``scipy.stats.pearsonr``); NaN for fewer than two
    values or a constant vector."""
    _check(x, y)
    n = len(x)
    # a constant vector (told by its values, not by a mean that rounding
    # may put beside them) has no correlation, as in scipy
    if n < 2 or min(x) == max(x) or min(y) == max(y):
        return nan
    mx, my = math.fsum(x) / n, math.fsum(y) / n
    dx, dy = [v - mx for v in x], [v - my for v in y]
    sx, sy = _norm(dx), _norm(dy)
    if sx == 0 or sy == 0:
        return nan
    r = math.fsum((a / sx) * (b / sy) for a, b in zip(dx, dy))
    return max(-1.0, min(1.0, r))


#: the magnitudes whose squares neither underflow nor overflow
_SQUARES_SAFE = (1e-150, 1e150)


def _norm(values: Vector) -> float:
    """The Euclidean norm; of values so small (or large) that their squares
    would underflow (overflow), scaled by the largest first, as scipy's
    ``linalg.norm`` (LAPACK's nrm2) does."""
    top = max(abs(v) for v in values)
    if _SQUARES_SAFE[0] < top < _SQUARES_SAFE[1]:
        return math.sqrt(math.fsum(v * v for v in values))
    if top == 0:
        return 0.0
    return top * math.sqrt(math.fsum((v / top) * (v / top) for v in values))


def ranks(values: Vector) -> list[float]:
    """1-based ranks, ties given the mean of their ranks
    (``scipy.stats.rankdata(method="average")``)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(x: Vector, y: Vector) -> float:
    """Spearman's rho: Pearson's r of the average ranks."""
    _check(x, y)
    return pearson(ranks(x), ranks(y))


def kendall(metric: Vector, human: Vector, variant: str = "b") -> float:
    """Kendall's tau-b or tau-c, as ``scipy.stats.kendalltau``."""
    if variant not in ("b", "c"):
        raise InputError(f"Kendall's tau variant {variant!r}: expected 'b' or 'c'")
    return tau_of(pair_counts(metric, human), metric, human, variant)


def tau_of(p: Pairs, metric: Vector, human: Vector, variant: str) -> float:
    """A variant of Kendall's tau from the vectors' pair counts, as
    mt-metrics-eval's ``KendallVariants`` computes it at epsilon 0: ``b``
    and ``c`` as scipy (NaN where one side ties every pair), ``23``
    (Deutsch et al. 2023: (concordant + tied on both sides - discordant -
    tied on one side) / all pairs) and ``acc23`` (acc_eq)."""
    n, tot = len(metric), p.total
    xtie, ytie = p.tie_metric + p.tie_both, p.tie_human + p.tie_both
    if n < 2:
        return nan
    if variant == "23":
        return (p.con + p.tie_both - p.dis - p.tie_metric - p.tie_human) / tot
    if variant == "acc23":
        return (p.con + p.tie_both) / tot
    if xtie == tot or ytie == tot:
        return nan
    if variant == "b":
        tau = (p.con - p.dis) / math.sqrt(tot - xtie) / math.sqrt(tot - ytie)
    else:
        classes = min(len(set(metric)), len(set(human)))
        tau = 2 * (p.con - p.dis) / (n**2 * (classes - 1) / classes)
    return max(-1.0, min(1.0, tau))


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def pairwise_accuracy(metric: Vector, human: Vector) -> float:
    """The share of pairs whose metric difference has the sign of the human
    one (Kocmi et al. 2021)."""
    _check(metric, human)
    pairs = list(itertools.combinations(range(len(metric)), 2))
    if not pairs:
        return nan
    agree = sum(_sign(metric[i] - metric[j]) == _sign(human[i] - human[j]) for i, j in pairs)
    return agree / len(pairs)


#: the system-level statistics by name, in the compiled kernel's order
SYSTEM_STATISTICS: dict[str, Callable[[Vector, Vector], float]] = {
    "pearson": pearson,
    "spearman": spearman,
    "kendall_b": kendall,
    "kendall_c": lambda m, h: kendall(m, h, "c"),
    "pairwise_accuracy": pairwise_accuracy,
}


def swapped(a: Sequence[float], b: Sequence[float], bits: int) -> tuple[list[float], list[float]]:
    """a and b with the cells whose bit is set exchanged (bit k: cell k)."""
    x, y = list(a), list(b)
    k = 0
    while bits:
        if bits & 1:
            x[k], y[k] = b[k], a[k]
        bits >>= 1
        k += 1
    return x, y


def system_swaps(a: Vector, b: Vector, human: Vector, statistic: str, draws: Draws) -> int:
    """PERM-BOTH's trials (Deutsch et al. 2021) of a system-level statistic:
    how many of ``draws``' trials (one cell per system, ``getrandbits``)
    give b's score vector, with the drawn cells exchanged with a's, a lead
    over a's of at least the observed one, f(b) - f(a)."""
    f = SYSTEM_STATISTICS.get(statistic)
    if f is None:
        raise InputError(f"statistic {statistic!r}: expected one of {', '.join(SYSTEM_STATISTICS)}")
    _check(a, b)
    _check(a, human)
    observed = f(b, human) - f(a, human)
    rng = draws.rng()
    count = 0
    for _ in range(draws.count):
        x, y = swapped(a, b, rng.getrandbits(len(a)))
        count += f(y, human) - f(x, human) >= observed
    return count
