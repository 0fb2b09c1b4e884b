"""``SimpleMetric``: the ``Metric`` interface written once for a metric whose
statistics are a few non-negative integers per segment, computed in Python
from one prepared hypothesis and its prepared references, and summed
element by element over a corpus (EED; a third party's metric, as in
docs/examples/bleukit-metric-example).

A subclass gives its configuration class and four things:

* ``prepare(line)``: a line as the metric reads it (a string, tokens...);
* ``segment(hyp, refs)``: a segment's statistics, a tuple of ``width``
  non-negative integers, from the prepared hypothesis and references;
* ``score_of(stats)``: the score of (summed) statistics;
* ``result(score, stats, signature)``: the result object.

Everything else (prepared references, corpus and sentence scores, partial
statistics, resampling rows, statistics stores) comes from here, so that the
new metric works in every command.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.errors import InputError
from ..tokenizers.pipeline import make_tokenization
from .base import Metric, MetricSignature, SegmentStore, StatisticsStore
from .inputs import RefStreams, check_hypotheses, check_ref_streams, engine_for

Stats = tuple[int, ...]


@dataclass(frozen=True)
class PreparedSegments:
    """References prepared once: per segment, each of its references as
    ``prepare`` makes it."""

    key: tuple[object, ...]
    nrefs: int | str
    per_segment: tuple[int, ...]
    refs: tuple[tuple[Any, ...], ...]

    @property
    def size(self) -> int:
        return len(self.refs)


class SimpleMetric(Metric[Stats, Any]):
    """A metric of per-segment integer statistics that add up."""

    #: how many integers a segment's statistics hold
    width: ClassVar[int]
    #: what the statistics are, for an error about malformed partials
    stats_description: ClassVar[str]
    #: the signature class (``cls(config, nrefs)``)
    signature_type: ClassVar[type[MetricSignature]]

    def __init__(self, config: Any, engine: str | None = None, threads: int | None = None) -> None:
        super().__init__(config, engine, threads)
        # the statistics are computed here, in Python; the engine resamples
        # and serves what every metric asks of one (plain text runs on any)
        self.engine = engine_for(engine, make_tokenization("none", "unicode.v1", False))

    # ------------------------------------------------------ the hooks

    @abstractmethod
    def prepare(self, line: str) -> Any:
        """A line as ``segment`` reads it."""

    @abstractmethod
    def segment(self, hyp: Any, refs: Sequence[Any]) -> Stats:
        """A segment's statistics from its prepared hypothesis and references."""

    @abstractmethod
    def score_of(self, stats: Stats) -> float:
        """The score of (summed) statistics."""

    @abstractmethod
    def result(self, score: float, stats: Stats, signature: MetricSignature) -> Any:
        """The result object of a score."""

    # ------------------------------------------------ what they give

    @property
    def order(self) -> int:
        """No n-gram order: 0 (``agree`` has nothing to search)."""
        return 0

    def with_order(self, order: int) -> Any:
        raise InputError(f"{self.name}: {self.family} has no n-gram order to change")

    @property
    def score_name(self) -> str:
        return str(self.config.score_name)

    def signature(self, nrefs: int | str) -> MetricSignature:
        return self.signature_type(self.config, nrefs)  # type: ignore[call-arg]

    def reference_key(self) -> tuple[object, ...]:
        return (type(self).__qualname__, self.signature(1).digest)

    def prepare_references(self, ref_streams: RefStreams | PreparedSegments) -> PreparedSegments:
        """Prepare the references once, to score many systems against them."""
        if isinstance(ref_streams, PreparedSegments):
            if ref_streams.key != self.reference_key():
                raise InputError(
                    f"these references were prepared by another {self.family} variant; "
                    "prepare them with this one"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        refs = tuple(
            tuple(self.prepare(r) for r in segment if r is not None)
            for segment in zip(*ref_streams)
        )
        return PreparedSegments(self.reference_key(), nrefs, tuple(per_segment), refs)

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | PreparedSegments
    ) -> tuple[list[Stats], int | str]:
        prepared = self.prepare_references(refs)
        check_hypotheses(hyps, prepared.size)
        out = []
        for i, (hyp, segment_refs) in enumerate(zip(hyps, prepared.refs)):
            try:
                out.append(self.segment(self.prepare(hyp), segment_refs))
            except ArithmeticError as exc:
                raise InputError(f"{self.name}: segment {i + 1}: {exc}") from None
        return out, prepared.nrefs

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | PreparedSegments
    ) -> tuple[Stats, int | str]:
        stats, nrefs = self.segment_stats(hyps, refs)
        return self.sum_stats(stats), nrefs

    def score_values(self, stats: Iterable[Stats]) -> list[float]:
        return [self.score_of(s) for s in stats]

    def score_stats(self, stats: Stats, nrefs: int | str) -> Any:
        return self.result(self.score_of(stats), stats, self.signature(nrefs))

    def sentence_results(self, segments: Sequence[Stats], per_segment: Sequence[int]) -> list[Any]:
        signatures = {n: self.signature(n) for n in set(per_segment)}
        return [
            self.result(self.score_of(s), s, signatures[n]) for s, n in zip(segments, per_segment)
        ]

    def zero_stats(self) -> Stats:
        return (0,) * self.width

    def add_stats(self, a: Stats, b: Stats) -> Stats:
        return tuple(x + y for x, y in zip(a, b))

    def check_stats(self, stats: object) -> None:
        if (
            not isinstance(stats, tuple)
            or len(stats) != self.width
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in stats)
        ):
            raise InputError(
                f"invalid partial statistics: {self.name} keeps {self.stats_description}, "
                f"{self.width} non-negative integers"
            )

    def row(self, stats: Stats) -> Stats:
        return stats

    def from_row(self, sums: Sequence[Any], segments: int, last: Stats) -> Stats:
        return tuple(sums)

    def store_key(self) -> tuple[object, ...]:
        return (type(self).__qualname__, self.fingerprint)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[Stats]:
        return SegmentStore(self, systems, per_segment)
