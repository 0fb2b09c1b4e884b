"""Every pair of systems tested, the p-values corrected for testing them
together, and the systems ranked in clusters (issue 24): what a shared
task's table or an ablation needs, beyond each system against a baseline.

One set of per-segment statistics serves every pair. The paired bootstrap
scores each system once on the same resamples and takes every pair's
differences from those scores; approximate randomization runs its trials
per pair (a trial swaps segments between the two systems it compares).
Both p-values are symmetric in the two systems, so the matrix is too.

With ``compat="sacrebleu"`` each pair's p-value is what sacrebleu 2.6.0's
``--paired-bs``/``--paired-ar`` prints for it with the earlier-listed
system as baseline (its resamples and trials depend only on the seed, so
which other systems share the run changes nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.resampling import Columns, Draws
from ..core.results import SystemResult, is_significant
from ..core.spec import SignificanceSpec
from ..io.memory import release_free_memory
from ..io.progress import plan
from .multiple import Cluster, Correction, adjust, clusters
from .paired import (
    bootstrap_all,
    bootstrap_calls,
    bootstrap_p_value,
    bootstrap_together,
    corpus_result,
    paired_columns,
    percentile_interval,
    randomization_p_value,
    sacrebleu_all_pairs,
)

if TYPE_CHECKING:
    from ..corpus.systems import SystemStatistics
    from ..metrics.base import Metric, MetricSignature

    AnyMetric = Metric[Any, Any]

#: a square matrix of p-values, ``None`` on the diagonal
Matrix = tuple[tuple[float | None, ...], ...]


@dataclass(frozen=True)
class Ranking:
    """One metric's all-pairs significance: each system's result (score and
    interval; ``p_value`` unset), the raw and corrected p-value of every
    pair, and the ranking clusters the corrected ones give."""

    variant: str
    signature: MetricSignature
    systems: tuple[SystemResult, ...]
    p_values: Matrix
    adjusted: Matrix
    correction: Correction
    clusters: tuple[Cluster, ...]
    higher_is_better: bool

    def to_frame(self) -> Any:
        """The ranking as a pandas DataFrame, a row per system: its score,
        interval and cluster (1 = the best); ``pairs_frame`` holds the
        p-values (needs ``bleukit[pandas]``)."""
        from ..core.dataframes import data_frame, number

        return data_frame([
            {"variant": self.variant, "system": r.system, "score": r.result.score,
             "ci_low": number(r.interval.low if r.interval else None),
             "ci_high": number(r.interval.high if r.interval else None),
             "cluster": self.cluster_of(k) + 1, "signature": self.signature.long}
            for k, r in enumerate(self.systems)
        ])  # fmt: skip

    def pairs_frame(self) -> Any:
        """Every pair of systems as a pandas DataFrame: its raw and corrected
        p-value (``correction``) and whether it is significant."""
        from ..core.dataframes import data_frame

        n = len(self.systems)
        return data_frame([
            {"variant": self.variant, "system_a": self.systems[a].system,
             "system_b": self.systems[b].system, "p_value": self.p_values[a][b],
             "p_adjusted": self.adjusted[a][b], "correction": self.correction,
             "significant": self.significant(a, b)}
            for a in range(n) for b in range(a + 1, n)
        ])  # fmt: skip

    def significant(self, a: int, b: int) -> bool:
        """Whether systems ``a`` and ``b`` differ significantly (corrected)."""
        return is_significant(self.adjusted[a][b])

    def worse(self, a: int, b: int) -> bool:
        """Whether system ``a`` is significantly worse than system ``b``."""
        sa, sb = self.systems[a].result.score, self.systems[b].result.score
        behind = sa < sb if self.higher_is_better else sa > sb
        return behind and self.significant(a, b)

    def cluster_of(self, system: int) -> int:
        """The 0-based index of the cluster holding ``system``."""
        return next(k for k, c in enumerate(self.clusters) if system in c.members)


def _square(n: int, pairs: dict[tuple[int, int], float]) -> Matrix:
    return tuple(
        tuple(None if i == j else pairs[min(i, j), max(i, j)] for j in range(n)) for i in range(n)
    )


def _pair_p_values(
    metric: AnyMetric,
    systems: Sequence[tuple[str, Sequence[Any]]],
    nrefs: int | str,
    spec: SignificanceSpec,
    columns: Sequence[Columns] | None,
    boot: list[list[float]] | None,
) -> tuple[list[SystemResult], dict[tuple[int, int], float]]:
    """Each system's result with its interval, and each pair's raw p-value
    (keyed by (earlier, later) position)."""
    n = len(systems)
    pairs: dict[tuple[int, int], float] = {}
    if spec.compat == "sacrebleu":
        # sacrebleu's paired test with each system in turn as the baseline;
        # the results (and intervals) are those of the first system's run
        rows, pairs = sacrebleu_all_pairs(metric, systems, nrefs, spec)
        return [SystemResult(r.system, r.result, r.interval) for r in rows], pairs
    columns = paired_columns(metric, systems, spec, columns)
    if boot is None:
        boot = bootstrap_all(metric, columns, spec)
    results = [
        SystemResult(name, corpus_result(metric, cols, nrefs),
                     percentile_interval(scores, spec.level) if scores else None)
        for (name, _), cols, scores in zip(systems, columns, boot)
    ]  # fmt: skip
    trials = Draws.from_seed(columns[0].n, spec.samples, spec.seed) if spec.test == "ar" else None
    for i in range(n):
        for j in range(i + 1, n):
            observed = abs(results[i].result.score - results[j].result.score)
            if trials is None:
                pairs[i, j] = bootstrap_p_value(boot[i], boot[j], observed)
            else:
                pairs[i, j] = randomization_p_value(
                    metric, columns[i], columns[j], trials, observed
                )
    return results, pairs


def rank(
    metric: AnyMetric,
    systems: Sequence[tuple[str, Sequence[Any]]],
    nrefs: int | str,
    spec: SignificanceSpec,
    correction: Correction = "holm",
    columns: Sequence[Columns] | None = None,
    boot: list[list[float]] | None = None,
) -> Ranking:
    """Every pair of ``systems`` (name, per-segment statistics) tested under
    ``spec``, the p-values corrected together, and the clusters; ``columns``:
    the systems' resampling columns, and ``boot`` their bootstrap scores,
    where the caller has them (``paired.bootstrap_together``)."""
    results, pairs = _pair_p_values(metric, systems, nrefs, spec, columns, boot)
    n = len(results)
    keys = sorted(pairs)
    corrected = dict(zip(keys, adjust([pairs[k] for k in keys], correction)))
    adjusted = _square(n, corrected)

    scores = [r.result.score for r in results]
    # clusters ask only whether a lower-ranked system differs from one above it
    groups = clusters(scores, lambda a, b: is_significant(adjusted[a][b]), metric.higher_is_better)
    return Ranking(
        metric.name,
        metric.signature(nrefs).with_test(spec),
        tuple(results),
        _square(n, pairs),
        adjusted,
        correction,
        tuple(groups),
        metric.higher_is_better,
    )


def rank_all(
    metrics: Sequence[AnyMetric],
    stats: SystemStatistics,
    spec: SignificanceSpec,
    correction: Correction = "holm",
) -> list[Ranking]:
    """``rank`` of the systems of ``stats`` under each metric (``bleukit
    compare --all-pairs``), each metric's columns released once ranked."""
    # the resamples and trials ahead, for the progress line: the bootstrap
    # (exact: one pass for the metrics of an engine; sacrebleu's: one a
    # metric), and with randomization every pair's trials
    pairs = len(stats.systems) * (len(stats.systems) - 1) // 2
    exact = spec.compat != "sacrebleu"
    passes = bootstrap_calls(metrics) if exact else len(metrics)
    trials = spec.samples * pairs if spec.test == "ar" else 0
    plan(passes * spec.bootstrap_samples + len(metrics) * trials)
    release_free_memory()  # before the resamplers' scratch (io.memory)
    # exact: every metric's columns at once, resampled together; only the
    # statistics' cache holds them after, so each metric's are released
    # once ranked
    tested = [(m, [stats.columns(m, s) for s in stats.systems]) for m in metrics] if exact else []
    boots: Sequence[list[list[float]] | None] = (
        bootstrap_together(tested, spec) if exact else [None] * len(metrics)
    )
    del tested
    rankings = []
    for metric, boot in zip(metrics, boots):
        systems = [(s, stats.segment_stats(metric, s)) for s in stats.systems]
        columns = [stats.columns(metric, s) for s in stats.systems]
        rankings.append(rank(metric, systems, stats.nrefs, spec, correction, columns, boot))
        stats.release_columns(metric)
    return rankings
