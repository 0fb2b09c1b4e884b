"""Confidence intervals and paired significance tests from additive segment
statistics: resampling sums per-segment ``Stats``, nothing is re-tokenized.

Tests, with sacrebleu's defaults and p-value formula:

* paired bootstrap resampling (Koehn 2004): 1000 resamples of the segments,
  the same resamples for the baseline and every system; the p-value is
  ``(c + 1) / (S + 1)`` where ``c`` counts resamples whose centred absolute
  score difference exceeds the observed one;
* paired approximate randomization (Riezler & Maxwell 2005): 10000 trials,
  each swapping every segment between the two systems with probability 1/2;
  ``c`` counts trials whose absolute difference exceeds the observed one.

Two modes:

* ``compat="none"`` (default): Python's ``random.Random(seed)`` draws the
  resamples, sums are exact integers, and a confidence interval is the
  percentile interval at any level. NumPy is never needed and never changes
  a number.
* ``compat="sacrebleu"``: NumPy's ``default_rng(seed)`` draws exactly the
  resamples sacrebleu 2.6.0 draws, bootstrap sums are float32 as in
  sacrebleu, and intervals are sacrebleu's (``n // 40`` order statistics,
  reported as mean ± half-width). The p-values and intervals equal
  sacrebleu's for the same inputs. Needs NumPy (``pip install 'bleukit[numpy]'``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import BleukitError
from ..core.resampling import Columns, Draws
from ..core.results import Interval, SystemResult
from ..core.spec import (
    DEFAULT_CONFIDENCE_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    SignificanceSpec,
)
from ..core.stats import RefLength, Stats, corpus_sum
from . import sacrebleu_compat as sacrebleu_resampling

if TYPE_CHECKING:
    from ..metrics.bleu.variant import Variant

__all__ = [
    "DEFAULT_CONFIDENCE_SAMPLES",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "Interval",
    "SignificanceSpec",
    "SystemResult",
    "confidence",
    "paired_test",
]


def _percentile_interval(scores: list[float], level: float) -> Interval:
    ordered = sorted(scores)
    n = len(ordered)
    # for level 0.95 and 1000 resamples this is sacrebleu's n // 40 = 25;
    # the epsilon keeps 1000 * (1 - 0.9) / 2 = 49.999... at 50
    lower = math.floor(n * (1 - level) / 2 + 1e-9)
    upper = n - lower - 1
    # the exact sum divided by n rounds, and for equal scores it can land an
    # ulp above them all: the mean of numbers lies within their range
    mean = min(max(math.fsum(ordered) / n, ordered[0]), ordered[-1])
    return Interval(ordered[lower], ordered[upper], mean, level)


def _p_value(sample_stats: Sequence[float], observed: float) -> float:
    """(c + 1) / (S + 1), with c the samples at least as extreme as observed.

    sacrebleu counts only samples strictly greater (``>``), so two identical
    systems get p = 1 / (S + 1) and are "significantly different"; counting
    ties (``>=``) gives them p = 1. The two agree whenever no sample ties the
    observed difference. ``compat="sacrebleu"`` keeps sacrebleu's ``>``.
    """
    c = sum(1 for s in sample_stats if s >= observed)
    return (c + 1) / (len(sample_stats) + 1)


def _score_all(variant: Variant, systems: Sequence[Columns], draws: Draws) -> list[list[float]]:
    """Per system, the score of every bootstrap resample."""
    return [variant.score_values(it) for it in variant.engine.bootstrap_sums(systems, draws)]


# ------------------------------------------------------------ entry points


def _check_compat(variant: Variant) -> None:
    if not variant.signature(1).sacrebleu_compatible:
        raise BleukitError(
            f"--compat sacrebleu needs a variant that sacrebleu computes; {variant.name} "
            "uses components sacrebleu does not have"
        )


def confidence(
    variant: Variant,
    segments: Sequence[Stats],
    nrefs: int | str,
    spec: SignificanceSpec,
) -> SystemResult:
    """Bootstrap interval of one system (``bleukit score --confidence``)."""
    cols = Columns(segments, variant.stat_order)
    result = variant.score_stats(cols.to_stats(cols.total()), nrefs)
    samples = spec.bootstrap_samples
    if spec.compat == "sacrebleu":
        _check_compat(variant)
        idxs = sacrebleu_resampling.bootstrap_draws(spec.seed, len(segments), samples)
        float32_score, _ = _row_scores(variant, segments)
        scores = sacrebleu_resampling.bootstrap_scores(
            _matrix(segments, variant.config.max_order), float32_score, idxs
        )
        # sacrebleu's Score.estimate_ci: statistics.mean over the sorted scores
        import statistics

        interval = sacrebleu_resampling.interval(scores, statistics.mean(sorted(scores)))
    else:
        draws = Draws.from_seed(len(segments), samples, spec.seed)
        (scores,) = _score_all(variant, [cols], draws)
        interval = _percentile_interval(scores, spec.level)
    return SystemResult("", result, interval, scores=tuple(scores))


def paired_test(
    variant: Variant,
    systems: Sequence[tuple[str, Sequence[Stats]]],
    nrefs: int | str,
    spec: SignificanceSpec,
) -> list[SystemResult]:
    """The first system is the baseline; every other is tested against it."""
    if len(systems) < 2:
        raise BleukitError("a paired test needs a baseline and at least one more system")
    lengths = {len(segs) for _, segs in systems}
    if len(lengths) != 1:
        raise BleukitError("all systems must have the same number of segments")
    if spec.test not in ("bs", "ar"):
        raise BleukitError(f"unknown paired test {spec.test!r} (use 'bs' or 'ar')")
    if spec.compat == "sacrebleu":
        _check_compat(variant)
        return _paired_sacrebleu(variant, systems, nrefs, spec)
    return _paired_exact(variant, systems, nrefs, spec)


Systems = Sequence[tuple[str, Sequence[Stats]]]


def _paired_exact(
    variant: Variant, systems: Systems, nrefs: int | str, spec: SignificanceSpec
) -> list[SystemResult]:
    n = len(systems[0][1])
    order = variant.stat_order
    columns = [Columns(segs, order) for _, segs in systems]
    results = [variant.score_stats(c.to_stats(c.total()), nrefs) for c in columns]
    # intervals: the same bootstrap resamples for every system
    if spec.bootstrap_samples:
        boot = _score_all(variant, columns, Draws.from_seed(n, spec.bootstrap_samples, spec.seed))
    else:  # randomization without intervals
        boot = [[] for _ in columns]

    def interval(scores: list[float]) -> Interval | None:
        return _percentile_interval(scores, spec.level) if scores else None

    out = [
        SystemResult(
            systems[0][0],
            results[0],
            interval(boot[0]),
            baseline=True,
            scores=tuple(boot[0]),
        )
    ]
    if spec.test == "bs":
        for (name, _), res, scores in zip(systems[1:], results[1:], boot[1:]):
            diffs = [abs(s - b) for s, b in zip(scores, boot[0])]
            mean = math.fsum(diffs) / len(diffs)
            p = _p_value([d - mean for d in diffs], abs(results[0].score - res.score))
            out.append(SystemResult(name, res, interval(scores), p, scores=tuple(scores)))
        return out
    trials = Draws.from_seed(n, spec.samples, spec.seed)
    base = columns[0]
    for (name, _), cols, res, scores in zip(systems[1:], columns[1:], results[1:], boot[1:]):
        sides = list(variant.engine.randomization_sums(base, cols, trials))
        scores_a = variant.score_values(base.to_stats(a) for a, _ in sides)
        scores_b = variant.score_values(base.to_stats(b) for _, b in sides)
        stats_ab = [abs(a - b) for a, b in zip(scores_a, scores_b)]
        p = _p_value(stats_ab, abs(results[0].score - res.score))
        out.append(SystemResult(name, res, interval(scores), p, scores=tuple(scores)))
    return out


# ----------------------------------------------- sacrebleu 2.6.0 compatibility


def _matrix(segments: Sequence[Stats], order: int) -> list[list[RefLength]]:
    """sacrebleu's per-segment list: [hyp_len, ref_len, correct..., total...]."""
    return [[s.sys_len, s.ref_len, *s.counts[:order], *s.totals[:order]] for s in segments]


def _row_scores(
    variant: Variant, segments: Sequence[Stats]
) -> tuple[sacrebleu_resampling.RowScores, sacrebleu_resampling.RowScores]:
    """How sacrebleu scores a summed row of float32 values (``sys_len`` and
    ``ref_len`` back to ints, the counts float32 scalars, so the precisions
    are float32 arithmetic as in sacrebleu: deliberate compatibility quirk)
    and one of int64 values."""
    order = variant.config.max_order
    last = segments[-1]

    def float32_score(rows: list[list[Any]]) -> list[float]:
        n = len(segments)
        return variant.score_values(
            Stats(int(row[0]), int(row[1]), tuple(row[2 : 2 + order]), tuple(row[2 + order :]),
                  n, last.last_len, last.last_counts, last.last_totals)
            for row in rows
        )  # fmt: skip

    def int_score(rows: list[list[Any]]) -> list[float]:
        return variant.score_values(
            Stats(row[0], row[1], tuple(row[2 : 2 + order]), tuple(row[2 + order :]), 1)
            for row in rows
        )

    return float32_score, int_score


def _paired_sacrebleu(
    variant: Variant, systems: Systems, nrefs: int | str, spec: SignificanceSpec
) -> list[SystemResult]:
    order = variant.config.max_order
    results = [
        variant.score_stats(corpus_sum(segs, variant.stat_order), nrefs) for _, segs in systems
    ]
    float32_score, int_score = _row_scores(variant, systems[0][1])
    outcomes = sacrebleu_resampling.paired(
        [_matrix(segs, order) for _, segs in systems],
        [r.score for r in results],
        float32_score,
        int_score,
        spec.test,  # type: ignore[arg-type]
        spec.samples,
        spec.bootstrap_samples,
        spec.seed,
    )
    return [
        SystemResult(
            name,
            result,
            outcome.interval(),
            outcome.p_value,
            baseline=k == 0,
            scores=outcome.scores,
        )
        for k, ((name, _), result, outcome) in enumerate(zip(systems, results, outcomes))
    ]
