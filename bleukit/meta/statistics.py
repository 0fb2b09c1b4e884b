"""The statistics of the WMT metrics task, as pure functions of metric and
human scores, each with the paper (or program) it follows.

Scores are oriented so that higher is better on both sides: the callers
negate a lower-is-better metric (TER) or human score (MQM penalties)
first, so that agreement is always positive.

System level, over one score per system:

* ``pearson``, ``spearman``: as ``scipy.stats.pearsonr`` and ``spearmanr``
  (Spearman's rho is Pearson's r of average ranks, ``rankdata``);
* ``kendall``: Kendall's tau-b (ties adjusted, the default, as
  ``scipy.stats.kendalltau`` and mt-metrics-eval) or tau-c (Stuart's);
* ``pairwise_accuracy``: the share of system pairs that the metric orders
  as the humans do (Kocmi et al. 2021, "To Ship or Not to Ship", section
  3; a pair tied on both sides agrees, mt-metrics-eval's ``Agreement``);
* ``soft_pairwise_accuracy``: one minus the mean absolute difference
  between the humans' and the metric's p-values that one system beats
  another (Thompson et al. 2024, "Improving Statistical Significance in
  Human Evaluation of Automatic Metrics via Soft Pairwise Accuracy").

Segment level, over a matrix of one score per system and segment (an
"item"):

* ``kendall_like``: WMT's DARR Kendall-like tau (Ma et al. 2018-2019,
  Mathur et al. 2020): over the pairs of systems' translations of one item
  whose human scores differ by at least ``threshold`` (and differ at all),
  (concordant - discordant) / (concordant + discordant), a metric tie
  counting as discordant; the pairs of every item pooled (mt-metrics-eval
  ``KendallLike``, averaged by item with ``macro=False``);
* ``acc_eq``: pairwise accuracy with ties (Deutsch et al. 2023, "Ties
  Matter: Meta-Evaluating Modern Metrics with Pairwise Accuracy and Tie
  Calibration"): (concordant + tied on both sides) / all pairs, a metric
  tie being a difference of at most epsilon; ``calibrated_acc_eq`` chooses
  the epsilon that maximizes it (their tie calibration, mt-metrics-eval's
  ``tau_optimization``);
* three groupings (Deutsch et al. 2023, section 2): ``none`` (every
  system's every segment in one vector), ``item`` (per segment over the
  systems, then the mean) and ``system`` (per system over the segments,
  then the mean); a group whose statistic is undefined is left out of the
  mean (mt-metrics-eval drops NaNs).

Segment-level correlations as mt-metrics-eval computes them over segment
scores (``segment_correlation``, its ``AverageCorrelation``): Pearson's r,
Spearman's rho, Kendall's tau-b and tau-c (scipy's) and tau_23 (Deutsch et
al. 2023, its ``KendallVariants`` at epsilon 0), of the rated cells, in
each grouping; a group of fewer than two rated cells, or whose value is
undefined, left out of the mean. (``KendallVariants``' acc23 at epsilon 0
is acc_eq.)

Undefined values (a constant vector) are ``math.nan``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..core.errors import InputError

# the system-level correlations (meta.correlation), re-exported
from .correlation import kendall as kendall
from .correlation import pairwise_accuracy as pairwise_accuracy
from .correlation import pearson as pearson
from .correlation import ranks as ranks
from .correlation import spearman as spearman
from .correlation import tau_of

# the pair counts (pairs), re-exported: the statistics are made of them
from .pairs import PairRow as PairRow
from .pairs import Pairs as Pairs
from .pairs import calibrated_epsilon, rated
from .pairs import darr_pairs as darr_pairs
from .pairs import epsilon_pairs as epsilon_pairs
from .pairs import pair_counts as pair_counts

nan = math.nan
Vector = Sequence[float]
#: scores by system (rows) and segment (columns)
Matrix = Sequence[Sequence[float]]

#: the groupings of segment-level statistics
GROUPINGS = ("none", "item", "system")


def mean(values: Iterable[float]) -> float:
    """The mean of the values that are not NaN (NaN for none)."""
    kept = [v for v in values if not math.isnan(v)]
    return math.fsum(kept) / len(kept) if kept else nan


def soft_pairwise_accuracy(
    metric_p: Sequence[Sequence[float]], human_p: Sequence[Sequence[float]]
) -> float:
    """1 - the mean over system pairs i < j of |p_metric(i > j) -
    p_human(i > j)| (Thompson et al. 2024; the p-values of one-sided
    paired permutation tests, ``[i][j]`` for i < j; a pair without them,
    NaN, rated on no segment in common, left out)."""
    n = len(human_p)
    diffs = [abs(metric_p[i][j] - human_p[i][j]) for i in range(n) for j in range(i + 1, n)]
    diffs = [d for d in diffs if not math.isnan(d)]
    return 1 - math.fsum(diffs) / len(diffs) if diffs else nan


# ----------------------------------------------------------- segment level


def groups(metric: Matrix, human: Matrix, by: str) -> list[tuple[list[float], list[float]]]:
    """The (metric, human) vectors of a grouping (``GROUPINGS``)."""
    if by not in GROUPINGS:
        raise InputError(f"grouping {by!r}: expected one of {', '.join(GROUPINGS)}")
    if len(metric) != len(human) or any(len(a) != len(b) for a, b in zip(metric, human)):
        raise InputError("metric and human scores must be matrices of one shape")
    if by == "none":
        return [(list(itertools.chain(*metric)), list(itertools.chain(*human)))]
    if by == "system":
        return [(list(m), list(h)) for m, h in zip(metric, human)]
    return [(list(m), list(h)) for m, h in zip(zip(*metric), zip(*human))]


def grouped(
    metric: Matrix, human: Matrix, by: str, statistic: Callable[[Vector, Vector], float]
) -> float:
    """A vector statistic under a grouping: of the one vector, or the mean
    over the groups where it is defined."""
    return mean(statistic(m, h) for m, h in groups(metric, human, by))


#: the correlations ``segment_correlation`` computes, by name: each over a
#: group's (metric, human) vectors, given their pair counts
SEGMENT_CORRELATIONS: dict[str, Callable[[Vector, Vector, Pairs], float]] = {
    "pearson": lambda m, h, p: pearson(m, h),
    "spearman": lambda m, h, p: spearman(m, h),
    "kendall_b": lambda m, h, p: tau_of(p, m, h, "b"),
    "kendall_c": lambda m, h, p: tau_of(p, m, h, "c"),
    "tau_23": lambda m, h, p: tau_of(p, m, h, "23"),
}


def segment_correlation(
    metric: Matrix,
    human: Matrix,
    name: str,
    by: str,
    count: Callable[[Vector, Vector], Pairs] = pair_counts,
) -> float:
    """A correlation of ``SEGMENT_CORRELATIONS`` between segment scores,
    grouped ``by`` (``GROUPINGS``) as mt-metrics-eval's ``AverageCorrelation``
    groups (``average_by``: none, item, sys), over the rated (not NaN)
    cells; the mean over the groups where it is defined (``count``: the
    pair counts, a kernel's)."""
    f = SEGMENT_CORRELATIONS[name]
    values = []
    for m, h in groups(metric, human, by):
        m, h = rated(m, h)
        if len(m) >= 2:
            pairs = count(m, h) if name not in ("pearson", "spearman") else Pairs()
            values.append(f(m, h, pairs))
    return mean(values)


def kendall_like(metric: Matrix, human: Matrix, threshold: float) -> float:
    """WMT's Kendall-like tau, the DARR pairs of every item pooled."""
    counts = [darr_pairs(m, h, threshold) for m, h in groups(metric, human, "item")]
    con, dis = sum(c for c, _ in counts), sum(d for _, d in counts)
    return (con - dis) / (con + dis) if con + dis else nan


def acc_eq(pairs: Pairs) -> float:
    """(concordant + tied on both sides) / all pairs (Deutsch et al. 2023)."""
    return row_acc_eq(pairs.row())


def row_acc_eq(row: PairRow) -> float:
    """``acc_eq`` of a ``Pairs``' row."""
    con, dis, tie_metric, tie_human, tie_both = row
    total = con + dis + tie_metric + tie_human + tie_both
    return (con + tie_both) / total if total else nan


@dataclass(frozen=True)
class Calibrated:
    """acc_eq at the epsilon that maximizes it (the smallest such)."""

    value: float
    epsilon: float


def calibrated_acc_eq(vectors: Sequence[tuple[Vector, Vector]]) -> Calibrated:
    """Tie calibration (Deutsch et al. 2023, section 5): the mean of
    ``acc_eq`` over the groups, at every epsilon where a metric pair
    becomes tied (0 first), and the epsilon that maximizes it
    (``pairs.calibrate``); the value at that epsilon counted again
    exactly."""
    epsilon = calibrated_epsilon(vectors)
    value = mean(acc_eq(epsilon_pairs(m, h, epsilon)) for m, h in vectors)
    return Calibrated(value, epsilon)
