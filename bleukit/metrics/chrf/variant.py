"""The Python API for chrF and chrF++: a loaded chrF variant scores corpora
and sentences, on the engine chosen for it (``variant.engine_for``).

>>> import bleukit
>>> chrf = bleukit.load_chrf("chrF")
>>> round(chrf.sentence_score("the cat sat on the mat", ["the cat sat on a mat"]).score, 4)
72.0848
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...config.loading import load_any_config
from ...config.model import CHRF_SCORING_FIELDS, ChrfConfig, with_overrides
from ...core.errors import ConfigError, InputError
from ...core.partial import Partial
from ...core.stats import Stats
from ...engines import call_threads, limited_threads
from ...tokenizers import Tokenization
from ..bleu.variant import (
    RefStreams,
    Variant,
    check_hypotheses,
    check_partial,
    check_ref_streams,
    engine_for,
    no_segments,
    sentence_references,
)
from .core import (
    ChrfResult,
    ChrfSignature,
    StreamCounts,
    best_triples,
    char_tokenization,
    f_score,
    stream_sums,
    sum_triples,
    word_tokenization,
)


@dataclass(frozen=True)
class ChrfReferences:
    """Reference streams prepared once: per stream, the engine's payload
    for characters and for words (None where the variant counts none)."""

    key: tuple[object, ...]
    size: int
    nrefs: int | str
    per_segment: tuple[int, ...]
    chars: tuple[object, ...]
    words: tuple[object, ...]
    #: per stream, which segments have a reference in it (None: all)
    present: tuple[tuple[bool, ...] | None, ...]


class ChrfVariant:
    """A complete, validated chrF variant ready to score text (``engine``:
    None for ``BLEUKIT_ENGINE``, "auto", or an engine's name)."""

    #: an F-score over character n-grams is rarely 0 for a sentence
    zero_without_match = False

    def __init__(
        self, config: ChrfConfig, engine: str | None = None, threads: int | None = None
    ) -> None:
        self.config = config
        #: the most threads the engine may use for this variant (None: its default)
        self.threads = threads
        self.name = config.name or "custom"
        self._requested_engine = engine
        self._chars = (
            char_tokenization(config.lowercase, config.whitespace) if config.char_order else None
        )
        self._words = word_tokenization(config.lowercase) if config.word_order else None
        used = [t for t in (self._chars, self._words) if t is not None]
        # the built-in forms run on every engine that runs one of them
        self.engine = engine_for(engine, used[0])

    def __repr__(self) -> str:
        return f"ChrfVariant({self.name!r}, {self.signature(1).short!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its configuration, rebuilt (tokenizations, engine) on load
        return (ChrfVariant, (self.config, self._requested_engine, self.threads))

    @property
    def fingerprint(self) -> str:
        """What a score depends on: partials of equal fingerprints merge."""
        return self.signature(1).digest

    def with_overrides(self, **overrides: Any) -> ChrfVariant:
        """A new variant with some fields changed (validated again)."""
        from ...config.schema import validate_chrf

        data = with_overrides(self.config.as_dict(), overrides)
        config = validate_chrf(data, f"variant {self.name} with overrides")
        return ChrfVariant(config, self._requested_engine, self.threads)

    def signature(self, nrefs: int | str) -> ChrfSignature:
        return ChrfSignature(self.config, nrefs)

    def reference_key(self) -> tuple[object, ...]:
        return (*(getattr(self.config, f) for f in CHRF_SCORING_FIELDS), self.engine.name)

    def _stream_payloads(
        self, tokenization: Tokenization | None, order: int, streams: RefStreams
    ) -> tuple[object, ...]:
        if tokenization is None:
            return ()
        return tuple(self.engine.prepare(tokenization, [s], order) for s in streams)

    def prepare_references(self, ref_streams: RefStreams | ChrfReferences) -> ChrfReferences:
        """Count the references once, to score many systems against them."""
        if isinstance(ref_streams, ChrfReferences):
            if ref_streams.key != self.reference_key():
                raise InputError(
                    "these references were prepared by another chrF variant; "
                    "prepare them with this one"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        c = self.config
        # each stream is counted on its own, where a segment may lack its
        # reference: the engine counts "" there, and the mask drops it
        present = tuple(tuple(r is not None for r in s) if None in s else None for s in ref_streams)
        filled = [[r if r is not None else "" for r in s] for s in ref_streams]
        return ChrfReferences(
            self.reference_key(),
            len(per_segment),
            nrefs,
            tuple(per_segment),
            self._stream_payloads(self._chars, c.char_order, filled),
            self._stream_payloads(self._words, c.word_order, filled),
            present,
        )

    def _counts(
        self, tokenization: Tokenization | None, hyps: Sequence[str], payloads: tuple[object, ...],
        order: int, present: tuple[tuple[bool, ...] | None, ...],
    ) -> list[StreamCounts]:  # fmt: skip
        if tokenization is None:
            return []
        out = []
        for payload, mask in zip(payloads, present):
            with limited_threads(self.threads):
                tables = list(self.engine.tables(tokenization, hyps, payload, order))
            out.append(StreamCounts.from_tables(tables, order, mask))
        return out

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | ChrfReferences
    ) -> tuple[list[tuple[int, ...]], int | str]:
        """Per segment, the triples (hypothesis n-grams, reference n-grams,
        clipped matches) of each order against its best reference, and the
        number of references."""
        chars, words, prepared = self._stream_counts(hyps, refs)
        return best_triples(chars, words, self.config), prepared.nrefs

    def _stream_counts(
        self, hyps: Sequence[str], refs: RefStreams | ChrfReferences
    ) -> tuple[list[StreamCounts], list[StreamCounts], ChrfReferences]:
        prepared = self.prepare_references(refs)
        check_hypotheses(hyps, prepared.size)
        c = self.config
        chars = self._counts(self._chars, hyps, prepared.chars, c.char_order, prepared.present)
        words = self._counts(self._words, hyps, prepared.words, c.word_order, prepared.present)
        return chars, words, prepared

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | ChrfReferences
    ) -> tuple[tuple[int, ...], int | str]:
        """The summed triples of a corpus (with one complete reference
        stream, summed by columns without a row per segment)."""
        chars, words, prepared = self._stream_counts(hyps, refs)
        if len(prepared.present) == 1 and prepared.present[0] is None:
            return tuple(x for s in (*chars, *words) for x in stream_sums(s)), prepared.nrefs
        return sum_triples(best_triples(chars, words, self.config), self.config.order), (
            prepared.nrefs
        )

    def score_value(self, stats: Sequence[Any]) -> float:
        c = self.config
        return f_score(stats, c.order, c.beta, c.eps_smoothing)

    def score_stats(self, stats: Sequence[int], nrefs: int | str) -> ChrfResult:
        """Score (summed) statistics."""
        return ChrfResult(
            self.score_value(stats), self.config.score_name, tuple(stats), self.signature(nrefs)
        )

    def corpus_score(self, hyps: Sequence[str], refs: RefStreams | ChrfReferences) -> ChrfResult:
        """Corpus chrF: the F-score of the summed statistics."""
        if no_segments(hyps):
            raise InputError("no segments to score (the hypotheses are empty)")
        total, nrefs = self.corpus_stats(hyps, refs)
        return self.score_stats(total, nrefs)

    def partial(
        self,
        hyps: Sequence[str],
        refs: RefStreams | ChrfReferences,
        start: int | None = None,
        threads: int | None = None,
    ) -> Partial:
        """The exact statistics of these segments, to merge (``+``, ``sum``)
        and score (``score``); chrF reads no last segment, so ``start`` is
        optional."""
        end = None if start is None else start + len(hyps)
        if no_segments(hyps):
            zero = (0,) * (3 * self.config.order)
            return Partial(self.fingerprint, zero, frozenset(), 0, start, end)
        with call_threads(threads):
            prepared = self.prepare_references(refs)
            total, _ = self.corpus_stats(hyps, prepared)
        counts = frozenset(prepared.per_segment)
        return Partial(self.fingerprint, total, counts, len(hyps), start, end)

    def score(self, partial: Partial) -> ChrfResult:
        """The corpus score of merged partial statistics."""
        check_partial(partial, self.fingerprint, self.name)
        stats = partial.stats
        if isinstance(stats, Stats) or len(stats) != 3 * self.config.order:
            shape = "BLEU's, not chrF's triples" if isinstance(stats, Stats) else len(stats) // 3
            raise InputError(
                f"invalid partial statistics: {self.name} counts {self.config.order} n-gram "
                f"orders (a triple each), these statistics have {shape}"
            )
        return self.score_stats(stats, partial.nrefs_label)

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> ChrfResult:
        """chrF of one hypothesis against its references."""
        return self.corpus_score([hyp], sentence_references(refs))

    def sentence_scores(
        self, hyps: Sequence[str], refs: RefStreams | ChrfReferences
    ) -> list[ChrfResult]:
        """One sentence-level result per segment."""
        prepared = self.prepare_references(refs)
        segments, _ = self.segment_stats(hyps, prepared)
        signatures = {n: self.signature(n) for n in set(prepared.per_segment)}
        name = self.config.score_name
        return [
            ChrfResult(self.score_value(s), name, s, signatures[n])
            for s, n in zip(segments, prepared.per_segment)
        ]


def load_chrf(
    name_or_path: str, engine: str | None = None, threads: int | None = None, **overrides: Any
) -> ChrfVariant:
    """A chrF variant: ``chrF``, ``chrF++`` or a YAML file with
    ``metric: chrf.v1``, with keyword overrides."""
    config = load_any_config(name_or_path, overrides)
    if not isinstance(config, ChrfConfig):
        raise ConfigError(f"{name_or_path}: a BLEU variant (bleukit.load_variant loads it)")
    return ChrfVariant(config, engine, threads)


def load_metric(
    name_or_path: str, engine: str | None = None, threads: int | None = None, **overrides: Any
) -> Variant | ChrfVariant:
    """A variant of any metric (BLEU or chrF), by name or YAML file."""
    config = load_any_config(name_or_path, overrides)
    if isinstance(config, ChrfConfig):
        return ChrfVariant(config, engine, threads)
    return Variant(config, engine, threads)
