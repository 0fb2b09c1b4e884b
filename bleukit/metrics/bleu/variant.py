"""The Python API: a loaded variant scores corpora and sentences.

>>> import bleukit
>>> v = bleukit.load_variant("sacrebleu")
>>> round(v.sentence_score("the cat sat on the mat", ["the cat sat on the mat"]).score, 2)
100.0
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...config.model import VariantConfig, with_overrides
from ...core.errors import InputError, InputTypeError
from ...core.partial import Partial, validate
from ...core.reflen import policy
from ...core.results import BleuResult
from ...core.smoothing import SMOOTHINGS
from ...core.stats import Stats
from ...engines import Engine, SegmentTable, call_threads, limited_threads, resolve_engine
from ...tokenizers import Tokenization, Tokens, make_tokenization
from .score import brevity_penalty, compute_bleu, compute_bleu_many
from .signature import Signature

RefStreams = Sequence[Sequence[str | None]]


def _check_strings(value: object, what: str) -> None:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InputTypeError(f"{what} must be a list of strings, not {type(value).__name__}")


def sentence_references(refs: Sequence[str | None]) -> list[list[str | None]]:
    """One segment's references as reference streams. A string is refused:
    iterated, it would be a list of one-character references."""
    _check_strings(refs, "a sentence's references")
    return [[r] for r in refs]


def _all_strings(items: Sequence[object]) -> bool:
    # set(map(type, ...)) runs in C: the common case costs no Python loop
    return set(map(type, items)) <= {str}


def no_segments(hyps: Sequence[str]) -> bool:
    """Whether ``hyps`` is an empty list (a string is not a list of them)."""
    return isinstance(hyps, Sequence) and not isinstance(hyps, (str, bytes)) and not hyps


def check_ref_streams(ref_streams: RefStreams) -> tuple[list[int], int | str]:
    """Reference streams checked (aligned, strings or None, every segment
    with a reference): per segment, its number of references, and the
    number of references (``"var"`` when segments differ)."""
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
                    raise InputTypeError(f"a reference of segment {seg} is {type(r).__name__}")
            per_segment.append(len(present))
    seen = set(per_segment)
    nrefs: int | str = seen.pop() if len(seen) == 1 else "var"
    return per_segment, nrefs


def streams_from_rows(rows: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """Reference streams from per-segment lists of references (a dataframe
    row's, a completion's, torchmetrics' target): a segment with fewer
    references than another has None in the streams it lacks."""
    width = max((len(refs) for refs in rows), default=0)
    return [[refs[k] if k < len(refs) else None for refs in rows] for k in range(width)]


def check_hypotheses(hyps: Sequence[str], size: int) -> None:
    """Hypotheses checked: strings, one per reference segment."""
    check_hypothesis_types(hyps)
    if size != len(hyps):
        raise InputError(
            f"the references have {size} segments but there are {len(hyps)} hypotheses"
        )


def check_hypothesis_types(hyps: Sequence[str]) -> None:
    """Hypotheses checked: a list of strings (the first that is not one is named)."""
    _check_strings(hyps, "hypotheses")
    if not _all_strings(hyps):
        for seg, hyp in enumerate(hyps, 1):
            if not isinstance(hyp, str):
                raise InputTypeError(f"hypothesis {seg} is {type(hyp).__name__}, not a string")


def engine_for(requested: str | None, tokenization: Tokenization) -> Engine:
    """The engine that runs a tokenization (``engines.resolve_engine``):
    every scorer asks here, so the engine is chosen in one place."""
    return resolve_engine(requested, tokenization)


@dataclass(frozen=True)
class PreparedReferences:
    """References prepared once by an engine (``payload``, its own form)
    for one tokenization, to score many systems against: ``key`` names the
    tokenization and the engine, ``order`` the n-gram order prepared for
    (engines whose prepared references are order-bound serve that order and
    lower ones)."""

    key: tuple[object, ...]
    order: int
    size: int
    nrefs: int | str
    per_segment: tuple[int, ...]
    payload: object = field(repr=False)


class Variant:
    """A complete, validated BLEU variant ready to score text, on the engine
    chosen for it (``engine``: None for ``BLEUKIT_ENGINE``, "auto", or an
    engine's name)."""

    def __init__(
        self, config: VariantConfig, engine: str | None = None, threads: int | None = None
    ) -> None:
        self.config = config
        #: the most threads the engine may use for this variant (None: its default)
        self.threads = threads
        self.name = config.name or "custom"
        self.tokenization = make_tokenization(
            config.tokenizer, config.split, config.lowercase, config.tokenizer_model
        )
        self._requested_engine = engine
        self.engine: Engine = engine_for(engine, self.tokenization)
        self._ref_length = policy(config.ref_length)
        self._at_least_one = config.totals == "at-least-one"
        self._smoothing = SMOOTHINGS.get(config.smoothing)
        # NLTK methods 5 and 7 read the last segment's 5-gram statistics
        self.stat_order = max(config.max_order, self._smoothing.last_segment_order)
        self._weights = None if config.weights == "uniform" else config.weights

    def __repr__(self) -> str:
        return f"Variant({self.name!r}, {Signature(self.config, 1).short!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its configuration, rebuilt (tokenizers, engine) on load
        return (Variant, (self.config, self._requested_engine, self.threads))

    @property
    def fingerprint(self) -> str:
        """What a score depends on (the signature's digest without its
        count of references): partials of equal fingerprints merge."""
        return self.signature(1).digest

    @property
    def reads_last_segment(self) -> bool:
        """Whether the smoothing reads the corpus's last segment (NLTK
        methods 5-7): then the order of segments can change a score."""
        return self._smoothing.reads_last_segment

    @property
    def zero_without_match(self) -> bool:
        """Whether a segment with an order unmatched scores 0 (no
        smoothing): most sentence scores are then 0."""
        return self._smoothing.zero_without_match

    def with_overrides(self, **overrides: Any) -> Variant:
        """A new variant with some fields changed (validated again)."""
        from ...config.schema import validate

        data = with_overrides(self.config.as_dict(), overrides)
        # the engine asked for, not the one resolved: "auto" stays "auto"
        return Variant(
            validate(data, f"variant {self.name} with overrides"),
            self._requested_engine,
            self.threads,
        )

    # ---------------------------------------------------------- pipeline

    def tokenize(self, line: str) -> Tokens:
        """The tokens BLEU counts for one line under this variant (one
        string of them for one-character tokens)."""
        return self.tokenization.preprocess(line)

    def tokenize_lines(self, lines: Sequence[str]) -> list[list[str]]:
        """The tokens of each line (one-character tokens one by one), on
        this variant's engine: many lines at once, as the report shows them."""
        return self.engine.tokens(self.tokenization, lines)

    def signature(self, nrefs: int | str) -> Signature:
        return Signature(self.config, nrefs)

    def reference_key(self) -> tuple[object, ...]:
        """What prepared references and tables depend on: the tokenization
        and the engine."""
        return (self.tokenization.key, self.engine.name)

    def prepare_references(
        self, ref_streams: RefStreams | PreparedReferences, order: int | None = None
    ) -> PreparedReferences:
        """Tokenize (and count, as the engine needs) the references once, to
        score many systems against them (``corpus_score`` accepts the result
        in place of the streams), for n-grams up to ``order`` (default this
        variant's). Variants with the same tokenization share it."""
        order = max(order or 0, self.stat_order)
        if isinstance(ref_streams, PreparedReferences):
            if ref_streams.key != self.reference_key() or (
                self.engine.order_bound and ref_streams.order < order
            ):
                raise InputError(
                    "these references were prepared by a variant with another "
                    "tokenization or order; prepare them with this variant"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        payload = self.engine.prepare(self.tokenization, ref_streams, order)
        return PreparedReferences(
            self.reference_key(), order, len(per_segment), nrefs, tuple(per_segment), payload
        )

    def _prepared_for(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences, order: int
    ) -> PreparedReferences:
        _check_strings(hyps, "hypotheses")
        prepared = self.prepare_references(refs, order)
        check_hypotheses(hyps, prepared.size)
        return prepared

    def tables(
        self,
        hyps: Sequence[str],
        refs: RefStreams | PreparedReferences,
        order: int | None = None,
    ) -> list[SegmentTable]:
        """The engine's per-segment tables (hypothesis and reference
        lengths, matches up to ``order``, default this variant's): any
        variant with this tokenization and an order up to ``order`` reads
        its statistics from them (``stats_from_tables``)."""
        order = max(order or 0, self.stat_order)
        prepared = self._prepared_for(hyps, refs, order)
        with limited_threads(self.threads):
            return list(self.engine.tables(self.tokenization, hyps, prepared.payload, order))

    def stats_from_tables(self, tables: Iterable[SegmentTable]) -> list[Stats]:
        """This variant's per-segment statistics from tables of its
        tokenization at its order or higher."""
        return self.engine.stats(tables, self._ref_length, self._at_least_one, self.stat_order)

    def sum_from_tables(self, tables: Iterable[SegmentTable]) -> Stats:
        """This variant's summed statistics from tables of its tokenization
        at its order or higher (no Stats per segment)."""
        return self.engine.sum(tables, self._ref_length, self._at_least_one, self.stat_order)

    def _own_tables(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences
    ) -> tuple[Iterator[SegmentTable], int | str]:
        prepared = self._prepared_for(hyps, refs, self.stat_order)
        with limited_threads(self.threads):
            tables = self.engine.tables(self.tokenization, hyps, prepared.payload, self.stat_order)
        return tables, prepared.nrefs

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences
    ) -> tuple[list[Stats], int | str]:
        """Per-segment statistics and the number of references (``"var"``
        when segments have different numbers)."""
        tables, nrefs = self._own_tables(hyps, refs)
        return self.stats_from_tables(tables), nrefs

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences
    ) -> tuple[Stats, int | str]:
        """The summed statistics of a corpus (no Stats per segment)."""
        tables, nrefs = self._own_tables(hyps, refs)
        return self.sum_from_tables(tables), nrefs

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
        """Only the score of (summed) statistics."""
        return self.score_values((stats,))[0]

    def score_values(self, stats: Iterable[Stats]) -> list[float]:
        """Only the scores of many (summed) statistics, smoothed in one
        batch: the resampling hot path (a thousand resamples a system)."""
        c = self.config
        batch = stats if isinstance(stats, (list, tuple)) else list(stats)
        smoothed = self._smoothing.many(
            batch, c.max_order, self._weights, c.effective_order, c.smoothing_value
        )
        return [brevity_penalty(s.sys_len, s.ref_len) * m.mean for s, m in zip(batch, smoothed)]

    # ----------------------------------------------------------- scoring

    def corpus_score(
        self, hyps: Sequence[str], ref_streams: RefStreams | PreparedReferences
    ) -> BleuResult:
        """Corpus BLEU. ``ref_streams`` is a list of reference streams, each
        aligned with ``hyps`` (as in sacrebleu); ``None`` marks a segment that
        has fewer references. Prepared references (``prepare_references``)
        are accepted too."""
        if no_segments(hyps):
            raise InputError("no segments to score (the hypotheses are empty)")
        total, nrefs = self.corpus_stats(hyps, ref_streams)
        return self.score_stats(total, nrefs)

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> BleuResult:
        """BLEU of one hypothesis against its references."""
        return self.corpus_score([hyp], sentence_references(refs))

    def sentence_scores(
        self, hyps: Sequence[str], ref_streams: RefStreams | PreparedReferences
    ) -> list[BleuResult]:
        """One sentence-level result per segment."""
        prepared = self.prepare_references(ref_streams)
        stats, _ = self.segment_stats(hyps, prepared)
        c = self.config
        signatures = {n: self.signature(n) for n in set(prepared.per_segment)}
        args = (c.max_order, self._smoothing, self._weights, c.effective_order, c.smoothing_value)
        return compute_bleu_many(stats, *args, [signatures[n] for n in prepared.per_segment])

    # ------------------------------------------------------- map-reduce

    def partial(
        self,
        hyps: Sequence[str],
        refs: RefStreams | PreparedReferences,
        start: int | None = None,
        threads: int | None = None,
    ) -> Partial:
        """The exact statistics of these segments, to merge with other
        partitions' (``+``, ``sum``) and score (``score``). ``start``: the
        index of the first segment in the corpus (needed where the smoothing
        reads the last segment); ``threads``: for this call."""
        ordered = self.reads_last_segment
        end = None if start is None else start + len(hyps)
        if no_segments(hyps):
            # an empty partition: the neutral partial (no reference count)
            zero = Stats.zero(self.stat_order)
            return Partial(self.fingerprint, zero, frozenset(), 0, start, end, ordered)
        with call_threads(threads):
            prepared = self.prepare_references(refs)
            total, _ = self.corpus_stats(hyps, prepared)
        if not ordered:  # the last segment is not read: keep sums order-free
            total = total._replace(last_len=0, last_counts=(), last_totals=())
        counts = frozenset(prepared.per_segment)
        return Partial(self.fingerprint, total, counts, len(hyps), start, end, ordered)

    def score(self, partial: Partial) -> BleuResult:
        """The corpus score of merged partial statistics."""
        check_partial(partial, self.fingerprint, self.name)
        stats = partial.stats
        if not isinstance(stats, Stats) or stats.order != self.stat_order:
            shape = f"{stats.order}" if isinstance(stats, Stats) else "chrF's triples, not BLEU's"
            raise InputError(
                f"invalid partial statistics: {self.name} counts {self.stat_order} n-gram "
                f"orders, these statistics have {shape}"
            )
        return self.score_stats(stats, partial.nrefs_label)


def check_partial(partial: Partial, fingerprint: str, name: str) -> None:
    """A partial this variant can score: its own, with segments."""
    if not isinstance(partial, Partial):
        raise InputError(
            f"score() takes a Partial (variant.partial(...)), not {type(partial).__name__}"
        )
    # checked again here: a partial's fields can be set after it was made
    validate(partial)
    if partial.fingerprint != fingerprint:
        raise InputError(
            f"these partial statistics are another variant's (fingerprint "
            f"{partial.fingerprint}), not {name}'s ({fingerprint})"
        )
    if not partial.segments:
        raise InputError("no segments to score (every partition was empty)")


def load_variant(
    name_or_path: str, engine: str | None = None, threads: int | None = None, **overrides: Any
) -> Variant:
    """A built-in variant by name, or a YAML file, with keyword overrides.
    ``engine``: "auto", "c", "python" or a plugin engine's name (None:
    ``BLEUKIT_ENGINE``); ``threads``: the most threads its engine may use."""
    from ...config.loading import load_config

    return Variant(load_config(name_or_path, overrides), engine, threads)
