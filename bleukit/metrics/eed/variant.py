"""EED as a ``Metric``: a loaded EED variant scores corpora and sentences as
torchmetrics' ``ExtendedEditDistance`` does, on the 0-100 scale (lower is
better).

>>> import bleukit
>>> eed = bleukit.load_metric("EED")
>>> print(eed.corpus_score(["this is the prediction", "here is an other sample"],
...                        [["this is the reference", "here is another one"]]))
EED = 30.78
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.errors import InputError
from ...tokenizers.pipeline import make_tokenization
from ..base import Metric, SegmentStore, StatisticsStore
from ..inputs import RefStreams, check_hypotheses, check_ref_streams, engine_for
from .config import EED_SCORING_FIELDS, EedConfig
from .core import (
    EED_SCALE,
    PREPROCESS,
    EedResult,
    EedSignature,
    EedStats,
    eed_score,
    segment_stats,
)


@dataclass(frozen=True)
class EedReferences:
    """References prepared once: per segment, each of its references
    preprocessed."""

    key: tuple[object, ...]
    nrefs: int | str
    per_segment: tuple[int, ...]
    texts: tuple[tuple[str, ...], ...]

    @property
    def size(self) -> int:
        return len(self.texts)


class EedVariant(Metric[EedStats, EedResult]):
    """A complete, validated EED variant ready to score text."""

    config: EedConfig
    family = "EED"
    higher_is_better = False

    def __init__(
        self, config: EedConfig, engine: str | None = None, threads: int | None = None
    ) -> None:
        super().__init__(config, engine, threads)
        self.preprocess = PREPROCESS[config.language]
        # the distances are computed here, in Python; the engine resamples
        # and serves what every metric asks of one (plain text runs on any)
        self.engine = engine_for(engine, make_tokenization("none", "unicode.v1", False))

    @property
    def order(self) -> int:
        """EED has no n-gram order: 0 (``agree`` has nothing to search)."""
        return 0

    def with_order(self, order: int) -> EedVariant:
        raise InputError(f"{self.name}: EED aligns characters, not n-grams: it has no order")

    @property
    def score_name(self) -> str:
        return self.config.score_name

    def details(self, result: EedResult) -> dict[str, Any]:
        return {"columns": {"segments": result.segments}, "bars": [], "bars_label": ""}

    def signature(self, nrefs: int | str) -> EedSignature:
        return EedSignature(self.config, nrefs)

    def reference_key(self) -> tuple[object, ...]:
        return ("eed", *(getattr(self.config, f) for f in EED_SCORING_FIELDS))

    def prepare_references(self, ref_streams: RefStreams | EedReferences) -> EedReferences:
        """Preprocess the references once, to score many systems against them."""
        if isinstance(ref_streams, EedReferences):
            if ref_streams.key != self.reference_key():
                raise InputError(
                    "these references were prepared by another EED variant; "
                    "prepare them with this one"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        texts = tuple(
            tuple(self.preprocess(r) for r in refs if r is not None) for refs in zip(*ref_streams)
        )
        return EedReferences(self.reference_key(), nrefs, tuple(per_segment), texts)

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | EedReferences
    ) -> tuple[list[EedStats], int | str]:
        prepared = self.prepare_references(refs)
        check_hypotheses(hyps, prepared.size)
        out = []
        for i, (hyp, texts) in enumerate(zip(hyps, prepared.texts)):
            try:
                out.append(segment_stats(self.preprocess(hyp), texts, self.config))
            except ZeroDivisionError as exc:
                raise InputError(f"{self.name}: segment {i + 1}: {exc}") from None
        return out, prepared.nrefs

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | EedReferences
    ) -> tuple[EedStats, int | str]:
        stats, nrefs = self.segment_stats(hyps, refs)
        return self.sum_stats(stats), nrefs

    def score_values(self, stats: Iterable[EedStats]) -> list[float]:
        return [eed_score(s) for s in stats]

    def score_stats(self, stats: EedStats, nrefs: int | str) -> EedResult:
        return EedResult(eed_score(stats), stats[0], stats[1], self.signature(nrefs))

    def sentence_results(
        self, segments: Sequence[EedStats], per_segment: Sequence[int]
    ) -> list[EedResult]:
        signatures = {n: self.signature(n) for n in set(per_segment)}
        return [
            EedResult(eed_score(s), s[0], s[1], signatures[n])
            for s, n in zip(segments, per_segment)
        ]

    # ------------------------------------------------------ statistics

    def zero_stats(self) -> EedStats:
        return (0, 0)

    def add_stats(self, a: EedStats, b: EedStats) -> EedStats:
        return (a[0] + b[0], a[1] + b[1])

    def check_stats(self, stats: object) -> None:
        if (
            not isinstance(stats, tuple)
            or len(stats) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in stats)
            or stats[0] > stats[1] * EED_SCALE
        ):
            raise InputError(
                f"invalid partial statistics: {self.name} keeps (distance sum in units of "
                "2**-60, segments), two non-negative integers, the sum at most one per segment"
            )

    def row(self, stats: EedStats) -> EedStats:
        return stats

    def from_row(self, sums: Sequence[Any], segments: int, last: EedStats) -> EedStats:
        return (sums[0], sums[1])

    def store_key(self) -> tuple[object, ...]:
        return ("eed", self.fingerprint)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[EedStats]:
        return SegmentStore(self, systems, per_segment)
