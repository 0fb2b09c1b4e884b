"""NIST (Doddington 2002) as a ``Metric``: a loaded NIST variant scores
corpora and segments as mteval-v13a.pl does (its per-segment scores use
the corpus's information weights, as mteval's segment scores do).

An n-gram's information comes from every reference of the corpus, so a
corpus is counted once it is whole: the commands read it a batch at a
time into a store that weighs it when statistics are first asked for
(``NistStore``), and partial statistics of parts of a corpus are refused
(``whole_corpus``).

>>> import bleukit
>>> nist = bleukit.load_metric("NIST")
>>> print(nist.corpus_score(["the cat sat on the mat"], [["the cat sat on a mat"]]))
NIST = 2.1541
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast, overload

from ...core.errors import InputError
from ...core.ngrams import Ngram
from ...core.packed import PackedLines
from ...core.reflen import RefLength, mean_of, sum_lengths
from ...engines import ReferenceWeigher, WeighedReferences, limited_threads
from ..base import StatisticsStore
from ..inputs import RefStreams, check_hypotheses, check_ref_streams
from ..words import TokenCounting, Words
from .config import NIST_SCORING_FIELDS, NistConfig
from .core import (
    FALSY,
    INFO_BITS,
    INFO_SCALE,
    PENALTY_BETA,
    NistResult,
    NistSignature,
    NistStats,
    information,
    length_penalty,
    nist_score,
)
from .core import segment_stats as nist_segment_stats

if TYPE_CHECKING:
    from ...core.resampling import Columns


@dataclass(frozen=True)
class NistReferences:
    """References prepared once: every reference n-gram weighed by its
    information, by the engine (``weighed``, with each segment's mean
    reference length), or where it has no kernel for it, in Python (per
    segment the tokens of each of its references, and each n-gram's
    information)."""

    key: tuple[object, ...]
    nrefs: int | str
    per_segment: tuple[int, ...]
    weighed: WeighedReferences | None
    mean_lengths: tuple[RefLength, ...] = ()
    words: tuple[tuple[Words, ...], ...] = ()
    info: dict[Ngram, int] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.per_segment)


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
        key, counts, order = self.reference_key(), tuple(per_segment), self.config.max_order
        with limited_threads(self.threads):
            weighed = self.engine.weigh_references(
                self.tokenization, ref_streams, order, INFO_BITS, FALSY
            )
        if weighed is not None:
            lengths = _mean_lengths(weighed.ref_len, ref_streams, counts)
            return NistReferences(key, nrefs, counts, weighed, lengths)
        streams = [self.stream_tokens(stream) for stream in ref_streams]
        words = tuple(tuple(ref for ref in refs if ref is not None) for refs in zip(*streams))
        info = information((ref for refs in words for ref in refs), order)
        return NistReferences(key, nrefs, counts, None, words=words, info=info)

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | NistReferences
    ) -> tuple[list[NistStats], int | str]:
        prepared = self.prepare_references(refs)
        return list(self.counted_segments(hyps, prepared)), prepared.nrefs

    def counted_segments(
        self, hyps: Sequence[str], prepared: NistReferences
    ) -> Sequence[NistStats]:
        """Each segment's statistics: from the engine's arrays where it
        weighed the references (``WeighedSegments``), else counted in Python."""
        check_hypotheses(hyps, prepared.size)
        order = self.config.max_order
        if prepared.weighed is not None:
            hyp_len, matched = self._weighed_matches(prepared.weighed, hyps)
            return WeighedSegments(hyp_len, matched, prepared.mean_lengths, order)
        with limited_threads(self.threads):
            tokens = self.tokens(hyps)
        return [
            nist_segment_stats(hyp, r, prepared.info, order)
            for hyp, r in zip(tokens, prepared.words)
        ]

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | NistReferences
    ) -> tuple[NistStats, int | str]:
        prepared = self.prepare_references(refs)
        if prepared.weighed is None:
            stats, nrefs = self.segment_stats(hyps, prepared)
            return self.sum_stats(stats), nrefs
        segments = self.counted_segments(hyps, prepared)
        assert isinstance(segments, WeighedSegments)  # the engine weighed them
        return segments.total(), prepared.nrefs

    def _weighed_matches(
        self, weighed: WeighedReferences, hyps: Sequence[str]
    ) -> tuple[Sequence[int], Sequence[int]]:
        with limited_threads(self.threads):
            return weighed.matches(hyps)

    def sum_stats(self, stats: Iterable[NistStats]) -> NistStats:
        """Column by column (``add_stats``'s sums, exact, the lengths'
        Fractions added once per denominator)."""
        columns = list(zip(*stats))
        if not columns:
            return self.zero_stats()
        return (sum_lengths(columns[0]), *map(sum, columns[1:]))

    def score_values(self, stats: Iterable[NistStats]) -> list[float]:
        order = self.config.max_order
        return [nist_score(s, order) for s in stats]

    def score_sums(
        self, cols: Columns, rows: Sequence[Any], other: Sequence[Any] | None = None
    ) -> list[float]:
        """``nist_score`` of each summed row (``row``'s layout), a field at a
        time: the same terms added in the same order (the same floats),
        with no statistics made a row. A study's approximate randomization
        scores a thousand trials for every pair of its systems."""
        if cols.codec is not self:
            return super().score_sums(cols, rows, other)
        o, w = self.config.max_order, cols.width
        values = self.engine.nist_values(rows, other, o, INFO_BITS, PENALTY_BETA)
        if values is not None:
            return values
        if other is not None:
            rows = list(map(operator.add, rows, other))
        scores = [0.0] * (len(rows) // w)
        for k in range(o):
            info = map(_info, rows[1 + o + k :: w], rows[1 + 2 * o + k :: w])
            scale = [INFO_SCALE * max(int(t), 1) for t in rows[1 + k :: w]]
            scores = list(map(operator.add, scores, map(operator.truediv, info, scale)))
        return [s * length_penalty(int(t) / float(r)) if r else s
                for s, t, r in zip(scores, rows[1::w], rows[0::w])]  # fmt: skip

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
        # the information's fixed point passes 32 bits: each order's is two
        # 32-bit limbs (all low limbs, then all high ones), so that a row is
        # of a row type and the compiled resamplers sum it exactly within
        # int64 (a limb's sum), where one int64 field would overflow on a
        # million segments; ``from_row`` joins them
        o = self.config.max_order
        info = cast("tuple[int, ...]", stats[1 + o :])  # (only the length may be a Fraction)
        return (*stats[: 1 + o], *(v & _LIMB_MASK for v in info), *(v >> _LIMB for v in info))

    def from_row(self, sums: Sequence[Any], segments: int, last: NistStats) -> NistStats:
        o = self.config.max_order
        low, high = sums[1 + o : 1 + 2 * o], sums[1 + 2 * o :]
        return (*sums[: 1 + o], *map(_info, low, high))

    def store_key(self) -> tuple[object, ...]:
        return ("nist", self.fingerprint)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[NistStats]:
        return NistStore(metrics[0], systems)


#: the bits of a limb of the information in a resampling row (``row``)
_LIMB = 32
_LIMB_MASK = (1 << _LIMB) - 1


def _info(low: int, high: int) -> int:
    """An order's information from its two limbs in a row (``from_row``)."""
    return low + (high << _LIMB)


def _mean_lengths(
    ref_len: Sequence[int], streams: RefStreams, per_segment: Sequence[int]
) -> tuple[RefLength, ...]:
    """Each segment's mean reference length (``reflen.mean_length``) from
    the references' lengths (segment x stream), over the streams that hold
    one of the segment."""
    width = len(streams)
    if all(count == width for count in per_segment):
        totals: Iterable[int] = map(sum, zip(*(ref_len[r::width] for r in range(width))))
    else:
        totals = (
            sum(
                n
                for n, line in zip(ref_len[i * width : (i + 1) * width], lines)
                if line is not None
            )
            for i, lines in enumerate(zip(*streams))
        )
    return tuple(mean_of(t, c) for t, c in zip(totals, per_segment))


class WeighedSegments(Sequence[NistStats]):
    """Per segment, ``core.segment_stats``'s statistics from an engine's
    weighed matches (the hypothesis lengths, and the matched information,
    segments x order), made as they are read: a million segments' tuples
    took about 300 MB a system, the arrays 48 MB."""

    def __init__(
        self,
        hyp_len: Sequence[int],
        matched: Sequence[int],
        mean_lengths: Sequence[RefLength],
        order: int,
    ) -> None:
        self._hyp_len = hyp_len
        self._matched = matched
        self._mean_lengths = mean_lengths
        self._order = order

    def __len__(self) -> int:
        return len(self._hyp_len)

    @overload
    def __getitem__(self, index: int) -> NistStats: ...
    @overload
    def __getitem__(self, index: slice) -> list[NistStats]: ...
    def __getitem__(self, index: int | slice) -> NistStats | list[NistStats]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i, o = range(len(self))[index], self._order  # negative indices, and IndexError
        length = self._hyp_len[i]
        totals = (max(length - n, 0) for n in range(o))
        return (self._mean_lengths[i], *totals, *self._matched[i * o : i * o + o])

    def __iter__(self) -> Iterator[NistStats]:
        o, matched = self._order, self._matched
        totals: dict[int, tuple[int, ...]] = {}
        for i, (length, ref) in enumerate(zip(self._hyp_len, self._mean_lengths)):
            per_order = totals.get(length)
            if per_order is None:
                per_order = totals[length] = tuple(max(length - n, 0) for n in range(o))
            yield (ref, *per_order, *matched[i * o : i * o + o])

    def total(self) -> NistStats:
        """The summed statistics, from the arrays (``sum_stats``'s sums)."""
        order = self._order
        lengths = Counter(self._hyp_len)
        totals = (sum(c * max(n - k, 0) for n, c in lengths.items()) for k in range(order))
        info = (sum(self._matched[k::order]) for k in range(order))
        return (sum_lengths(self._mean_lengths), *totals, *info)


#: a chunk of a store: its reference streams, and each system's hypotheses
_Chunk = tuple[list[Sequence[str | None]], list[Sequence[str]]]


def _packed(chunk: _Chunk) -> _Chunk:
    """A chunk's lines packed (``core.packed``), where they are not yet."""
    refs, hyps = chunk
    pack: list[Sequence[str | None]] = [
        s if isinstance(s, PackedLines) else PackedLines(s) for s in [*refs, *hyps]
    ]
    # hypotheses are packed strings, never None
    return pack[: len(refs)], cast("list[Sequence[str]]", pack[len(refs) :])


class NistStore(StatisticsStore[NistStats]):
    """Several systems' statistics under one NIST variant. The information
    weights need every reference of the corpus, so nothing is scored until
    statistics are first asked for.

    Where the engine weighs references (``Engine.reference_weigher``),
    each chunk's references are counted into it and each system's
    hypotheses held there as token ids: no text is kept. That happens a
    chunk behind: the latest chunk waits as it came, so that a store of one
    chunk (an executor's worker's) pickles, packed (``core.packed``).
    Elsewhere every chunk waits packed and the corpus is counted in
    Python."""

    def __init__(self, variant: NistVariant, systems: int) -> None:
        self._variant = variant
        self._systems = systems
        self._streams: int | None = None
        #: chunks not yet counted: reference streams and hypotheses
        self._waiting: list[_Chunk] = []
        self._weigher: ReferenceWeigher | None = None
        #: whether the engine has a weigher (None: not asked yet)
        self._kernel: bool | None = None
        #: per segment counted, its mean reference length
        self._mean_lengths: list[RefLength] = []
        self._segments: list[Sequence[NistStats]] | None = None
        self._totals: dict[int, NistStats] = {}

    def __getstate__(self) -> dict[str, Any]:
        if self._weigher is not None:
            raise TypeError(
                "a NIST store whose references are in the engine's table does not pickle "
                "(an executor's store holds one chunk)"
            )
        return {**self.__dict__, "_waiting": [_packed(chunk) for chunk in self._waiting]}

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        if self._streams is None:
            self._streams = len(ref_streams)
        if len(ref_streams) != self._streams:
            raise InputError(
                f"a chunk has {len(ref_streams)} reference streams, the first {self._streams}"
            )
        self._count_waiting()
        # copies: the caller's lists may change after
        self._waiting.append(([list(s) for s in ref_streams], [list(h) for h in hyps]))
        self._segments = None
        self._totals.clear()

    def extend(self, later: NistStore) -> None:
        if later._weigher is not None:
            raise InputError("a NIST store extends only stores whose chunks wait uncounted")
        for refs, hyps in later._waiting:
            self.add(refs, hyps)

    def _count_waiting(self) -> None:
        """The waiting chunks into the engine's weigher, where it has one."""
        if not self._waiting:
            return
        v = self._variant
        if self._kernel is None and self._streams is not None:
            self._weigher = v.engine.reference_weigher(
                v.tokenization, self._streams, v.config.max_order, INFO_BITS, FALSY
            )
            self._kernel = self._weigher is not None
        if self._weigher is None:
            # counted in Python once whole: the chunks wait packed
            self._waiting = [_packed(chunk) for chunk in self._waiting]
            return
        with limited_threads(v.threads):
            for refs, hyps in self._waiting:
                per_segment, _ = check_ref_streams(refs)
                ref_len = self._weigher.add(refs)
                self._mean_lengths.extend(_mean_lengths(ref_len, refs, per_segment))
                for i, lines in enumerate(hyps):
                    self._weigher.hold(i, lines)
        self._waiting.clear()

    def _counted(self) -> list[Sequence[NistStats]]:
        if self._segments is not None:
            return self._segments
        if self._streams is None:
            raise InputError("no segments to score")
        v = self._variant
        self._count_waiting()
        if self._weigher is not None:
            weigher, order = self._weigher, v.config.max_order
            with limited_threads(v.threads):
                weigher.weigh()
                matches = [weigher.held_matches(i) for i in range(self._systems)]
            # a snapshot: the list grows with a chunk added later
            lengths = tuple(self._mean_lengths)
            self._segments = [WeighedSegments(*m, lengths, order) for m in matches]
            return self._segments
        refs = [PackedLines() for _ in range(self._streams)]
        hyps = [PackedLines() for _ in range(self._systems)]
        for chunk_refs, chunk_hyps in self._waiting:
            for kept, lines in zip([*refs, *hyps], [*chunk_refs, *chunk_hyps]):
                kept.extend(lines)
        prepared = v.prepare_references(refs)
        self._segments = [
            v.counted_segments(cast("Sequence[str]", lines), prepared) for lines in hyps
        ]
        return self._segments

    def segments(self, metric: NistVariant, system: int) -> Sequence[NistStats]:
        return self._counted()[system]

    def total(self, metric: NistVariant, system: int) -> NistStats:
        total = self._totals.get(system)
        if total is None:
            segments = self._counted()[system]
            total = self._totals[system] = (
                segments.total()
                if isinstance(segments, WeighedSegments)
                else self._variant.sum_stats(segments)
            )
        return total
