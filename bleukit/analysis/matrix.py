"""Systems x variants (BLEU and chrF): every system under every variant, the ranking each
variant gives, and how far the rankings agree (Kendall's tau-b and the
pairs of systems that change order).

The statistics come from ``system_stats.SystemStatistics``: references are
prepared, and each system tokenized and counted, once per tokenization,
and only statistics are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..corpus.systems import SystemStatistics, collect
from ..metrics.base import AnyMetric
from ..metrics.inputs import RefStreams
from .agreement import kendall_tau_b, rank_flips, ranks


@dataclass(frozen=True)
class Matrix:
    systems: list[str]
    variants: list[str]
    signatures: list[str]
    scores: list[list[float]]  # scores[v][s]
    #: per variant, whether a higher score is better (``Metric.higher_is_better``)
    higher_is_better: list[bool]

    @property
    def qualities(self) -> list[list[float]]:
        """The scores turned so that higher is better for every variant:
        what rankings, tau and rank flips compare."""
        return [
            col if up else [-x for x in col] for col, up in zip(self.scores, self.higher_is_better)
        ]

    def ranks(self) -> list[list[int]]:
        return [ranks(col) for col in self.qualities]

    def pairs(self) -> list[dict[str, Any]]:
        out = []
        q = self.qualities
        for i, j in combinations(range(len(self.variants)), 2):
            out.append(
                {
                    "a": self.variants[i],
                    "b": self.variants[j],
                    "kendall_tau": kendall_tau_b(q[i], q[j]) if len(self.systems) > 1 else None,
                    "rank_flips": [list(f) for f in rank_flips(self.systems, q[i], q[j])],
                }
            )
        return out


def build(
    variants: Sequence[AnyMetric],
    named_hyps: Sequence[tuple[str, Sequence[str]]],
    streams: RefStreams,
) -> Matrix:
    """Score every system (held in memory) under every variant (BLEU or
    chrF), sharing what can be shared."""
    return from_stats(variants, collect(variants, named_hyps, streams))


def from_stats(variants: Sequence[AnyMetric], stats: SystemStatistics) -> Matrix:
    """Every system under every variant, from statistics collected for
    these variants."""
    scores = []
    for variant in variants:
        scores.append([variant.score_value(stats.total(variant, name)) for name in stats.systems])
    signatures = [v.signature(stats.nrefs).long for v in variants]
    better = [v.higher_is_better for v in variants]
    return Matrix(list(stats.systems), [v.name for v in variants], signatures, scores, better)
