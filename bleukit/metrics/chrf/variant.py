"""chrF (Popović 2015) and chrF++ (Popović 2017) as a ``Metric``: a loaded
chrF variant scores corpora and sentences, on the engine chosen for it
(``inputs.engine_for``).

>>> import bleukit
>>> chrf = bleukit.load_chrf("chrF")
>>> round(chrf.sentence_score("the cat sat on the mat", ["the cat sat on a mat"]).score, 4)
72.0848
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from ...core.buffers import ROW_TYPES, extend_rows
from ...core.errors import InputError
from ...engines import limited_threads
from ...tokenizers import Tokenization
from ..base import Metric, StatisticsStore
from ..inputs import RefStreams, check_hypotheses, check_ref_streams, engine_for
from .config import CHRF_METRIC, CHRF_SCORING_FIELDS, ChrfConfig
from .core import (
    ChrfResult,
    ChrfSignature,
    StreamCounts,
    best_triples,
    char_tokenization,
    f_score,
    stream_rows,
    stream_sums,
    sum_triples,
    word_tokenization,
)

if TYPE_CHECKING:
    from ...core.resampling import Columns

#: chrF's statistics: per order (hypothesis n-grams, reference n-grams, matches)
Triples = tuple[int, ...]


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


class ChrfVariant(Metric[Triples, ChrfResult]):
    """A complete, validated chrF variant ready to score text (``engine``:
    None for ``BLEUKIT_ENGINE``, "auto", or an engine's name)."""

    config: ChrfConfig
    family = "chrF"

    def __init__(
        self, config: ChrfConfig, engine: str | None = None, threads: int | None = None
    ) -> None:
        super().__init__(config, engine, threads)
        self._chars = (
            char_tokenization(config.lowercase, config.whitespace) if config.char_order else None
        )
        self._words = word_tokenization(config.lowercase) if config.word_order else None
        used = [t for t in (self._chars, self._words) if t is not None]
        # the built-in forms run on every engine that runs one of them
        self.engine = engine_for(engine, used[0])

    @property
    def order(self) -> int:
        return self.config.char_order

    def with_order(self, order: int) -> ChrfVariant:
        return self.with_overrides(char_order=order)  # type: ignore[no-any-return]

    @property
    def score_name(self) -> str:
        return self.config.score_name

    @property
    def display_order(self) -> int:
        # a report highlights words: chrF++'s word order, else word pairs
        return self.config.word_order or 2

    def details(self, result: ChrfResult) -> dict[str, Any]:
        s = result.stats
        return {
            "columns": {},
            "bars": [100 * s[i + 2] / s[i] if s[i] else 0.0 for i in range(0, len(s), 3)],
            "bars_label": "n-gram precision (characters, then words)"
            if self.config.word_order
            else "character n-gram precision",
        }

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
    ) -> tuple[list[Triples], int | str]:
        """Per segment, the triples (hypothesis n-grams, reference n-grams,
        clipped matches) of each order against its best reference, and the
        number of references."""
        chars, words, prepared = self._stream_counts(hyps, refs)
        return self.triples_from_counts(chars, words), prepared.nrefs

    def triples_from_counts(
        self, chars: Sequence[StreamCounts], words: Sequence[StreamCounts]
    ) -> list[Triples]:
        """Per segment, this variant's triples against its best reference
        (by this variant's F), from stream counts of its tokenization at
        its orders or higher (``ChrfStore``: one count for several)."""
        return best_triples(*self._at_orders(chars, words), self.config)

    def rows_from_counts(
        self, chars: Sequence[StreamCounts], words: Sequence[StreamCounts]
    ) -> array[int]:
        """``triples_from_counts``'s triples flat in one array: with one
        reference stream where every segment has its reference, made a
        column at a time, by the engine's kernel (of a row type) or
        ``stream_rows`` (int64); else a segment at a time."""
        one_stream = max(len(chars), len(words)) == 1
        if one_stream:
            c = self.config
            # the counts as they are, read to this variant's orders
            parts = [(s.hyp_len, s.ref_len, s.matches, s.order, order)
                     for streams, order in ((chars, c.char_order), (words, c.word_order))
                     if order for s in streams]  # fmt: skip
            made = self.engine.triple_rows(parts)
            if made is not None:
                return made
        # (cut to this variant's orders only here: the kernel reads them)
        at_chars, at_words = self._at_orders(chars, words)
        if one_stream:
            rows = stream_rows([*at_chars, *at_words])
            if rows is not None:
                return rows
        flat = array("q")
        for t in best_triples(at_chars, at_words, self.config):
            flat.extend(t)
        return flat

    def _at_orders(
        self, chars: Sequence[StreamCounts], words: Sequence[StreamCounts]
    ) -> tuple[list[StreamCounts], list[StreamCounts]]:
        c = self.config
        return (
            [s.at_order(c.char_order) for s in chars] if c.char_order else [],
            [s.at_order(c.word_order) for s in words] if c.word_order else [],
        )

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
    ) -> tuple[Triples, int | str]:
        """The summed triples of a corpus (with one complete reference
        stream, summed by columns without a row per segment)."""
        chars, words, prepared = self._stream_counts(hyps, refs)
        if len(prepared.present) == 1 and prepared.present[0] is None:
            return tuple(x for s in (*chars, *words) for x in stream_sums(s)), prepared.nrefs
        return sum_triples(self.triples_from_counts(chars, words), self.config.order), (
            prepared.nrefs
        )

    def score_value(self, stats: Sequence[Any]) -> float:
        c = self.config
        return f_score(stats, c.order, c.beta, c.eps_smoothing)

    def score_values(self, stats: Iterable[Sequence[Any]]) -> list[float]:
        return [self.score_value(s) for s in stats]

    def row_scores(self, rows: Sequence[int], other: Sequence[int] | None = None) -> list[float]:
        """The scores of flat rows of triples (plus the same rows of
        ``other``): on the engine's kernel where it has one."""
        c = self.config
        values = self.engine.chrf_values(rows, other, c.order, c.beta, c.eps_smoothing)
        if values is not None:
            return values
        if other is not None:
            rows = [x + y for x, y in zip(rows, other)]
        w = 3 * c.order
        return [self.score_value(rows[k : k + w]) for k in range(0, len(rows), w)]

    def score_sums(
        self, cols: Columns, rows: Sequence[Any], other: Sequence[Any] | None = None
    ) -> list[float]:
        # chrF's statistics are their rows (from_row): no columns needed
        return self.row_scores(rows, other)

    def score_stats(self, stats: Sequence[int], nrefs: int | str) -> ChrfResult:
        """Score (summed) statistics."""
        return ChrfResult(
            self.score_value(stats), self.config.score_name, tuple(stats), self.signature(nrefs)
        )

    def sentence_results(
        self, segments: Sequence[Triples], per_segment: Sequence[int]
    ) -> list[ChrfResult]:
        signatures = {n: self.signature(n) for n in set(per_segment)}
        name = self.config.score_name
        return [
            ChrfResult(self.score_value(s), name, s, signatures[n])
            for s, n in zip(segments, per_segment)
        ]

    # ------------------------------------------------------ statistics

    def zero_stats(self) -> Triples:
        return (0,) * (3 * self.config.order)

    def add_stats(self, a: Triples, b: Triples) -> Triples:
        return tuple(x + y for x, y in zip(a, b))

    def check_stats(self, stats: object) -> None:
        if not isinstance(stats, tuple) or len(stats) != 3 * self.config.order:
            shape = len(stats) // 3 if isinstance(stats, tuple) else "another metric's"
            raise InputError(
                f"invalid partial statistics: {self.name} counts {self.config.order} n-gram "
                f"orders (a triple each), these statistics have {shape}"
            )
        if not all(type(x) is int for x in stats):
            raise InputError(f"invalid partial statistics: chrF counts integers, not {stats!r}")
        for n in range(self.config.order):
            hyp, ref, match = stats[3 * n : 3 * n + 3]
            if match > hyp or match > ref:
                raise InputError(
                    f"invalid partial statistics: order {n + 1}: {match} matches of {hyp} "
                    f"hypothesis and {ref} reference n-grams"
                )

    def row(self, stats: Triples) -> Triples:
        return stats

    def from_row(self, sums: Sequence[Any], segments: int, last: Triples) -> Triples:
        return tuple(sums)

    def store_key(self) -> tuple[object, ...]:
        # variants that differ in their orders, beta or smoothing count the
        # same characters and words: one count serves them (ChrfStore)
        c = self.config
        return ("chrf", c.lowercase, c.whitespace, self.engine.name)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[Triples]:
        if len(metrics) == 1:
            return TripleStore(metrics[0], systems, per_segment)
        return ChrfStore(metrics, systems, per_segment)


class TripleStore(StatisticsStore[Triples]):
    """Several systems' statistics under one chrF variant: each system's
    running sums, and (``per_segment``) each segment's triples in one
    ``array`` of 8-byte integers per system."""

    def __init__(self, variant: ChrfVariant, systems: int, per_segment: bool) -> None:
        self._variant = variant
        self._width = 3 * variant.config.order
        self._sums = [variant.zero_stats() for _ in range(systems)]
        # a row type while every count fits (uint16 for segments of up to
        # 65,535 characters, uint32 short of four billion): resampling
        # columns then share the array
        self._rows: list[array[int]] | None = (
            [array(ROW_TYPES[0]) for _ in range(systems)] if per_segment else None
        )

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        v = self._variant
        prepared = v.prepare_references(ref_streams)
        for i, lines in enumerate(hyps):
            if self._rows is None:
                total, _ = v.corpus_stats(lines, prepared)
            else:
                # the chunk's rows a column at a time (``rows_from_counts``),
                # not a list of triples a segment: those lists took 6% of
                # `compare -v sacrebleu,chrF`'s CPU on 200,400 WMT lines
                chars, words, _ = v._stream_counts(lines, prepared)
                rows = v.rows_from_counts(chars, words)
                self._rows[i] = _append_rows(self._rows[i], [rows])
                total = column_sums(rows, self._width)
            self._sums[i] = v.add_stats(self._sums[i], total)

    def extend(self, later: TripleStore) -> None:
        self._sums = [self._variant.add_stats(a, b) for a, b in zip(self._sums, later._sums)]
        if self._rows is not None and later._rows is not None:
            self._rows = [_append_rows(a, [b]) for a, b in zip(self._rows, later._rows)]

    def segments(self, metric: ChrfVariant, system: int) -> Sequence[Triples]:
        if self._rows is None:
            raise ValueError("these statistics were collected as sums (per_segment=False)")
        return RowSegments(self._rows[system], self._width)

    def total(self, metric: ChrfVariant, system: int) -> Triples:
        return self._sums[system]

    def sentence_values(self, metric: ChrfVariant, system: int) -> list[float]:
        if self._rows is None:
            raise ValueError("these statistics were collected as sums (per_segment=False)")
        return metric.row_scores(self._rows[system])


class ChrfStore(StatisticsStore[Triples]):
    """Several systems' statistics under several chrF variants of one
    tokenization (their orders, beta and smoothing may differ): each system
    counted once per chunk at the highest character and word orders among
    them; each variant's triples made from those counts when asked (its
    best reference chosen by its own F), one variant's at a time, or (not
    ``per_segment``) each variant's running sums."""

    def __init__(self, variants: Sequence[ChrfVariant], systems: int, per_segment: bool) -> None:
        self._variants = {v.fingerprint: v for v in variants}
        self._counter = variants[0].with_overrides(
            char_order=max(v.config.char_order for v in variants),
            word_order=max(v.config.word_order for v in variants),
        )
        self.per_segment = per_segment
        #: per system, each chunk's character and word counts (per_segment)
        self._counts: list[list[tuple[list[StreamCounts], list[StreamCounts]]]] = [
            [] for _ in range(systems)
        ]
        #: without per-segment statistics, each variant's running sums
        self._sums = {} if per_segment else {
            fp: [v.zero_stats() for _ in range(systems)] for fp, v in self._variants.items()
        }  # fmt: skip
        #: the triples of the variant asked for last, by system
        self._rows: tuple[str, dict[int, array[int]]] = ("", {})

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        counter = self._counter
        prepared = counter.prepare_references(ref_streams)
        self._rows = ("", {})
        for i, lines in enumerate(hyps):
            chars, words, _ = counter._stream_counts(lines, prepared)
            if self.per_segment:
                self._counts[i].append((chars, words))
                continue
            for fp, v in self._variants.items():
                total = column_sums(v.rows_from_counts(chars, words), 3 * v.config.order)
                self._sums[fp][i] = v.add_stats(self._sums[fp][i], total)

    def extend(self, later: ChrfStore) -> None:
        self._rows = ("", {})
        for counts, more in zip(self._counts, later._counts):
            counts.extend(more)
        for fp, running in self._sums.items():
            v = self._variants[fp]
            running[:] = [v.add_stats(a, b) for a, b in zip(running, later._sums[fp])]

    def _variant_rows(self, metric: ChrfVariant, system: int) -> array[int]:
        if not self.per_segment:
            raise ValueError("these statistics were collected as sums (per_segment=False)")
        if metric.fingerprint not in self._variants:
            raise InputError(f"variant {metric.name} was not collected")
        if self._rows[0] != metric.fingerprint:
            self._rows = (metric.fingerprint, {})
        rows = self._rows[1]
        if system not in rows:
            flat = array(ROW_TYPES[0])
            for chars, words in self._counts[system]:
                flat = _append_rows(flat, [metric.rows_from_counts(chars, words)])
            rows[system] = flat
        return rows[system]

    def segments(self, metric: ChrfVariant, system: int) -> Sequence[Triples]:
        return RowSegments(self._variant_rows(metric, system), 3 * metric.config.order)

    def sentence_values(self, metric: ChrfVariant, system: int) -> list[float]:
        return metric.row_scores(self._variant_rows(metric, system))

    def total(self, metric: ChrfVariant, system: int) -> Triples:
        if self.per_segment:
            return column_sums(self._variant_rows(metric, system), 3 * metric.config.order)
        if metric.fingerprint not in self._sums:
            raise InputError(f"variant {metric.name} was not collected")
        return self._sums[metric.fingerprint][system]


def column_sums(rows: array[int], width: int) -> Triples:
    """The sums of flat rows of ``width`` fields (``sum_triples`` of the
    rows, by columns)."""
    return tuple(sum(rows[k::width]) for k in range(width))


def _append_rows(rows: array[int], segments: Iterable[Sequence[int]]) -> array[int]:
    """``rows`` with every segment's row (or array of rows) added: the same
    array while each value fits its type and no ``Columns`` shares it, else
    a copy (a wider row type; 8-byte integers past uint32)."""
    for row in segments:
        if rows.typecode == "q":
            rows.extend(array("q", row))
            continue
        try:
            rows = extend_rows(rows, row)  # a row, or an array of rows
        except BufferError:  # resampling columns share it: they keep theirs
            rows = extend_rows(array(rows.typecode, rows), row)
        except OverflowError:  # past uint32
            rows = array("q", rows)
            rows.extend(array("q", row))
    return rows


class RowSegments(Sequence[Triples]):
    """Fixed-width rows of a flat ``array`` as tuples, one per segment."""

    def __init__(self, values: array[int], width: int) -> None:
        self._values = values
        self._width = width
        #: the rows as ``ChrfVariant.row`` gives them, where they are of a
        #: row type (``Columns`` then shares them: no copy); else None
        self.shared_rows = values if values.typecode in ROW_TYPES else None
        self.width = width

    def __len__(self) -> int:
        return len(self._values) // self._width

    def __iter__(self) -> Iterator[Triples]:
        w, values = self._width, self._values
        return (tuple(values[i : i + w]) for i in range(0, len(values), w))

    @overload
    def __getitem__(self, index: int) -> Triples: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Triples]: ...

    def __getitem__(self, index: int | slice) -> Triples | Sequence[Triples]:
        if isinstance(index, slice):
            return list(self)[index]
        i = range(len(self))[index] * self._width  # IndexError past either end
        return tuple(self._values[i : i + self._width])


def load_chrf(
    name_or_path: str, engine: str | None = None, threads: int | None = None, **overrides: Any
) -> ChrfVariant:
    """A chrF variant: ``chrF``, ``chrF++`` or a YAML file with
    ``metric: chrf.v1``, with keyword overrides."""
    from ..registry import load_config_of

    config = load_config_of(CHRF_METRIC, name_or_path, overrides)
    return ChrfVariant(config, engine, threads)
