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


class PairedRun:
    """sacrebleu's paired tests of ``systems`` (each a system's rows;
    ``observed``: each system's score, ``float32_score``/``int_score``: how
    sacrebleu scores summed rows). Every test starts a fresh
    ``default_rng(seed)``, so its resamples depend on the seed alone: they
    are drawn once, and each system is scored on them once, however many
    tests read them."""

    def __init__(
        self,
        systems: Sequence[Rows],
        observed: Sequence[float],
        float32_score: RowScores,
        int_score: RowScores,
        seed: int,
    ) -> None:
        self.systems, self.observed, self.seed = systems, observed, seed
        self.float32_score, self.int_score = float32_score, int_score
        self.n = len(systems[0])
        self._draws: dict[int, Any] = {}
        self._scores: dict[tuple[int, int], list[float]] = {}
        #: randomization p-values by (baseline, system, trials)
        self._randomized: dict[tuple[int, int, int], float] = {}

    def _resamples(self, count: int) -> Any:
        if count not in self._draws:
            self._draws[count] = bootstrap_draws(self.seed, self.n, count)
        return self._draws[count]

    def _bootstrap(self, system: int, count: int) -> list[float]:
        key = (system, count)
        if key not in self._scores:
            rows = self.systems[system]
            self._scores[key] = bootstrap_scores(rows, self.float32_score, self._resamples(count))
        return self._scores[key]

    def _bootstrap_p(self, a: int, b: int, count: int) -> float:
        np = require_numpy()
        diff = abs(self.observed[a] - self.observed[b])
        sample_diffs = np.abs(
            np.array(self._bootstrap(b, count)) - np.array(self._bootstrap(a, count))
        )
        return p_value(np, sample_diffs - sample_diffs.mean(), diff)

    def _randomization_p(self, a: int, b: int, samples: int) -> tuple[float, Any]:
        """The p-value of system ``b`` against baseline ``a``, and the
        generator after the trials (sacrebleu draws ``b``'s interval from it)."""
        np = require_numpy()
        rng = np.random.default_rng(self.seed)
        pos_sel = rng.integers(2, size=(samples, self.n), dtype=bool)
        bl, sy = np.array(self.systems[a]), np.array(self.systems[b])
        shuf_a = (pos_sel @ bl + ~pos_sel @ sy).tolist()
        shuf_b = (~pos_sel @ bl + pos_sel @ sy).tolist()
        scores_a = np.array(self.int_score(shuf_a))
        scores_b = np.array(self.int_score(shuf_b))
        diff = abs(self.observed[a] - self.observed[b])
        p = p_value(np, np.abs(scores_a - scores_b), diff)
        self._randomized[a, b, samples] = p
        return p, rng

    def paired(
        self, test: Literal["bs", "ar"], samples: int, confidence_samples: int
    ) -> list[PairedOutcome]:
        """sacrebleu's ``PairedTest``: the first system is the baseline (its
        interval from a fresh generator), every other is tested against it;
        ``confidence_samples`` 0: randomization without intervals."""
        base = self._bootstrap(0, confidence_samples) if confidence_samples else []
        out = [PairedOutcome(None, tuple(base))]
        for k in range(1, len(self.systems)):
            if test == "bs":
                p = self._bootstrap_p(0, k, samples)
                sys_scores = self._bootstrap(k, samples)
            else:
                p, rng = self._randomization_p(0, k, samples)
                sys_scores = []
                if confidence_samples:  # drawn after the trials, from the same generator
                    bs_idxs = rng.choice(self.n, size=(confidence_samples, self.n), replace=True)
                    sys_scores = bootstrap_scores(self.systems[k], self.float32_score, bs_idxs)
            out.append(PairedOutcome(p, tuple(sys_scores)))
        return out

    def all_pairs(self, test: Literal["bs", "ar"], samples: int) -> dict[tuple[int, int], float]:
        """For every pair (i, j), i < j, the p-value sacrebleu's ``PairedTest``
        gives system j with system i as its baseline (a test this run has
        made already is not made again)."""
        out = {}
        for i in range(len(self.systems)):
            for j in range(i + 1, len(self.systems)):
                if test == "bs":
                    out[i, j] = self._bootstrap_p(i, j, samples)
                elif (i, j, samples) in self._randomized:
                    out[i, j] = self._randomized[i, j, samples]
                else:
                    out[i, j] = self._randomization_p(i, j, samples)[0]
        return out
