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
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import BleukitError
from .resampling import Columns, Draws
from .results import Interval, SystemResult
from .spec import (
    DEFAULT_CONFIDENCE_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    SignificanceSpec,
)
from .stats import RefLength, Stats, corpus_sum

if TYPE_CHECKING:
    from .variant import Variant

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
    return [
        list(map(variant.score_value, it)) for it in variant.engine.bootstrap_sums(systems, draws)
    ]


# ------------------------------------------------------------ entry points


def _require_numpy() -> Any:
    try:
        import numpy
    except ImportError:  # an optional extra, named in the message
        raise BleukitError(
            "--compat sacrebleu draws resamples with NumPy's generator, as sacrebleu does; "
            "install it with: pip install 'bleukit[numpy]'"
        ) from None
    return numpy


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
        np = _require_numpy()
        idxs = np.random.default_rng(spec.seed).choice(
            len(segments), size=(samples, len(segments)), replace=True
        )
        scores = _float32_scores(variant, segments, idxs, nrefs)
        # sacrebleu's Score.estimate_ci: statistics.mean over the sorted scores
        interval = _sacrebleu_interval(scores, statistics.mean(sorted(scores)))
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
        stats_ab = [
            abs(
                variant.score_value(base.to_stats(side_a))
                - variant.score_value(base.to_stats(side_b))
            )
            for side_a, side_b in variant.engine.randomization_sums(base, cols, trials)
        ]
        p = _p_value(stats_ab, abs(results[0].score - res.score))
        out.append(SystemResult(name, res, interval(scores), p, scores=tuple(scores)))
    return out


# ----------------------------------------------- sacrebleu 2.6.0 compatibility


def _sacrebleu_interval(scores: Sequence[float], mean: float) -> Interval:
    ordered = sorted(scores)
    n = len(ordered)
    lower = n // 40
    return Interval(ordered[lower], ordered[n - lower - 1], float(mean), 0.95)


def _matrix(segments: Sequence[Stats], order: int) -> list[list[RefLength]]:
    """sacrebleu's per-segment list: [hyp_len, ref_len, correct..., total...]."""
    return [[s.sys_len, s.ref_len, *s.counts[:order], *s.totals[:order]] for s in segments]


def _float32_scores(
    variant: Variant, segments: Sequence[Stats], idxs: Any, nrefs: int | str
) -> list[float]:
    """Scores of bootstrap resamples summed in float32, as sacrebleu's
    ``_bootstrap_resample``: ``sys_len`` and ``ref_len`` go back to ints, the
    counts stay float32 scalars, so the precisions are float32 arithmetic
    exactly as in sacrebleu (deliberate compatibility quirk)."""
    import numpy as np

    order = variant.config.max_order
    stats32 = np.array(_matrix(segments, order), dtype="float32")
    scores = []
    last = segments[-1]
    for sums in stats32[idxs].sum(axis=1):
        row = list(sums)
        stats = Stats(
            int(row[0]),
            int(row[1]),
            tuple(row[2 : 2 + order]),
            tuple(row[2 + order :]),
            len(segments),
            last.last_len,
            last.last_counts,
            last.last_totals,
        )
        scores.append(variant.score_stats(stats, nrefs).score)
    return scores


def _paired_sacrebleu(
    variant: Variant, systems: Systems, nrefs: int | str, spec: SignificanceSpec
) -> list[SystemResult]:
    np = _require_numpy()
    n = len(systems[0][1])
    order = variant.config.max_order
    base_name, base_segs = systems[0]
    base_result = variant.score_stats(corpus_sum(base_segs, variant.stat_order), nrefs)
    # sacrebleu: the baseline's interval from _bootstrap_resample, a fresh
    # generator; none where randomization runs without intervals (its
    # command line: n_ar_confidence=-1)
    conf_n = spec.bootstrap_samples

    def interval(scores: Any) -> Interval | None:
        return _sacrebleu_interval(scores, np.sort(scores).mean()) if len(scores) else None

    base_scores = np.array([])
    if conf_n:
        base_idxs = np.random.default_rng(spec.seed).choice(n, size=(conf_n, n), replace=True)
        base_scores = np.array(_float32_scores(variant, base_segs, base_idxs, nrefs))
    out = [
        SystemResult(
            base_name, base_result, interval(base_scores), baseline=True, scores=tuple(base_scores)
        )
    ]
    for name, segs in systems[1:]:
        result = variant.score_stats(corpus_sum(segs, variant.stat_order), nrefs)
        diff = abs(base_result.score - result.score)
        # every system's test starts a fresh generator with the same seed
        rng = np.random.default_rng(spec.seed)
        if spec.test == "bs":
            idxs = rng.choice(n, size=(spec.samples, n), replace=True)
            sys_scores = np.array(_float32_scores(variant, segs, idxs, nrefs))
            bl_scores = np.array(_float32_scores(variant, base_segs, idxs, nrefs))
            sample_diffs = np.abs(sys_scores - bl_scores)
            p = _np_p_value(np, sample_diffs - sample_diffs.mean(), diff)
        else:
            pos_sel = rng.integers(2, size=(spec.samples, n), dtype=bool)
            bl = np.array(_matrix(base_segs, order))
            sy = np.array(_matrix(segs, order))
            shuf_a = pos_sel @ bl + ~pos_sel @ sy
            shuf_b = ~pos_sel @ bl + pos_sel @ sy
            scores_a = np.array([_int_score(variant, r, order, nrefs) for r in shuf_a.tolist()])
            scores_b = np.array([_int_score(variant, r, order, nrefs) for r in shuf_b.tolist()])
            p = _np_p_value(np, np.abs(scores_a - scores_b), diff)
            sys_scores = np.array([])
            if conf_n:  # drawn after the trials, from the same generator
                bs_idxs = rng.choice(n, size=(conf_n, n), replace=True)
                sys_scores = np.array(_float32_scores(variant, segs, bs_idxs, nrefs))
        out.append(SystemResult(name, result, interval(sys_scores), p, scores=tuple(sys_scores)))
    return out


def _int_score(variant: Variant, row: list[int], order: int, nrefs: int | str) -> float:
    stats = Stats(row[0], row[1], tuple(row[2 : 2 + order]), tuple(row[2 + order :]), 1)
    return variant.score_stats(stats, nrefs).score


def _np_p_value(np: Any, stats: Any, observed: float) -> float:
    # sacrebleu's _compute_p_value, strict ">" (compatibility quirk, see _p_value)
    c: int = np.sum(stats > observed).item()
    return (c + 1) / (len(stats) + 1)
