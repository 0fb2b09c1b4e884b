"""Confidence intervals and paired significance tests for any metric, from
its additive per-segment statistics: resampling sums the metric's rows
(``Metric.row``), nothing is re-tokenized.

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
* ``compat="sacrebleu"``: the resamples sacrebleu 2.6.0 draws with NumPy's
  ``default_rng(seed)``, drawn without NumPy (``core.pcg64``), bootstrap
  sums and scores in float32 as in sacrebleu (``core.float32``), and
  sacrebleu's intervals (``n // 40`` order statistics, reported as mean ±
  half-width). The p-values and intervals equal sacrebleu's for the same
  inputs, bit for bit (``sacrebleu_compat``).
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..core.errors import BleukitError
from ..core.pcg64 import PcgState
from ..core.resampling import Columns, Draws, RowView
from ..core.results import DeltaAccuracy, Interval, SystemResult
from ..core.spec import (
    DEFAULT_CONFIDENCE_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    SignificanceSpec,
)
from ..io.memory import release_free_memory
from ..io.progress import plan
from . import sacrebleu_compat as sacrebleu_resampling

if TYPE_CHECKING:
    from ..corpus.systems import SystemStatistics
    from ..metrics.base import Metric, MetricSignature

    AnyMetric = Metric[Any, Any]

__all__ = [
    "DEFAULT_CONFIDENCE_SAMPLES",
    "DEFAULT_SAMPLES",
    "DEFAULT_SEED",
    "Comparison",
    "Interval",
    "SignificanceSpec",
    "SystemResult",
    "compare",
    "confidence",
    "intervals",
    "paired_test",
]


def percentile_interval(scores: list[float], level: float) -> Interval:
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


# ------------------------------------------------------------ entry points


def _check_compat(metric: AnyMetric) -> None:
    if not metric.signature(1).sacrebleu_compatible:
        raise BleukitError(
            f"--compat sacrebleu needs a variant whose resampling bleukit reproduces from "
            f"sacrebleu's; {metric.name} is not one (it has components sacrebleu "
            "does not have: drop --compat)"
        )


def confidence(
    metric: AnyMetric,
    segments: Sequence[Any],
    nrefs: int | str,
    spec: SignificanceSpec,
) -> SystemResult:
    """Bootstrap interval of one system (``bleukit score --confidence``)."""
    cols = Columns(segments, metric)
    result = corpus_result(metric, cols, nrefs)
    if spec.compat == "sacrebleu":
        _check_compat(metric)
        float32_score, _ = _row_scores(metric, cols)
        start = PcgState.from_seed(spec.seed)
        scores = sacrebleu_resampling.bootstrap_scores(
            metric.engine, _rows(metric, cols), float32_score, start, spec.bootstrap_samples
        )
        interval = sacrebleu_resampling.estimate_ci(scores)
    else:
        (scores,) = bootstrap_all(metric, [cols], spec)
        interval = percentile_interval(scores, spec.level)
    return SystemResult("", result, interval, scores=tuple(scores))


def intervals(
    metric: AnyMetric,
    stats: SystemStatistics,
    systems: Sequence[tuple[str, str]],
    spec: SignificanceSpec,
) -> list[SystemResult]:
    """The bootstrap interval of each system of ``stats`` (its key there,
    and the name its result carries)."""
    plan(len(systems) * spec.bootstrap_samples)  # each system resampled on its own
    release_free_memory()  # before the resamplers' scratch (io.memory)
    return [
        replace(confidence(metric, stats.segment_stats(metric, k), stats.nrefs, spec), system=name)
        for k, name in systems
    ]


@dataclass(frozen=True)
class Comparison:
    """One variant's results for every system, the baseline first, with
    the signature that says how they were computed (a comparison table's
    column)."""

    variant: str
    signature: MetricSignature
    rows: Sequence[SystemResult]
    #: what a delta of this variant means to people, where a study measured it
    agreement: DeltaAccuracy | None = None
    #: whether a higher score is better under this variant
    higher_is_better: bool = True

    def to_frame(self) -> Any:
        """The comparison as a pandas DataFrame, a row per system (the
        baseline first): its score, interval and p-value against the
        baseline (NaN where there is none), and the signature (needs
        ``bleukit[pandas]``)."""
        from ..core.dataframes import data_frame, number

        return data_frame([
            {"variant": self.variant, "system": row.system, "baseline": row.baseline,
             "score": row.result.score,
             "ci_low": number(row.interval.low if row.interval else None),
             "ci_high": number(row.interval.high if row.interval else None),
             "p_value": number(row.p_value), "signature": self.signature.long}
            for row in self.rows
        ])  # fmt: skip

    def human_agreement(self, row: SystemResult) -> float | None:
        """The estimated share of system pairs as far apart as this row and
        the baseline that humans order the same way (None: no curve, or the
        baseline itself)."""
        if self.agreement is None or row.baseline:
            return None
        return self.agreement.accuracy(row.result.score - self.rows[0].result.score)


def compare(
    metrics: Sequence[AnyMetric], stats: SystemStatistics, spec: SignificanceSpec
) -> list[Comparison]:
    """Every system of ``stats`` tested against the first (the baseline)
    under each metric (``bleukit compare``, the HTML report)."""
    # the resamples and trials ahead, for the progress line: the bootstrap
    # (exact: one pass for the metrics of an engine; sacrebleu's: one a
    # metric), and with randomization each system's trials
    trials = spec.samples * (len(stats.systems) - 1) if spec.test == "ar" else 0
    exact = spec.compat != "sacrebleu"
    passes = bootstrap_calls(metrics) if exact else len(metrics)
    plan(passes * spec.bootstrap_samples + len(metrics) * trials)
    release_free_memory()  # before the resamplers' scratch (io.memory)

    def systems_of(metric: AnyMetric) -> list[tuple[str, Sequence[Any]]]:
        return [(name, stats.segment_stats(metric, name)) for name in stats.systems]

    # exact: every metric's columns at once, resampled together; sacrebleu's
    # mode holds one metric's float rows at a time (its memory)
    tested = [(m, paired_columns(m, systems_of(m), spec)) for m in metrics] if exact else []
    boots = bootstrap_together(tested, spec) if exact else []
    comparisons = []
    for k, metric in enumerate(metrics):
        given = (tested[k][1], boots[k]) if exact else (None, None)
        rows = paired_test(metric, systems_of(metric), stats.nrefs, spec, *given)
        signature = metric.signature(stats.nrefs).with_test(spec)
        comparisons.append(
            Comparison(metric.name, signature, rows, higher_is_better=metric.higher_is_better)
        )
    return comparisons


def paired_test(
    metric: AnyMetric,
    systems: Sequence[tuple[str, Sequence[Any]]],
    nrefs: int | str,
    spec: SignificanceSpec,
    columns: Sequence[Columns] | None = None,
    boot: list[list[float]] | None = None,
) -> list[SystemResult]:
    """The first system is the baseline; every other is tested against it
    (``columns``: the systems' resampling columns, and ``boot`` their
    bootstrap scores, where the caller made them: ``bootstrap_together``)."""
    columns = paired_columns(metric, systems, spec, columns)
    names = [name for name, _ in systems]
    results = [corpus_result(metric, c, nrefs) for c in columns]
    if spec.compat == "sacrebleu":
        return _paired_sacrebleu(names, results, _sacrebleu_run(metric, columns, spec.seed), spec)
    return _paired_exact(metric, names, columns, results, spec, boot)


def paired_columns(
    metric: AnyMetric,
    systems: Sequence[tuple[str, Sequence[Any]]],
    spec: SignificanceSpec,
    columns: Sequence[Columns] | None = None,
) -> list[Columns]:
    """The systems' resampling columns (``columns`` where the caller has
    them), once the input is checked: two systems or more, of one length, a
    known test, and in sacrebleu's mode a variant whose resampling bleukit
    reproduces."""
    if len(systems) < 2:
        raise BleukitError("a paired test needs a baseline and at least one more system")
    lengths = {len(segs) for _, segs in systems}
    if len(lengths) != 1:
        raise BleukitError("all systems must have the same number of segments")
    if spec.test not in ("bs", "ar"):
        raise BleukitError(f"unknown paired test {spec.test!r} (use 'bs' or 'ar')")
    if spec.compat == "sacrebleu":
        _check_compat(metric)
    if columns is not None:
        return list(columns)
    return [Columns(segs, metric) for _, segs in systems]


def corpus_result(metric: AnyMetric, cols: Columns, nrefs: int | str) -> Any:
    """The corpus result of a system's resampling columns (summed once)."""
    return metric.score_stats(cols.to_stats(cols.total()), nrefs)


def bootstrap_p_value(
    scores_a: Sequence[float], scores_b: Sequence[float], observed: float
) -> float:
    """The paired bootstrap p-value of two systems from their scores on
    the same resamples (symmetric in the two)."""
    diffs = [abs(b - a) for a, b in zip(scores_a, scores_b)]
    mean = math.fsum(diffs) / len(diffs)
    return _p_value([d - mean for d in diffs], observed)


def randomization_p_value(
    metric: AnyMetric, a: Columns, b: Columns, trials: Draws, observed: float
) -> float:
    """The approximate randomization p-value of two systems (symmetric: a
    trial swaps each segment between the two)."""
    sides = list(metric.engine.randomization_sums(a, b, trials))
    scores_a = metric.score_values(a.to_stats(x) for x, _ in sides)
    scores_b = metric.score_values(a.to_stats(y) for _, y in sides)
    return _p_value([abs(x - y) for x, y in zip(scores_a, scores_b)], observed)


def bootstrap_all(
    metric: AnyMetric, columns: Sequence[Columns], spec: SignificanceSpec
) -> list[list[float]]:
    """Per system, its score on each of the same bootstrap resamples (none
    when the spec asks for no intervals)."""
    return bootstrap_together([(metric, columns)], spec)[0]


def bootstrap_together(
    tested: Sequence[tuple[AnyMetric, Sequence[Columns]]], spec: SignificanceSpec
) -> list[list[list[float]]]:
    """``bootstrap_all`` of each metric's systems (its columns), the systems
    of every metric on one engine summed over one pass of the draws (issue
    42: a million segments' 1,000 resamples draw a billion indices, once a
    run, not once a metric). The resamples are each metric's own: the same
    seed and corpus draw the same ones."""
    out: list[list[list[float]]] = [[[] for _ in columns] for _, columns in tested]
    if not spec.bootstrap_samples:
        return out
    for engine, members in _by_engine(tested):
        systems = [c for k in members for c in tested[k][1]]
        draws = Draws.from_seed(systems[0].n, spec.bootstrap_samples, spec.seed)
        sums = iter(engine.bootstrap_sums(systems, draws))
        for k in members:
            metric, columns = tested[k]
            out[k] = [metric.score_values(next(sums)) for _ in columns]
    return out


def _by_engine(
    tested: Sequence[tuple[AnyMetric, Sequence[Columns]]],
) -> list[tuple[Any, list[int]]]:
    """The metrics (their positions) whose systems have one engine and one
    corpus size, each group with its engine, in the order first met (a
    metric without systems in none)."""
    groups: list[tuple[Any, int, list[int]]] = []
    for k, (metric, columns) in enumerate(tested):
        if not columns:
            continue
        n = columns[0].n
        group = next((g for g in groups if g[0] is metric.engine and g[1] == n), None)
        if group is None:
            groups.append((metric.engine, n, [k]))
        else:
            group[2].append(k)
    return [(engine, members) for engine, _, members in groups]


def bootstrap_calls(metrics: Sequence[AnyMetric]) -> int:
    """How many bootstrap passes ``bootstrap_together`` makes for these
    metrics' systems (one an engine): the progress line's resamples."""
    engines: list[Any] = []
    for metric in metrics:
        if not any(e is metric.engine for e in engines):
            engines.append(metric.engine)
    return len(engines)


def _paired_exact(
    metric: AnyMetric,
    names: Sequence[str],
    columns: Sequence[Columns],
    results: Sequence[Any],
    spec: SignificanceSpec,
    boot: list[list[float]] | None = None,
) -> list[SystemResult]:
    # intervals: the same bootstrap resamples for every system
    if boot is None:
        boot = bootstrap_all(metric, columns, spec)

    def interval(scores: list[float]) -> Interval | None:
        return percentile_interval(scores, spec.level) if scores else None

    trials = Draws.from_seed(columns[0].n, spec.samples, spec.seed) if spec.test == "ar" else None
    out = [SystemResult(names[0], results[0], interval(boot[0]), baseline=True,
                        scores=tuple(boot[0]))]  # fmt: skip
    for name, cols, res, scores in zip(names[1:], columns[1:], results[1:], boot[1:]):
        observed = abs(results[0].score - res.score)
        if trials is None:
            p = bootstrap_p_value(boot[0], scores, observed)
        else:
            p = randomization_p_value(metric, columns[0], cols, trials, observed)
        out.append(SystemResult(name, res, interval(scores), p, scores=tuple(scores)))
    return out


# ----------------------------------------------- sacrebleu 2.6.0 compatibility


def _rows(metric: AnyMetric, cols: Columns) -> Sequence[Sequence[Any]]:
    """sacrebleu's per-segment statistics (BLEU's [hyp_len, ref_len,
    correct..., total...], chrF's triples, TER's edits and mean reference
    length): the metric's rows as sacrebleu holds them."""
    return metric.sacrebleu_rows(cols)


def _row_scores(
    metric: AnyMetric, cols: Columns
) -> tuple[sacrebleu_resampling.RowScores, sacrebleu_resampling.RowScores]:
    """How sacrebleu scores a summed row of float32 values
    (``Metric.from_sacrebleu_row``: deliberate compatibility quirks) and
    one of int64 values."""

    def float32_score(rows: list[list[Any]]) -> list[float]:
        return metric.score_values(metric.from_sacrebleu_row(r, cols.n, cols.last) for r in rows)

    def int_score(rows: list[list[Any]]) -> list[float]:
        # summed rows as the engine's kernels score them, where it has one
        # for the metric (BLEU, chrF: the reference's numbers, bit for bit)
        return metric.score_sums(cols, [x for row in rows for x in row])

    return float32_score, int_score


def _sacrebleu_score(rows: Sequence[Sequence[Any]], score: sacrebleu_resampling.RowScores) -> float:
    """A system's score as sacrebleu computes the observed difference from
    it: its rows summed left to right (``sum_of_lists``), then scored. The
    same as the exact score for integer rows; for TER's float rows the
    sum's rounding can move the score by an ulp, and a p-value's strict
    ``>`` reads that (deliberate compatibility quirk)."""
    if isinstance(rows, RowView):  # integers: any order sums them exactly
        return score([rows.column_sums()])[0]
    return score([[functools.reduce(operator.add, column) for column in zip(*rows)]])[0]


def _sacrebleu_run(
    metric: AnyMetric, columns: Sequence[Columns], seed: int
) -> sacrebleu_resampling.PairedRun:
    float32_score, int_score = _row_scores(metric, columns[0])
    rows = [_rows(metric, c) for c in columns]
    observed = [_sacrebleu_score(r, int_score) for r in rows]
    return sacrebleu_resampling.PairedRun(
        rows, observed, float32_score, int_score, seed, metric.engine
    )


def sacrebleu_all_pairs(
    metric: AnyMetric,
    systems: Sequence[tuple[str, Sequence[Any]]],
    nrefs: int | str,
    spec: SignificanceSpec,
) -> tuple[list[SystemResult], dict[tuple[int, int], float]]:
    """sacrebleu's paired test of ``systems`` against the first, and every
    pair's p-value (i < j) as that test prints it for system j with system
    i as its baseline: one run, each system scored once on its resamples."""
    columns = paired_columns(metric, systems, spec)
    results = [corpus_result(metric, c, nrefs) for c in columns]
    run = _sacrebleu_run(metric, columns, spec.seed)
    rows = _paired_sacrebleu([name for name, _ in systems], results, run, spec)
    return rows, run.all_pairs(spec.test, spec.samples)  # type: ignore[arg-type]


def _paired_sacrebleu(
    names: Sequence[str],
    results: Sequence[Any],
    run: sacrebleu_resampling.PairedRun,
    spec: SignificanceSpec,
) -> list[SystemResult]:
    outcomes = run.paired(spec.test, spec.samples, spec.bootstrap_samples)  # type: ignore[arg-type]
    observed = run.observed
    return [
        SystemResult(
            name,
            result,
            outcome.interval(),
            outcome.p_value,
            baseline=k == 0,
            scores=outcome.scores,
            sacrebleu_score=score,
        )
        for k, (name, result, outcome, score) in enumerate(zip(names, results, outcomes, observed))
    ]
