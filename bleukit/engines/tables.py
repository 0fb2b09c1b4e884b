"""Per-segment tables: what every engine computes for a chunk of segments,
and the one place where a variant's reference-length policy, totals rule
and order turn them into ``Stats``.

A table holds, per segment, the hypothesis length, every reference's length
(-1 where a segment has no reference in that stream), the clipped matches of
every order up to the table's, and the closest and shortest reference
lengths. Any variant of the same tokenization and an order up to the
table's reads its statistics from it, so variants share one count.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, cast

from ..core.buffers import ROW_TYPES
from ..core.record import Record
from ..core.reflen import Policy, RefLength, closest, shortest
from ..core.stats import Stats, ngram_totals

#: a flat sequence of int64: a kernel's buffer cast to "q", or an array("q")
if TYPE_CHECKING:
    IntArray = memoryview | array[int]
else:
    # array is not subscriptable before 3.12, and a forward reference would
    # be compiled (see core.reflen.RefLength)
    IntArray = memoryview | array


class SegmentTable(Record):
    """Per-segment statistics of a chunk as flat int64 arrays: hypothesis
    lengths, reference lengths (segment x stream, -1 where absent), clipped
    matches (segment x order) and the closest and shortest reference length
    (segment x 2)."""

    hyp_len: IntArray
    ref_len: IntArray
    matches: IntArray
    nearest: IntArray
    nref: int
    order: int

    def __reduce__(self) -> tuple[object, ...]:
        # a kernel's buffers (memoryviews) do not pickle: arrays of the same
        # numbers do (to an executor's client)
        arrays = (a if isinstance(a, array) else array("q", a)
                  for a in (self.hyp_len, self.ref_len, self.matches, self.nearest))  # fmt: skip
        return (SegmentTable, (*arrays, self.nref, self.order))

    def compact(self) -> SegmentTable:
        """The same table in the narrowest arrays its numbers fit: int16 (a
        quarter of the kernel's int64: segments of up to 32,767 tokens),
        else int32 (counts and lengths of segments always fit), else this
        table. For tables kept for a whole run (a store's, per segment: a
        million segments and two systems, int16 against int32: 32 MB less)."""
        parts = (self.hyp_len, self.ref_len, self.matches, self.nearest)
        for code in ("h", "i"):
            try:
                hyp_len, ref_len, matches, nearest = (array(code, a) for a in parts)
            except OverflowError:
                continue
            return SegmentTable(hyp_len, ref_len, matches, nearest, self.nref, self.order)
        return self

    @cached_property
    def sums(self) -> TableSums:
        """The column sums every ``table_sum`` of this table reads, made
        once: a study sums one table under dozens of variants (orders,
        smoothings) of its tokenization."""
        width = self.order
        lengths = Counter(self.hyp_len).items()
        # every order's n-grams, without and with NLTK's floor (ngram_totals)
        totals = tuple(
            tuple(sum(c * t[k] for c, t in per_length) for k in range(width))
            for per_length in (
                [(c, ngram_totals(L, width, floor)) for L, c in lengths] for floor in (False, True)
            )
        )
        return TableSums(
            (totals[0], totals[1]),
            sum(self.hyp_len),
            tuple(sum(self.matches[k::width]) for k in range(width)),
            sum(self.nearest[0::2]),
            sum(self.nearest[1::2]),
        )

    def ref_lengths(self, i: int) -> tuple[int, ...]:
        row = self.ref_len[i * self.nref : (i + 1) * self.nref]
        return tuple(r for r in row if r >= 0)

    def chosen_lengths(self, ref_length: Policy) -> Sequence[RefLength]:
        """Each segment's reference length under the policy: read from the
        table for the built-in closest and shortest policies (engines'
        kernels are tested against them), else by calling the policy."""
        if ref_length is closest:
            return self.nearest[0::2]
        if ref_length is shortest:
            return self.nearest[1::2]
        return [ref_length(h, self.ref_lengths(i)) for i, h in enumerate(self.hyp_len)]


class TableSums(Record):
    """A table's sums (``SegmentTable.sums``), each order's up to the
    table's: the hypotheses' n-grams (``totals[at_least_one]``), their
    tokens, the clipped matches, and the closest and shortest reference
    lengths."""

    totals: tuple[tuple[int, ...], tuple[int, ...]]
    hyp: int
    matches: tuple[int, ...]
    closest: int
    shortest: int


def table_stats(
    table: SegmentTable, ref_length: Policy, at_least_one: bool, order: int
) -> list[Stats]:
    """One Stats per segment, equal to ``stats.segment_stats``'s, for an
    order up to the table's."""
    width = table.order
    flat = table.matches.tolist()
    rows = [tuple(flat[i : i + order]) for i in range(0, len(flat), width)]
    return [
        Stats(hyp_len, ref, counts, totals, 1, hyp_len, counts, totals)
        for hyp_len, ref, counts, totals in zip(
            table.hyp_len,
            table.chosen_lengths(ref_length),
            rows,
            [ngram_totals(h, order, at_least_one) for h in table.hyp_len],
        )
    ]


def table_sum(table: SegmentTable, ref_length: Policy, at_least_one: bool, order: int) -> Stats:
    """The sum of ``table_stats(table, ...)``, without a Stats per segment."""
    width, n = table.order, len(table.hyp_len)
    if n == 0:
        return Stats.zero(order)
    sums = table.sums
    ref_len: RefLength = (sums.closest if ref_length is closest
                          else sums.shortest if ref_length is shortest
                          else sum(table.chosen_lengths(ref_length)))  # fmt: skip
    last = n - 1
    last_len = table.hyp_len[last]
    return Stats(
        sums.hyp,
        ref_len,
        sums.matches[:order],
        sums.totals[at_least_one][:order],
        n,
        last_len,
        tuple(table.matches[last * width : last * width + order]),
        ngram_totals(last_len, order, at_least_one),
    )


def select_rows(tables: Sequence[SegmentTable], rows: Sequence[int]) -> SegmentTable:
    """One table of the given segments of consecutive tables (numbered
    across them from 0), in the order given."""
    if not tables:
        raise ValueError("no tables to select segments from")
    nref, order = tables[0].nref, tables[0].order
    if any(t.nref != nref or t.order != order for t in tables):
        raise ValueError("the tables differ in references or order")
    starts = [0]
    for t in tables:
        starts.append(starts[-1] + len(t.hyp_len))
    hyp_len, ref_len, matches, nearest = (array("q") for _ in range(4))
    at, n = 0, len(rows)
    while at < n:
        row = rows[at]
        if not 0 <= row < starts[-1]:
            raise IndexError(f"segment {row} of {starts[-1]}")
        k = bisect_right(starts, row) - 1
        t, i = tables[k], row - starts[k]
        # a run of consecutive segments of one table copied at once (a
        # study's rated segments come in documents)
        end = at + 1
        while end < n and rows[end] == row + end - at and rows[end] < starts[k + 1]:
            end += 1
        j = i + end - at
        # iterated: a compact table's slices are int16 or int32 arrays (``compact``)
        hyp_len.extend(iter(t.hyp_len[i:j]))
        ref_len.extend(iter(t.ref_len[i * nref : j * nref]))
        matches.extend(iter(t.matches[i * order : j * order]))
        nearest.extend(iter(t.nearest[2 * i : 2 * j]))
        at = end
    return SegmentTable(hyp_len, ref_len, matches, nearest, nref, order)


def table_rows(
    tables: Sequence[SegmentTable], ref_length: Policy, at_least_one: bool, order: int
) -> array[int] | None:
    """The segments of consecutive tables as the rows ``Variant.row`` gives
    for ``table_stats``'s Stats (hypothesis length, reference length, then
    the matches and the n-grams of orders 1 .. ``order``), flat in one array
    of the narrowest row type (``core.buffers.ROW_TYPES``) they fit, made a
    column at a time instead of a Stats a segment (``Columns`` of a million
    segments: 2.4 s a system before). None where a value is of no row type
    (the average reference length's fractions)."""
    width = 2 + 2 * order
    size = sum(len(t.hyp_len) for t in tables)
    floor = 1 if at_least_one else 0
    for code in ROW_TYPES:
        rows = array(code, bytes(array(code).itemsize * size * width))
        done = 0
        try:
            for t in tables:
                n = len(t.hyp_len)
                view = memoryview(rows)[done * width : (done + n) * width]
                lengths = t.hyp_len.tolist()
                # (a Fraction among the lengths raises TypeError below)
                chosen = cast("Sequence[int]", t.chosen_lengths(ref_length))
                columns: list[Sequence[int]] = [lengths, chosen]
                columns += [t.matches[k :: t.order] for k in range(order)]
                columns += [[h - k if h > k else floor for h in lengths] for k in range(order)]
                for c, column in enumerate(columns):
                    view[c::width] = array(code, column)
                done += n
        except OverflowError:  # a value past this row type
            continue
        except TypeError:  # a Fraction
            return None
        return rows
    return None


class WeighedReferences(ABC):
    """A corpus's references whose n-grams an engine has weighed by their
    information (``Engine.weigh_references``), ready to weigh the n-grams
    that hypotheses match in them."""

    #: each reference's tokens, segment x stream (0 where a segment has none)
    ref_len: IntArray

    @abstractmethod
    def matches(self, hyps: Sequence[str]) -> tuple[IntArray, IntArray]:
        """Per hypothesis (one per reference segment, in order), its tokens,
        and per order 1 .. the table's the information of its n-grams that
        its references hold, each occurrence counted up to the most any one
        of them holds (``metrics.nist.core.segment_stats``'s): segments and
        segments x order."""


class ReferenceWeigher(WeighedReferences):
    """A corpus's references weighed as ``WeighedReferences`` are, added a
    chunk at a time (``Engine.reference_weigher``), with each system's
    hypotheses held compactly until every chunk is in: a store that reads
    a corpus in chunks keeps no text. References added after ``weigh``
    unweigh it: weigh again before matching."""

    @abstractmethod
    def add(self, streams: Sequence[Sequence[str | None]]) -> IntArray:
        """The next lines of every reference stream (None where a segment
        has none), counted; their tokens, segment x stream (``ref_len``
        grows by them)."""

    @abstractmethod
    def hold(self, system: int, hyps: Sequence[str]) -> None:
        """The next lines of system ``system``'s hypotheses, held."""

    @abstractmethod
    def weigh(self) -> None:
        """Weigh every reference n-gram counted so far."""

    @abstractmethod
    def held_matches(self, system: int) -> tuple[IntArray, IntArray]:
        """``matches`` of the system's held hypotheses (none held: empty)."""
