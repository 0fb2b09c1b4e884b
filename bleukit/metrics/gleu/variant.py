"""GLEU (Wu et al. 2016) as a ``Metric``: a loaded GLEU variant scores
corpora and sentences as NLTK's ``corpus_gleu`` / ``sentence_gleu`` and HF
evaluate's ``google_bleu`` do, on the 0-100 scale.

>>> import bleukit
>>> gleu = bleukit.load_metric("GLEU")
>>> print(gleu.sentence_score("the cat sat on the mat", ["the cat ate the mat"]))
GLEU = 33.33
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.errors import InputError
from ...engines import limited_threads
from ..base import SegmentStore, StatisticsStore
from ..inputs import RefStreams, check_hypotheses, check_ref_streams
from ..words import TokenCounting, Words
from .config import GLEU_SCORING_FIELDS, GleuConfig
from .core import GleuResult, GleuSignature, GleuStats, gleu_score
from .core import segment_stats as gleu_segment_stats


@dataclass(frozen=True)
class GleuReferences:
    """References prepared once: per segment, the tokens of each of its
    references."""

    key: tuple[object, ...]
    nrefs: int | str
    per_segment: tuple[int, ...]
    #: each reference stream as the engine's counting tables read it, where
    #: every segment has one in every stream; else None, and ``words``
    #: holds each segment's references' tokens, counted in Python
    streams: tuple[object, ...] | None
    words: tuple[tuple[Words, ...], ...] = ()

    @property
    def size(self) -> int:
        return len(self.per_segment)


def _ngrams(length: int, low: int, high: int) -> int:
    """The n-grams of orders ``low`` to ``high`` in ``length`` tokens."""
    return sum(max(0, length - n + 1) for n in range(low, high + 1))


class GleuVariant(TokenCounting):
    """A complete, validated GLEU variant ready to score text."""

    config: GleuConfig
    family = "GLEU"

    def details(self, result: GleuResult) -> dict[str, Any]:
        return {
            "columns": {"matches": result.matches, "total": result.total},
            "bars": [],
            "bars_label": "",
        }

    def signature(self, nrefs: int | str) -> GleuSignature:
        return GleuSignature(self.config, nrefs)

    def reference_key(self) -> tuple[object, ...]:
        return ("gleu", *(getattr(self.config, f) for f in GLEU_SCORING_FIELDS))

    def prepare_references(self, ref_streams: RefStreams | GleuReferences) -> GleuReferences:
        """Tokenize the references once, to score many systems against them."""
        if isinstance(ref_streams, GleuReferences):
            if ref_streams.key != self.reference_key():
                raise InputError(
                    "these references were prepared by another GLEU variant; "
                    "prepare them with this one"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        key, counts = self.reference_key(), tuple(per_segment)
        if all(line is not None for stream in ref_streams for line in stream):
            with limited_threads(self.threads):
                prepared = tuple(
                    self.engine.prepare(self.tokenization, [stream], self.config.max_order)
                    for stream in ref_streams
                )
            return GleuReferences(key, nrefs, counts, prepared)
        streams = [self.stream_tokens(stream) for stream in ref_streams]
        words = tuple(tuple(r for r in refs if r is not None) for refs in zip(*streams))
        return GleuReferences(key, nrefs, counts, None, words)

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | GleuReferences
    ) -> tuple[list[GleuStats], int | str]:
        prepared = self.prepare_references(refs)
        check_hypotheses(hyps, prepared.size)
        low, high = self.config.min_order, self.config.max_order
        if prepared.streams is not None:
            return self._counted(hyps, prepared.streams), prepared.nrefs
        with limited_threads(self.threads):
            tokens = self.tokens(hyps)
        return [
            gleu_segment_stats(hyp, r, low, high) for hyp, r in zip(tokens, prepared.words)
        ], prepared.nrefs

    def _counted(self, hyps: Sequence[str], streams: Sequence[object]) -> list[GleuStats]:
        """``core.segment_stats`` of every segment from the engine's counting
        tables, one reference stream at a time (BLEU's clipped matches
        against one reference are GLEU's): per reference, the matches of
        orders ``min_order`` to ``max_order`` and the larger n-gram total;
        the reference of the best ratio, the first of equal ones."""
        low, high = self.config.min_order, self.config.max_order
        best: list[GleuStats] = [(0, 0)] * len(hyps)
        ratios = [-1.0] * len(hyps)
        with limited_threads(self.threads):
            for stream in streams:
                i = 0
                for table in self.engine.tables(self.tokenization, hyps, stream, high):
                    width, flat = table.order, table.matches
                    for k, (h, r) in enumerate(zip(table.hyp_len, table.ref_len)):
                        total = max(_ngrams(h, low, high), _ngrams(r, low, high))
                        if total:
                            at = k * width
                            matches = sum(flat[at + low - 1 : at + high])
                            # compared as NLTK compares them: float ratios
                            ratio = matches / total
                            if ratio > ratios[i]:
                                best[i], ratios[i] = (matches, total), ratio
                        i += 1
        return best

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | GleuReferences
    ) -> tuple[GleuStats, int | str]:
        stats, nrefs = self.segment_stats(hyps, refs)
        return self.sum_stats(stats), nrefs

    def score_values(self, stats: Iterable[GleuStats]) -> list[float]:
        return [gleu_score(s) for s in stats]

    def score_stats(self, stats: GleuStats, nrefs: int | str) -> GleuResult:
        return GleuResult(gleu_score(stats), stats[0], stats[1], self.signature(nrefs))

    def sentence_results(
        self, segments: Sequence[GleuStats], per_segment: Sequence[int]
    ) -> list[GleuResult]:
        return [self.score_stats(s, n) for s, n in zip(segments, per_segment)]

    # ------------------------------------------------------ statistics

    def zero_stats(self) -> GleuStats:
        return (0, 0)

    def add_stats(self, a: GleuStats, b: GleuStats) -> GleuStats:
        return (a[0] + b[0], a[1] + b[1])

    def check_stats(self, stats: object) -> None:
        if (
            not isinstance(stats, tuple)
            or len(stats) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in stats)
            or stats[0] > stats[1]
        ):
            raise InputError(
                f"invalid partial statistics: {self.name} keeps (matches, total), two "
                "non-negative integers, matches at most total"
            )

    def row(self, stats: GleuStats) -> GleuStats:
        return stats

    def from_row(self, sums: Sequence[Any], segments: int, last: GleuStats) -> GleuStats:
        return (sums[0], sums[1])

    def store_key(self) -> tuple[object, ...]:
        return ("gleu", self.fingerprint)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[GleuStats]:
        return SegmentStore(self, systems, per_segment)
