"""TER (Snover et al. 2006) as a ``Metric``: a loaded TER variant scores
corpora and sentences as sacrebleu 2.6.0's ``TER`` does. Lower is better.

>>> import bleukit
>>> ter = bleukit.load_metric("TER")
>>> print(ter.sentence_score("the saudis denied this", ["saudi arabia denied this"]))
TER = 50.00
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.errors import InputError
from ...core.reflen import RefLength, mean_length
from ...engines import limited_threads
from ...tokenizers.pipeline import make_tokenization
from ..base import Metric, SegmentStore, StatisticsStore
from ..inputs import RefStreams, check_hypotheses, check_ref_streams, engine_for
from .config import TER_SCORING_FIELDS, TerConfig
from .core import TerResult, TerSignature, TerStats, ter_score
from .normalize import TercomNormalizer


@dataclass(frozen=True)
class TerReferences:
    """References prepared once: per segment, the words of each of its
    references (Tercom's normalization applied)."""

    key: tuple[object, ...]
    nrefs: int | str
    per_segment: tuple[int, ...]
    words: tuple[tuple[tuple[str, ...], ...], ...]

    @property
    def size(self) -> int:
        return len(self.words)


class TerVariant(Metric[TerStats, TerResult]):
    """A complete, validated TER variant ready to score text."""

    config: TerConfig
    family = "TER"
    higher_is_better = False

    def __init__(
        self, config: TerConfig, engine: str | None = None, threads: int | None = None
    ) -> None:
        super().__init__(config, engine, threads)
        self.normalizer = TercomNormalizer(
            config.normalized, config.no_punct, config.asian_support, config.case_sensitive
        )
        # the engine counts the edits (Engine.edit_counts) of the words
        # normalized here: it is resolved for plain text, which every
        # engine runs
        self.engine = engine_for(engine, make_tokenization("none", "unicode.v1", False))

    @property
    def order(self) -> int:
        """TER has no n-gram order: 0 (``agree`` has nothing to search)."""
        return 0

    def with_order(self, order: int) -> TerVariant:
        raise InputError(f"{self.name}: TER counts edits, not n-grams: it has no order to change")

    @property
    def score_name(self) -> str:
        return self.config.score_name

    def display_tokens(self, lines: Sequence[str]) -> list[list[str]]:
        return [self.normalizer.words(line) for line in lines]

    def details(self, result: TerResult) -> dict[str, Any]:
        return {
            "columns": {"edits": result.num_edits, "ref_len": float(result.ref_length)},
            "bars": [],
            "bars_label": "",
        }

    def signature(self, nrefs: int | str) -> TerSignature:
        return TerSignature(self.config, nrefs)

    def reference_key(self) -> tuple[object, ...]:
        return ("ter", *(getattr(self.config, f) for f in TER_SCORING_FIELDS))

    def prepare_references(self, ref_streams: RefStreams | TerReferences) -> TerReferences:
        """Normalize the references once, to score many systems against them."""
        if isinstance(ref_streams, TerReferences):
            if ref_streams.key != self.reference_key():
                raise InputError(
                    "these references were prepared by another TER variant; "
                    "prepare them with this one"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        words = self.normalizer.reference_words
        segments = tuple(
            tuple(tuple(words(r)) for r in refs if r is not None) for refs in zip(*ref_streams)
        )
        return TerReferences(self.reference_key(), nrefs, tuple(per_segment), segments)

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | TerReferences
    ) -> tuple[list[TerStats], int | str]:
        """Per segment, the fewest edits to any of its references and the
        mean length of its references, and the number of references."""
        prepared = self.prepare_references(refs)
        check_hypotheses(hyps, prepared.size)
        words = self.normalizer.words
        with limited_threads(self.threads):
            edits = self.engine.edit_counts([words(h) for h in hyps], prepared.words)
        return [(e, mean_length(r)) for e, r in zip(edits, prepared.words)], prepared.nrefs

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | TerReferences
    ) -> tuple[TerStats, int | str]:
        stats, nrefs = self.segment_stats(hyps, refs)
        return self.sum_stats(stats), nrefs

    def score_values(self, stats: Iterable[TerStats]) -> list[float]:
        return [ter_score(s) for s in stats]

    def score_stats(self, stats: TerStats, nrefs: int | str) -> TerResult:
        return TerResult(ter_score(stats), stats[0], stats[1], self.signature(nrefs))

    def sentence_results(
        self, segments: Sequence[TerStats], per_segment: Sequence[int]
    ) -> list[TerResult]:
        signatures = {n: self.signature(n) for n in set(per_segment)}
        return [
            TerResult(ter_score(s), s[0], s[1], signatures[n])
            for s, n in zip(segments, per_segment)
        ]

    # ------------------------------------------------------ statistics

    def zero_stats(self) -> TerStats:
        return (0, 0)

    def add_stats(self, a: TerStats, b: TerStats) -> TerStats:
        return (a[0] + b[0], a[1] + b[1])

    def check_stats(self, stats: object) -> None:
        if (
            not isinstance(stats, tuple)
            or len(stats) != 2
            or not all(isinstance(x, (int, Fraction)) and x >= 0 for x in stats)
        ):
            raise InputError(
                f"invalid partial statistics: {self.name} keeps (edits, reference length), "
                "two non-negative numbers"
            )

    def row(self, stats: TerStats) -> TerStats:
        return stats

    def from_row(self, sums: Sequence[Any], segments: int, last: TerStats) -> TerStats:
        return (sums[0], sums[1])

    def sacrebleu_row(self, row: Sequence[RefLength]) -> Sequence[Any]:
        # sacrebleu keeps a segment's mean reference length as a Python
        # float (``ref_lengths / len(ref_words)``), rounded where it is not
        # whole: its resampling sums those roundings
        edits, ref_len = row
        return (edits, ref_len if isinstance(ref_len, int) else float(ref_len))

    def store_key(self) -> tuple[object, ...]:
        return ("ter", self.fingerprint)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[TerStats]:
        return SegmentStore(self, systems, per_segment)
