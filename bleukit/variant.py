"""The Python API: a loaded variant scores corpora and sentences.

>>> import bleukit
>>> v = bleukit.load_variant("sacrebleu")
>>> round(v.sentence_score("the cat sat on the mat", ["the cat sat on the mat"]).score, 2)
100.0
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .config import VariantConfig, load_config, validate, with_overrides
from .engine import (
    RefBlock,
    SegmentTable,
    block_table,
    ordered_map,
    ref_blocks,
    reference_table,
    resolve_engine,
    table_stats,
    table_sum,
    workers,
)
from .errors import InputError
from .reflen import REF_LENGTHS
from .score import BleuResult, brevity_penalty, compute_bleu
from .signature import Signature
from .smoothing import SMOOTHINGS
from .stats import References, Stats, corpus_sum, prepare_references, segment_stats
from .tokenizers import make_block_preprocessor, make_preprocessor


def _check_strings(value: Any, what: str) -> None:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputError(f"{what} must be a list of strings, not {type(value).__name__}")


def _all_strings(items: Sequence) -> bool:
    # set(map(type, ...)) runs in C: the common case costs no Python loop
    return set(map(type, items)) <= {str}


@dataclass(frozen=True)
class PreparedReferences:
    """References tokenized (and, by the Python engine, counted) for one
    tokenization, order and engine: ``segments`` (Python engine) or
    ``blocks`` (compiled engine) is set."""

    key: tuple
    size: int
    nrefs: int | str
    per_segment: tuple[int, ...]
    segments: tuple[References, ...] | None = None
    blocks: tuple[RefBlock, ...] | None = None


class SharedReferences:
    """Reference streams prepared once per tokenization, and each system's
    statistics computed once per tokenization, for scoring under several
    variants (``compare``, ``matrix``, ``agree``, ``report``). With the
    compiled engine, variants that share a tokenizer (splitter and case)
    share everything: the per-segment tables are computed at the highest
    order among ``variants`` and each variant reads its order, reference
    length policy and totals from them. With the Python engine, variants
    that differ only in smoothing or weights share statistics."""

    def __init__(
        self, streams: Sequence[Sequence[str | None]], variants: Sequence[Variant] = ()
    ) -> None:
        self.streams = streams
        self._orders: dict[tuple, int] = {}
        for v in variants:
            key = v.tokenization_key()
            self._orders[key] = max(self._orders.get(key, 0), v.stat_order)
        self._prepared: dict[tuple, PreparedReferences] = {}
        self._stats: dict[tuple, Any] = {}

    def for_variant(self, variant: Variant) -> PreparedReferences:
        key = variant.reference_key()
        if key not in self._prepared:
            self._prepared[key] = variant.prepare_references(self.streams)
        return self._prepared[key]

    def segment_stats(
        self, variant: Variant, system: str, hyps: Sequence[str]
    ) -> tuple[list[Stats], int | str]:
        """The variant's per-segment statistics of the hypotheses ``hyps``,
        which ``system`` names (the cache key)."""
        prepared = self.for_variant(variant)
        if variant.engine == "c":
            tkey = variant.tokenization_key()
            order = max(self._orders.get(tkey, 0), variant.stat_order)
            key = (tkey, order, system)
            if key not in self._stats:
                self._stats[key] = variant.tables(hyps, prepared, order)
            return variant.stats_from_tables(self._stats[key]), prepared.nrefs
        c = variant.config
        key = (variant.reference_key(), c.ref_length, c.totals, system)
        if key not in self._stats:
            self._stats[key] = variant.segment_stats(hyps, prepared)
        return self._stats[key]


class Variant:
    """A complete, validated BLEU variant ready to score text."""

    def __init__(self, config: VariantConfig, engine: str | None = None) -> None:
        self.config = config
        self.name = config.name or "custom"
        self._preprocess = make_preprocessor(config.tokenizer, config.split, config.lowercase)
        block = make_block_preprocessor(config.tokenizer, config.split, config.lowercase)
        self._requested_engine = engine
        self.engine = resolve_engine(engine, block is not None)
        self._block, self._mode, self._categories = (
            block if self.engine == "c" else (None, -1, None)
        )
        self._ref_length = REF_LENGTHS.get(config.ref_length)
        self._smoothing = SMOOTHINGS.get(config.smoothing)
        # NLTK methods 5 and 7 read the last segment's 5-gram statistics
        self.stat_order = max(config.max_order, self._smoothing.last_segment_order)
        self._weights = None if config.weights == "uniform" else config.weights

    def __repr__(self) -> str:
        return f"Variant({self.name!r}, {Signature(self.config, 1).short!r})"

    def with_overrides(self, **overrides: Any) -> Variant:
        """A new variant with some fields changed (validated again)."""
        data = with_overrides(self.config.model_dump(), overrides)
        # the engine asked for, not the one resolved: "auto" stays "auto"
        return Variant(
            validate(data, f"variant {self.name} with overrides"), self._requested_engine
        )

    # ---------------------------------------------------------- pipeline

    def tokenize(self, line: str) -> list[str]:
        """The tokens BLEU counts for one line under this variant."""
        return self._preprocess(line)

    def signature(self, nrefs: int | str) -> Signature:
        return Signature(self.config, nrefs)

    def tokenization_key(self) -> tuple:
        """What the tokens depend on: variants with equal keys count the
        same tokens."""
        c = self.config
        return (c.tokenizer, c.split, c.lowercase, self.engine)

    def reference_key(self) -> tuple:
        """What prepared references depend on: variants with equal keys can
        share them (the compiled engine's do not depend on the order)."""
        if self.engine == "c":
            return self.tokenization_key()
        return (*self.tokenization_key(), self.stat_order)

    def prepare_references(
        self, ref_streams: Sequence[Sequence[str | None]] | PreparedReferences
    ) -> PreparedReferences:
        """Tokenize and count the references once, to score many systems
        against them (``corpus_score`` accepts the result in place of the
        streams). Variants with the same tokenization and order share it."""
        if isinstance(ref_streams, PreparedReferences):
            if ref_streams.key != self.reference_key():
                raise InputError(
                    "these references were prepared by a variant with another "
                    "tokenization or order; prepare them with this variant"
                )
            return ref_streams
        _check_strings(ref_streams, "ref_streams (a list of reference streams)")
        if not ref_streams:
            raise InputError("no reference stream given")
        lengths = set()
        for i, stream in enumerate(ref_streams, 1):
            _check_strings(stream, f"reference stream {i}")
            lengths.add(len(stream))
        if len(lengths) > 1:
            raise InputError(
                "reference streams differ in length: "
                + ", ".join(f"stream {i} has {len(s)}" for i, s in enumerate(ref_streams, 1))
            )
        if all(_all_strings(stream) for stream in ref_streams):
            per_segment = [len(ref_streams)] * len(ref_streams[0])
        else:
            per_segment = []
            for seg, refs in enumerate(zip(*ref_streams), 1):
                present = [r for r in refs if r is not None]
                if not present:
                    raise InputError(f"segment {seg} has no reference (every stream gives None)")
                for r in present:
                    if not isinstance(r, str):
                        raise InputError(f"a reference of segment {seg} is {type(r).__name__}")
                per_segment.append(len(present))
        seen = set(per_segment)
        nrefs: int | str = seen.pop() if len(seen) == 1 else "var"
        size = len(per_segment)
        if self._block is not None:
            blocks = ref_blocks(self._block, ref_streams)
            return PreparedReferences(
                self.reference_key(), size, nrefs, tuple(per_segment), blocks=blocks
            )
        segments = tuple(
            prepare_references(
                [self._preprocess(r) for r in refs if r is not None], self.stat_order
            )
            for refs in zip(*ref_streams)
        )
        return PreparedReferences(
            self.reference_key(), size, nrefs, tuple(per_segment), segments=segments
        )

    def _prepared_for(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]] | PreparedReferences
    ) -> PreparedReferences:
        _check_strings(hyps, "hypotheses")
        prepared = self.prepare_references(refs)
        if prepared.size != len(hyps):
            raise InputError(
                f"the references have {prepared.size} segments but there are {len(hyps)} hypotheses"
            )
        if not _all_strings(hyps):
            for seg, hyp in enumerate(hyps, 1):
                if not isinstance(hyp, str):
                    raise InputError(f"hypothesis {seg} is {type(hyp).__name__}, not a string")
        return prepared

    def _tables(self, hyps: Sequence[str], prepared: PreparedReferences, order: int):
        """The compiled engine's per-chunk statistics tables, in order.
        Tokenizers run in this thread, one chunk after the other (a plugin's
        or MeCab's tokenizer need not be thread-safe); only the kernel, which
        touches no Python object, runs in the worker threads."""
        starts = itertools.accumulate((c.size for c in prepared.blocks), initial=0)

        def tokenized():
            for lo, chunk in zip(starts, prepared.blocks):
                lines = list(hyps[lo : lo + chunk.size])
                block = self._block(lines)
                if block is None or None in chunk.blocks:
                    yield reference_table(self._preprocess, lines, chunk, order)
                else:
                    yield block, chunk

        def count(item):
            if isinstance(item, SegmentTable):
                return item
            block, chunk = item
            return block_table(block, chunk, self._mode, order, self._categories)

        return ordered_map(count, tokenized(), workers())

    def tables(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]] | PreparedReferences,
        order: int | None = None,
    ) -> list[SegmentTable]:
        """The compiled engine's per-segment tables (hypothesis and
        reference lengths, matches up to ``order``, default this variant's):
        any variant with this tokenization and an order up to ``order``
        reads its statistics from them (``stats_from_tables``)."""
        if self.engine != "c":
            raise InputError("per-segment tables come from the compiled engine only")
        prepared = self._prepared_for(hyps, refs)
        return list(self._tables(hyps, prepared, max(order or 0, self.stat_order)))

    def stats_from_tables(self, tables: Sequence[SegmentTable]) -> list[Stats]:
        """This variant's per-segment statistics from tables of its
        tokenization at its order or higher."""
        at_least_one = self.config.totals == "at-least-one"
        out: list[Stats] = []
        for table in tables:
            out.extend(table_stats(table, self._ref_length, at_least_one, self.stat_order))
        return out

    def segment_stats(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]] | PreparedReferences,
    ) -> tuple[list[Stats], int | str]:
        """Per-segment statistics and the number of references (``"var"``
        when segments have different numbers)."""
        prepared = self._prepared_for(hyps, refs)
        at_least_one = self.config.totals == "at-least-one"
        if prepared.blocks is not None:
            stats: list[Stats] = []
            for table in self._tables(hyps, prepared, self.stat_order):
                stats.extend(table_stats(table, self._ref_length, at_least_one, self.stat_order))
            return stats, prepared.nrefs
        stats = [
            segment_stats(
                self._preprocess(hyp),
                seg_refs,
                self.stat_order,
                self._ref_length,
                self.config.totals,
            )
            for hyp, seg_refs in zip(hyps, prepared.segments)
        ]
        return stats, prepared.nrefs

    def corpus_stats(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]] | PreparedReferences,
    ) -> tuple[Stats, int | str]:
        """The summed statistics of a corpus (the compiled engine sums its
        tables without making a Stats per segment)."""
        prepared = self._prepared_for(hyps, refs)
        if prepared.blocks is None:
            stats, nrefs = self.segment_stats(hyps, prepared)
            return corpus_sum(stats, self.stat_order), nrefs
        at_least_one = self.config.totals == "at-least-one"
        total = Stats.zero(self.stat_order)
        for table in self._tables(hyps, prepared, self.stat_order):
            total = total + table_sum(table, self._ref_length, at_least_one)
        return total, prepared.nrefs

    def score_stats(self, stats: Stats, nrefs: int | str) -> BleuResult:
        """Score (summed) statistics."""
        c = self.config
        return compute_bleu(
            stats,
            c.max_order,
            self._smoothing,
            self._weights,
            c.effective_order,
            c.smoothing_value,
            self.signature(nrefs),
        )

    def score_value(self, stats: Stats) -> float:
        """Only the score of (summed) statistics: the resampling hot path."""
        c = self.config
        smoothed = self._smoothing(
            stats, c.max_order, self._weights, c.effective_order, c.smoothing_value
        )
        return brevity_penalty(stats.sys_len, stats.ref_len) * smoothed.mean

    # ----------------------------------------------------------- scoring

    def corpus_score(
        self,
        hyps: Sequence[str],
        ref_streams: Sequence[Sequence[str | None]] | PreparedReferences,
    ) -> BleuResult:
        """Corpus BLEU. ``ref_streams`` is a list of reference streams, each
        aligned with ``hyps`` (as in sacrebleu); ``None`` marks a segment that
        has fewer references. Prepared references (``prepare_references``)
        are accepted too."""
        if not isinstance(hyps, (str, bytes)) and isinstance(hyps, Sequence) and not hyps:
            raise InputError("no segments to score (the hypotheses are empty)")
        total, nrefs = self.corpus_stats(hyps, ref_streams)
        return self.score_stats(total, nrefs)

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> BleuResult:
        """BLEU of one hypothesis against its references."""
        _check_strings(refs, "refs")
        return self.corpus_score([hyp], [[r] for r in refs])

    def sentence_scores(
        self,
        hyps: Sequence[str],
        ref_streams: Sequence[Sequence[str | None]] | PreparedReferences,
    ) -> list[BleuResult]:
        """One sentence-level result per segment."""
        prepared = self.prepare_references(ref_streams)
        stats, _ = self.segment_stats(hyps, prepared)
        c = self.config
        signatures = {n: self.signature(n) for n in set(prepared.per_segment)}
        args = (c.max_order, self._smoothing, self._weights, c.effective_order, c.smoothing_value)
        return [compute_bleu(s, *args, signatures[n]) for s, n in zip(stats, prepared.per_segment)]


def load_variant(name_or_path: str, engine: str | None = None, **overrides: Any) -> Variant:
    """A built-in variant by name, or a YAML file, with keyword overrides.
    ``engine``: "auto", "c" or "python" (None: ``BLEUKIT_ENGINE``)."""
    return Variant(load_config(name_or_path, overrides), engine)
