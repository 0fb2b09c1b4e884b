"""The Python API: a loaded variant scores corpora and sentences.

>>> import bleukit
>>> v = bleukit.load_variant("sacrebleu")
>>> round(v.sentence_score("the cat sat on the mat", ["the cat sat on the mat"]).score, 2)
100.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .config import VariantConfig, load_config, validate, with_overrides
from .errors import InputError
from .reflen import REF_LENGTHS
from .score import BleuResult, brevity_penalty, compute_bleu
from .signature import Signature
from .smoothing import SMOOTHINGS
from .stats import References, Stats, corpus_sum, prepare_references, segment_stats
from .tokenizers import make_preprocessor


def _check_strings(value: Any, what: str) -> None:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputError(f"{what} must be a list of strings, not {type(value).__name__}")


@dataclass(frozen=True)
class PreparedReferences:
    """References tokenized and counted for one tokenization and order."""

    key: tuple
    segments: tuple[References, ...]
    nrefs: int | str


class SharedReferences:
    """Reference streams prepared once per tokenization and order, for
    scoring under several variants (``compare``, ``matrix``, ``agree``,
    ``report``): variants with equal ``reference_key`` share the work."""

    def __init__(self, streams: Sequence[Sequence[str | None]]) -> None:
        self.streams = streams
        self._prepared: dict[tuple, PreparedReferences] = {}

    def for_variant(self, variant: Variant) -> PreparedReferences:
        key = variant.reference_key()
        if key not in self._prepared:
            self._prepared[key] = variant.prepare_references(self.streams)
        return self._prepared[key]


class Variant:
    """A complete, validated BLEU variant ready to score text."""

    def __init__(self, config: VariantConfig) -> None:
        self.config = config
        self.name = config.name or "custom"
        self._preprocess = make_preprocessor(config.tokenizer, config.split, config.lowercase)
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
        return Variant(validate(data, f"variant {self.name} with overrides"))

    # ---------------------------------------------------------- pipeline

    def tokenize(self, line: str) -> list[str]:
        """The tokens BLEU counts for one line under this variant."""
        return self._preprocess(line)

    def signature(self, nrefs: int | str) -> Signature:
        return Signature(self.config, nrefs)

    def reference_key(self) -> tuple:
        """What prepared references depend on: variants with equal keys can
        share them."""
        c = self.config
        return (c.tokenizer, c.split, c.lowercase, self.stat_order)

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
        segments = []
        nrefs_seen: set[int] = set()
        for seg, refs in enumerate(zip(*ref_streams), 1):
            present = [r for r in refs if r is not None]
            if not present:
                raise InputError(f"segment {seg} has no reference (every stream gives None)")
            for r in present:
                if not isinstance(r, str):
                    raise InputError(f"a reference of segment {seg} is {type(r).__name__}")
            nrefs_seen.add(len(present))
            tokens = [self._preprocess(r) for r in present]
            segments.append(prepare_references(tokens, self.stat_order))
        nrefs: int | str = nrefs_seen.pop() if len(nrefs_seen) == 1 else "var"
        return PreparedReferences(self.reference_key(), tuple(segments), nrefs)

    def segment_stats(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str | None]] | PreparedReferences,
    ) -> tuple[list[Stats], int | str]:
        """Per-segment statistics and the number of references (``"var"``
        when segments have different numbers)."""
        _check_strings(hyps, "hypotheses")
        prepared = self.prepare_references(refs)
        if len(prepared.segments) != len(hyps):
            raise InputError(
                f"the references have {len(prepared.segments)} segments but there are "
                f"{len(hyps)} hypotheses"
            )
        stats: list[Stats] = []
        for seg, (hyp, seg_refs) in enumerate(zip(hyps, prepared.segments), 1):
            if not isinstance(hyp, str):
                raise InputError(f"hypothesis {seg} is {type(hyp).__name__}, not a string")
            stats.append(
                segment_stats(
                    self._preprocess(hyp),
                    seg_refs,
                    self.stat_order,
                    self._ref_length,
                    self.config.totals,
                )
            )
        return stats, prepared.nrefs

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
        stats, nrefs = self.segment_stats(hyps, ref_streams)
        if not stats:
            raise InputError("no segments to score (the hypotheses are empty)")
        return self.score_stats(corpus_sum(stats, self.stat_order), nrefs)

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
        return [self.score_stats(s, len(refs.lengths)) for s, refs in zip(stats, prepared.segments)]


def load_variant(name_or_path: str, **overrides: Any) -> Variant:
    """A built-in variant by name, or a YAML file, with keyword overrides."""
    return Variant(load_config(name_or_path, overrides))
