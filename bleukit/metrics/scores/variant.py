"""External segment scores as a ``Metric``: a system's score is the mean of
its segments' scores, looked up by system and segment in the file the
configuration names, so that COMET, BLEURT or MetricX scores are compared,
ranked, reported and meta-evaluated beside any bleukit variant.

The statistics are not computed from the text: a store counts the segments
each chunk brings (in order; partials of later chunks append), and the
scores of those segments come from the file. Scoring a lone hypothesis
file (``corpus_score``) has no system to look up and is refused."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from ...core.errors import InputError
from ..base import StatisticsStore
from ..inputs import RefStreams
from ..simple import SimpleMetric
from .config import ScoresConfig
from .core import FixedPoint, ScoresResult, ScoresSignature, ScoresStats
from .reading import Table, digest, read_scores, scores_of


class ScoresVariant(SimpleMetric):
    """External segment scores where a higher score is better."""

    config: ScoresConfig
    family = "scores"
    percent = False
    width = 2
    stats_description = "(scores in fixed point, segments)"
    signature_type = ScoresSignature

    def __new__(
        cls, config: ScoresConfig, engine: str | None = None, threads: int | None = None
    ) -> ScoresVariant:
        # oriented as the configuration says: which way is better is the
        # class's (``Metric.higher_is_better``), so lower scores get theirs
        if cls is ScoresVariant and config.lower_is_better:
            cls = LowerScoresVariant
        return super().__new__(cls)

    @property
    def score_name(self) -> str:
        return self.config.label

    @cached_property
    def table(self) -> Table:
        """The file's scores, read once, the file checked to be the one the
        configuration's digest names."""
        path = self.config.path
        if not path:
            raise InputError(f"{self.name}: external scores need the file they come from")
        found = digest(path)
        if found != self.config.sha256:
            raise InputError(
                f"{path}: its sha256 is {found[:12]}..., not the {self.config.sha256[:12]}... "
                f"{self.name}'s signature states: the file changed"
            )
        return read_scores(path)

    @cached_property
    def fixed(self) -> FixedPoint:
        return FixedPoint.of([x for row in self.table.values() for x in row])

    def system_stats(self, system: str, segments: int) -> list[ScoresStats]:
        """A system's per-segment statistics, its scores the file's for the
        test set's ``segments`` segments (exactly as many)."""
        values = scores_of(self.table, system, self.config.path)
        if len(values) != segments:
            raise InputError(
                f"{self.config.path}: {system} has {len(values):,} scores; the test set has "
                f"{segments:,} segments"
            )
        encode = self.fixed.encode
        return [(encode(x), 1) for x in values]

    # ------------------------------------------------------ the hooks

    def prepare(self, line: str) -> str:
        return line

    def segment(self, hyp: Any, refs: Sequence[Any]) -> ScoresStats:
        raise InputError(
            f"{self.name}: external scores are looked up by system and segment, not computed "
            "from a hypothesis: use them with the systems' names (compare, report, matrix, meta)"
        )

    def score_of(self, stats: Any) -> float:
        return self.fixed.mean(stats)

    def result(self, score: float, stats: Any, signature: Any) -> ScoresResult:
        return ScoresResult(score, stats[1], self.config.label, signature)

    def details(self, result: ScoresResult) -> dict[str, Any]:
        return {"columns": {"segments": result.segments}, "bars": [], "bars_label": ""}

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[ScoresStats]:
        if len(self.config.systems) != systems:
            raise InputError(
                f"{self.name}: its scores were bound to {len(self.config.systems)} systems, "
                f"not {systems}"
            )
        return ScoresStore(self)


class LowerScoresVariant(ScoresVariant):
    """External segment scores where a lower score is better (MetricX, an
    error count)."""

    higher_is_better = False


class ScoresStore(StatisticsStore[ScoresStats]):
    """External scores of several systems: the store counts the segments
    added (every system brings as many), and reads each system's
    statistics from the file once every chunk is in."""

    def __init__(self, variant: ScoresVariant) -> None:
        self._variant = variant
        self._segments = 0

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        self._segments += len(hyps[0]) if hyps else 0

    def extend(self, later: ScoresStore) -> None:
        self._segments += later._segments

    @cached_property
    def _rows(self) -> list[list[ScoresStats]]:
        v = self._variant
        return [v.system_stats(name, self._segments) for name in v.config.systems]

    def segments(self, metric: Any, system: int) -> Sequence[ScoresStats]:
        return self._rows[system]

    def total(self, metric: Any, system: int) -> ScoresStats:
        return self._variant.sum_stats(self._rows[system])
