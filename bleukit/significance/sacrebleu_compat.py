"""sacrebleu 2.6.0's resampling (``--compat sacrebleu``), bit for bit and
without NumPy, for any metric whose per-segment statistics are rows of
numbers summed over a corpus (BLEU's ``[hyp_len, ref_len, correct...,
total...]``, chrF's triples, TER's edits and mean reference length).

sacrebleu (``significance.py``: ``_bootstrap_resample``, ``_paired_bs_test``,
``_paired_ar_test``) draws with ``np.random.default_rng(seed)``, sums its
bootstrap resamples in float32 and its randomization trials in int64, and
scores the sums with its own Python code, where NumPy's float32 scalars
make the precisions float32 arithmetic. bleukit replays each step:

* the draws: NumPy's PCG64 stream (``core.pcg64``), in C on the compiled
  engine (``Engine.sacrebleu_bootstrap``, ``Engine.sacrebleu_randomization``);
* the float32 sums and scores: ``core.float32`` (``F32``, NumPy 2's float32
  scalar with its promotion rules);
* the p-value and the interval as NumPy computes them on arrays of the
  scores: float32 arrays where every score is a float32, float64 where one
  is a Python float; means by NumPy's pairwise summation; a strict ``>``
  against the observed difference cast to the array's type (deliberate
  compatibility quirks: float32 sums, a strict ``>`` in the p-value count,
  ``n // 40`` order statistics for the interval).

``tests/test_significance_compat.py`` and the ``bleukit sacrebleu`` golden
tests compare the results with sacrebleu's, recorded; ``tox -e oracle``
compares them live, with NumPy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..core.float32 import F32, pairwise_sum, to_f32
from ..core.pcg64 import PcgState
from ..core.results import Interval

if TYPE_CHECKING:
    from ..engines import Engine

#: the scores of summed rows (float32 values for bootstrap sums, ints for
#: randomization sums), one per row
RowScores = Callable[[list[list[Any]]], list[float]]
#: per-segment rows (integers, or TER's floats: ``Metric.sacrebleu_row``)
Rows = Sequence[Sequence[Any]]


def estimate_ci(scores: Sequence[float]) -> Interval:
    """sacrebleu's ``Score.estimate_ci`` (single-system ``-ci``): the
    (n // 40)-th scores from each end, kept in their own type so that the
    half-width is computed as sacrebleu computes it (float32 arithmetic for
    chrF's float32 scores), and ``statistics.mean`` over the sorted scores.
    Where chrF's resamples mix float32 scores with a Python 0.0 (no order
    with n-grams on both sides), ``statistics.mean`` cannot coerce them and
    sacrebleu 2.6.0 fails with a TypeError; here the mean is taken over
    them as floats."""
    import statistics

    ordered = sorted(scores)
    n = len(ordered)
    lower = n // 40
    mixed = len({type(s) for s in ordered}) > 1
    mean = statistics.mean([float(s) for s in ordered] if mixed else ordered)
    return Interval(ordered[lower], ordered[n - lower - 1], float(mean), 0.95)


def bootstrap_scores(
    engine: Engine, rows: Rows, score: RowScores, start: PcgState, samples: int
) -> list[float]:
    """Scores of ``samples`` resamples drawn from ``start``, each summed in
    float32 as sacrebleu's ``_bootstrap_resample`` sums them."""
    (sums,) = engine.sacrebleu_bootstrap(start, [rows], samples)
    return score(_as_float32(sums))


def _as_float32(sums: Sequence[Sequence[float]]) -> list[list[Any]]:
    """Float32 sums as NumPy's float32 scalars (``list(row)`` of an array)."""
    return [[F32(x) for x in row] for row in sums]


class _Array:
    """A 1-D NumPy array of scores as sacrebleu builds one
    (``np.array(scores)``): float32 where every score is a float32, else
    float64; ``values`` exact floats."""

    def __init__(self, values: Sequence[float], single: bool) -> None:
        self.values, self.single = list(values), single

    @classmethod
    def of(cls, scores: Sequence[Any]) -> _Array:
        single = bool(scores) and all(isinstance(s, F32) for s in scores)
        return cls([float(s) for s in scores], single)

    def _round(self, x: float) -> float:
        return to_f32(x) if self.single else x

    def minus(self, other: _Array | float) -> _Array:
        """``self - other``, elementwise or by a scalar of the array's type."""
        if isinstance(other, _Array):
            single = self.single and other.single
            rnd = to_f32 if single else float
            return _Array([rnd(x - y) for x, y in zip(self.values, other.values)], single)
        return _Array([self._round(x - other) for x in self.values], self.single)

    def absolute(self) -> _Array:
        return _Array([abs(x) for x in self.values], self.single)

    def mean(self) -> float:
        """``arr.mean()``: the pairwise sum divided by n in the array's type."""
        total = pairwise_sum(self.values, self.single)
        return self._round(total / self._round(float(len(self.values))))

    def count_above(self, observed: float) -> int:
        """``np.sum(arr > observed)``: the observed Python float cast to the
        array's type first (NumPy 2: a Python scalar is weak)."""
        bound = self._round(observed)
        return sum(x > bound for x in self.values)

    def scalar(self, x: float) -> Any:
        """An element as NumPy gives it: float32 scalar or float."""
        return F32(x) if self.single else x


def p_value(stats: _Array, observed: float) -> float:
    # sacrebleu's _compute_p_value, strict ">" (compatibility quirk)
    return (stats.count_above(observed) + 1) / (len(stats.values) + 1)


@dataclass(frozen=True)
class PairedOutcome:
    """One system of a paired test: its p-value (None for the baseline) and
    its resampled scores for the interval (empty: no interval)."""

    p_value: float | None
    scores: tuple[Any, ...]

    def interval(self) -> Interval | None:
        """sacrebleu's ``estimate_ci`` on a NumPy array of the scores: float32
        where every score is, float64 where a resample scored a Python 0.0."""
        if not self.scores:
            return None
        array = _Array.of(self.scores)
        ordered = sorted(array.values)
        lower = len(ordered) // 40
        low, high = ordered[lower], ordered[len(ordered) - lower - 1]
        mean = _Array(ordered, array.single).mean()
        return Interval(array.scalar(low), array.scalar(high), mean, 0.95)


class PairedRun:
    """sacrebleu's paired tests of ``systems`` (each a system's rows;
    ``observed``: each system's score, ``float32_score``/``int_score``: how
    sacrebleu scores summed rows), on ``engine``. Every test starts a fresh
    ``default_rng(seed)``, so its resamples depend on the seed alone: they
    are drawn once, for every system at once, and each system is scored on
    them once, however many tests read them."""

    def __init__(
        self,
        systems: Sequence[Rows],
        observed: Sequence[float],
        float32_score: RowScores,
        int_score: RowScores,
        seed: int | None,
        engine: Engine,
    ) -> None:
        self.systems, self.observed = systems, observed
        self.float32_score, self.int_score = float32_score, int_score
        self.engine = engine
        # sacrebleu seeds each test's generator alike: one start for them all
        self.start = PcgState.from_seed(seed)
        self._sums: dict[int, list[list[list[float]]]] = {}
        self._scores: dict[tuple[int, int], list[Any]] = {}
        #: randomization p-values by (baseline, system, trials)
        self._randomized: dict[tuple[int, int, int], float] = {}

    def _bootstrap(self, system: int, count: int) -> list[Any]:
        key = (system, count)
        if key not in self._scores:
            if count not in self._sums:
                self._sums[count] = self.engine.sacrebleu_bootstrap(self.start, self.systems, count)
            self._scores[key] = self.float32_score(_as_float32(self._sums[count][system]))
        return self._scores[key]

    def _bootstrap_p(self, a: int, b: int, count: int) -> float:
        diff = abs(self.observed[a] - self.observed[b])
        boot_a, boot_b = _Array.of(self._bootstrap(a, count)), _Array.of(self._bootstrap(b, count))
        sample_diffs = boot_b.minus(boot_a).absolute()
        return p_value(sample_diffs.minus(sample_diffs.mean()), diff)

    def _randomization_p(self, a: int, b: int, samples: int) -> tuple[float, PcgState]:
        """The p-value of system ``b`` against baseline ``a``, and the
        generator's state after the trials (sacrebleu draws ``b``'s interval
        from it)."""
        shuf_a, shuf_b, after = self.engine.sacrebleu_randomization(
            self.start, self.systems[a], self.systems[b], samples
        )
        scores_a = _Array.of(self.int_score(shuf_a))
        scores_b = _Array.of(self.int_score(shuf_b))
        diff = abs(self.observed[a] - self.observed[b])
        p = p_value(scores_a.minus(scores_b).absolute(), diff)
        self._randomized[a, b, samples] = p
        return p, after

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
                p, after = self._randomization_p(0, k, samples)
                sys_scores = []
                if confidence_samples:  # drawn after the trials, from the same generator
                    sys_scores = bootstrap_scores(
                        self.engine, self.systems[k], self.float32_score, after,
                        confidence_samples,
                    )  # fmt: skip
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
