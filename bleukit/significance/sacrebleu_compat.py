"""sacrebleu 2.6.0's resampling with NumPy (``--compat sacrebleu``), for any
metric whose per-segment statistics are rows of numbers summed over a
corpus (BLEU's ``[hyp_len, ref_len, correct..., total...]``, chrF's triples,
TER's edits and mean reference length).

The generator calls are sacrebleu's, in its order (``significance.py``:
``_bootstrap_resample``, ``_paired_bs_test``, ``_paired_ar_test``), bootstrap
sums are float32 and randomization sums int64 as there, so p-values and
intervals equal sacrebleu's for the same rows and score functions
(deliberate compatibility quirks: float32 sums, a strict ``>`` in the
p-value count, ``n // 40`` order statistics for the interval).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.errors import MissingDependencyError
from ..core.results import Interval

#: the scores of summed rows (float32 values for bootstrap sums, ints for
#: randomization sums), one per row
RowScores = Callable[[list[list[Any]]], list[float]]
#: per-segment rows (integers, or TER's floats: ``Metric.sacrebleu_row``)
Rows = Sequence[Sequence[Any]]


def require_numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise MissingDependencyError(
            "--compat sacrebleu draws resamples with NumPy's generator, as sacrebleu does; "
            "install it with: pip install 'bleukit[numpy]'"
        ) from None
    return numpy


def estimate_ci(scores: Sequence[float]) -> Interval:
    """sacrebleu's ``Score.estimate_ci`` (single-system ``-ci``): the
    (n // 40)-th scores from each end, kept in their own type so that the
    half-width is computed as sacrebleu computes it (float32 arithmetic for
    chrF's float32 scores), and ``statistics.mean`` over the sorted scores.
    Where chrF's resamples mix NumPy float32 scores with a Python 0.0 (no
    order with n-grams on both sides), ``statistics.mean`` cannot coerce
    them and sacrebleu 2.6.0 fails with a TypeError; here the mean is taken
    over them as floats."""
    import statistics

    ordered = sorted(scores)
    n = len(ordered)
    lower = n // 40
    mixed = len({type(s) for s in ordered}) > 1
    mean = statistics.mean([float(s) for s in ordered] if mixed else ordered)
    return Interval(ordered[lower], ordered[n - lower - 1], float(mean), 0.95)


#: float32 holds every integer up to 2**24 exactly
_FLOAT32_EXACT = 2**24


def bootstrap_scores(rows: Rows, score: RowScores, idxs: Any) -> list[float]:
    """Scores of the resamples ``idxs`` (resamples x segments), each summed
    in float32 as sacrebleu's ``_bootstrap_resample`` sums them."""
    return score([list(sums) for sums in float32_sums(rows, idxs)])


def float32_sums(rows: Rows, idxs: Any) -> Any:
    """``np.array(rows, dtype="float32")[idxs].sum(axis=1)``, sacrebleu's
    float32 resample sums (deliberate compatibility quirk), bit for bit.

    Where the statistics are non-negative integers, while a resample's sum stays
    within 2**24 every partial float32 sum is exact, whatever the order of
    addition: then the sums are the exact integer sums as float32, computed
    from how often each segment is drawn (one ``bincount``, one matrix
    product in float64, exact below 2**53) instead of a resamples x segments
    x statistics gather. Larger sums, and rows of floats (TER's mean
    reference lengths), take sacrebleu's own computation."""
    np = require_numpy()
    stats = np.array(rows)
    samples, n = idxs.shape
    integers = stats.dtype.kind in "iu"
    if (
        integers
        and samples
        and n
        and int(stats.max(initial=0)) * n < _FLOAT32_EXACT
        and stats.min() >= 0
    ):
        offsets = np.arange(samples, dtype="int64")[:, None] * n
        draws = np.bincount((idxs + offsets).ravel(), minlength=samples * n)
        exact = draws.reshape(samples, n).astype("float64") @ stats.astype("float64")
        return exact.astype("float32")
    return stats.astype("float32")[idxs].sum(axis=1)


def bootstrap_draws(seed: int, segments: int, samples: int) -> Any:
    """The resample indices a fresh ``default_rng(seed)`` draws first."""
    np = require_numpy()
    return np.random.default_rng(seed).choice(segments, size=(samples, segments), replace=True)


def p_value(np: Any, stats: Any, observed: float) -> float:
    # sacrebleu's _compute_p_value, strict ">" (compatibility quirk)
    c: int = np.sum(stats > observed).item()
    return (c + 1) / (len(stats) + 1)


@dataclass(frozen=True)
class PairedOutcome:
    """One system of a paired test: its p-value (None for the baseline) and
    its resampled scores for the interval (empty: no interval)."""

    p_value: float | None
    scores: tuple[float, ...]

    def interval(self) -> Interval | None:
        """sacrebleu's ``estimate_ci`` on a NumPy array of the scores: float32
        where every score is, float64 where a resample scored a Python 0.0."""
        if not self.scores:
            return None
        np = require_numpy()
        ordered = np.sort(np.array(self.scores))
        lower = len(ordered) // 40
        return Interval(
            ordered[lower], ordered[len(ordered) - lower - 1], float(ordered.mean()), 0.95
        )


def paired(
    systems: Sequence[Rows],
    observed: Sequence[float],
    float32_score: RowScores,
    int_score: RowScores,
    test: Literal["bs", "ar"],
    samples: int,
    confidence_samples: int,
    seed: int,
) -> list[PairedOutcome]:
    """sacrebleu's ``PairedTest``: the first system is the baseline (its
    interval from a fresh generator); every other system's test starts a
    fresh generator with the same seed. ``observed``: each system's score;
    ``confidence_samples`` 0: randomization without intervals."""
    np = require_numpy()
    n = len(systems[0])
    base = systems[0]

    # every system's test draws its resamples from a fresh default_rng(seed):
    # the same resamples each time, drawn once here (and the baseline's
    # scores on them computed once)
    @functools.cache
    def resamples(count: int) -> Any:
        return bootstrap_draws(seed, n, count)

    @functools.cache
    def baseline(count: int) -> list[float]:
        return bootstrap_scores(base, float32_score, resamples(count))

    out = [PairedOutcome(None, tuple(baseline(confidence_samples) if confidence_samples else ()))]
    for rows, score in zip(systems[1:], observed[1:]):
        diff = abs(observed[0] - score)
        if test == "bs":
            sys_scores = bootstrap_scores(rows, float32_score, resamples(samples))
            bl_scores = baseline(samples)
            sample_diffs = np.abs(np.array(sys_scores) - np.array(bl_scores))
            p = p_value(np, sample_diffs - sample_diffs.mean(), diff)
        else:
            rng = np.random.default_rng(seed)
            pos_sel = rng.integers(2, size=(samples, n), dtype=bool)
            bl, sy = np.array(base), np.array(rows)
            shuf_a = (pos_sel @ bl + ~pos_sel @ sy).tolist()
            shuf_b = (~pos_sel @ bl + pos_sel @ sy).tolist()
            scores_a = np.array(int_score(shuf_a))
            scores_b = np.array(int_score(shuf_b))
            p = p_value(np, np.abs(scores_a - scores_b), diff)
            sys_scores = []
            if confidence_samples:  # drawn after the trials, from the same generator
                bs_idxs = rng.choice(n, size=(confidence_samples, n), replace=True)
                sys_scores = bootstrap_scores(rows, float32_score, bs_idxs)
        out.append(PairedOutcome(p, tuple(sys_scores)))
    return out
