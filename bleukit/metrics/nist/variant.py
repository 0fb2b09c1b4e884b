"""NIST (Doddington 2002) as a ``Metric``: a loaded NIST variant scores
corpora and segments as mteval-v13a.pl does (its per-segment scores use
the corpus's information weights, as mteval's segment scores do).

An n-gram's information comes from every reference of the corpus, so a
corpus is counted in one piece: the streaming commands read it as one
chunk (``batch_lines``), the statistics of several systems keep the
tokens until they are asked for (``NistStore``), and partial statistics
of parts of a corpus are refused (``whole_corpus``).

>>> import bleukit
>>> nist = bleukit.load_metric("NIST")
>>> print(nist.corpus_score(["the cat sat on the mat"], [["the cat sat on a mat"]]))
NIST = 2.1541
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.errors import InputError
from ...core.ngrams import Ngram
from ...engines import limited_threads
from ..base import StatisticsStore
from ..inputs import RefStreams, check_hypotheses, check_ref_streams
from ..words import TokenCounting, Words
from .config import NIST_SCORING_FIELDS, NistConfig
from .core import (
    INFO_SCALE,
    NistResult,
    NistSignature,
    NistStats,
    information,
    nist_score,
)
from .core import segment_stats as nist_segment_stats


@dataclass(frozen=True)
class NistReferences:
    """References prepared once: per segment the tokens of each of its
    references, and every reference n-gram's information."""

    key: tuple[object, ...]
    nrefs: int | str
    per_segment: tuple[int, ...]
    words: tuple[tuple[Words, ...], ...]
    info: dict[Ngram, int]

    @property
    def size(self) -> int:
        return len(self.words)


class NistVariant(TokenCounting):
    """A complete, validated NIST variant ready to score text."""

    config: NistConfig
    family = "NIST"
    percent = False
    whole_corpus = "NIST weighs each n-gram by its information in all the references"

    def details(self, result: NistResult) -> dict[str, Any]:
        return {
            "columns": {"sys_len": result.sys_len, "ref_len": float(result.ref_len)},
            "bars": [],
            "bars_label": "",
        }

    def signature(self, nrefs: int | str) -> NistSignature:
        return NistSignature(self.config, nrefs)

    def reference_key(self) -> tuple[object, ...]:
        return ("nist", *(getattr(self.config, f) for f in NIST_SCORING_FIELDS))

    def prepare_references(self, ref_streams: RefStreams | NistReferences) -> NistReferences:
        """Tokenize the references and weigh their n-grams, once, to score
        many systems against them: ``ref_streams`` must be the whole corpus's."""
        if isinstance(ref_streams, NistReferences):
            if ref_streams.key != self.reference_key():
                raise InputError(
                    "these references were prepared by another NIST variant; "
                    "prepare them with this one"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        streams = [self.stream_tokens(stream) for stream in ref_streams]
        words = tuple(tuple(ref for ref in refs if ref is not None) for refs in zip(*streams))
        info = information((ref for refs in words for ref in refs), self.config.max_order)
        return NistReferences(self.reference_key(), nrefs, tuple(per_segment), words, info)

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | NistReferences
    ) -> tuple[list[NistStats], int | str]:
        prepared = self.prepare_references(refs)
        check_hypotheses(hyps, prepared.size)
        order = self.config.max_order
        with limited_threads(self.threads):
            tokens = self.tokens(hyps)
        return [
            nist_segment_stats(hyp, r, prepared.info, order)
            for hyp, r in zip(tokens, prepared.words)
        ], prepared.nrefs

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | NistReferences
    ) -> tuple[NistStats, int | str]:
        stats, nrefs = self.segment_stats(hyps, refs)
        return self.sum_stats(stats), nrefs

    def score_values(self, stats: Iterable[NistStats]) -> list[float]:
        order = self.config.max_order
        return [nist_score(s, order) for s in stats]

    def _result(self, stats: NistStats, nrefs: int | str) -> NistResult:
        order = self.config.max_order
        totals = tuple(int(t) for t in stats[1 : 1 + order])
        bits = tuple(int(i) / INFO_SCALE for i in stats[1 + order :])
        return NistResult(
            nist_score(stats, order), totals, bits, totals[0], stats[0], self.signature(nrefs)
        )

    def score_stats(self, stats: NistStats, nrefs: int | str) -> NistResult:
        return self._result(stats, nrefs)

    def sentence_results(
        self, segments: Sequence[NistStats], per_segment: Sequence[int]
    ) -> list[NistResult]:
        return [self._result(s, n) for s, n in zip(segments, per_segment)]

    # ------------------------------------------------------ statistics

    def zero_stats(self) -> NistStats:
        return (0,) * (1 + 2 * self.config.max_order)

    def add_stats(self, a: NistStats, b: NistStats) -> NistStats:
        return tuple(x + y for x, y in zip(a, b))

    def check_stats(self, stats: object) -> None:
        from fractions import Fraction

        width = 1 + 2 * self.config.max_order
        if (
            not isinstance(stats, tuple)
            or len(stats) != width
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in stats[1:])
            or not (isinstance(stats[0], (int, Fraction)) and stats[0] >= 0)
        ):
            raise InputError(
                f"invalid partial statistics: {self.name} keeps {width} non-negative numbers "
                "(reference length, n-grams per order, information per order)"
            )

    def row(self, stats: NistStats) -> NistStats:
        return stats

    def from_row(self, sums: Sequence[Any], segments: int, last: NistStats) -> NistStats:
        return tuple(sums)

    def store_key(self) -> tuple[object, ...]:
        return ("nist", self.fingerprint)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[NistStats]:
        return NistStore(metrics[0], systems)


class NistStore(StatisticsStore[NistStats]):
    """Several systems' statistics under one NIST variant. The information
    weights need every reference of the corpus, so the chunks' text is
    kept as it comes and counted when statistics are first asked for."""

    def __init__(self, variant: NistVariant, systems: int) -> None:
        self._variant = variant
        self._refs: list[list[str | None]] | None = None
        self._hyps: list[list[str]] = [[] for _ in range(systems)]
        self._segments: list[list[NistStats]] | None = None

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        if self._refs is None:
            self._refs = [[] for _ in ref_streams]
        if len(ref_streams) != len(self._refs):
            raise InputError(
                f"a chunk has {len(ref_streams)} reference streams, the first {len(self._refs)}"
            )
        for stream, lines in zip(self._refs, ref_streams):
            stream.extend(lines)
        for kept, lines in zip(self._hyps, hyps):
            kept.extend(lines)
        self._segments = None

    def extend(self, later: NistStore) -> None:
        if later._refs is not None:
            self.add(later._refs, later._hyps)

    def _counted(self) -> list[list[NistStats]]:
        if self._segments is None:
            v = self._variant
            if self._refs is None:
                raise InputError("no segments to score")
            prepared = v.prepare_references(self._refs)
            self._segments = [v.segment_stats(lines, prepared)[0] for lines in self._hyps]
        return self._segments

    def segments(self, metric: NistVariant, system: int) -> Sequence[NistStats]:
        return self._counted()[system]

    def total(self, metric: NistVariant, system: int) -> NistStats:
        total: NistStats = self._variant.sum_stats(self._counted()[system])
        return total
