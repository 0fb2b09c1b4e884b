"""What resampling tests resample: per-segment statistics as columns, and
the random draws, defined once from the seed.

* Bootstrap resamples: ``random.Random(seed).choices(range(n), k=n)``,
  ``count`` times (Koehn 2004).
* Approximate-randomization trials: per trial ``getrandbits(n)`` from the
  same generator; bit n-1-j says whether segment j swaps (Riezler & Maxwell
  2005).

The functions here are the reference definitions; engines sum statistics
over these draws (``Engine.bootstrap_sums``, ``Engine.randomization_sums``),
the compiled one in C with CPython's Mersenne Twister run from the same
state, so the very same draws.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from itertools import compress, groupby
from operator import sub
from typing import TYPE_CHECKING, Any, Protocol, overload

from .buffers import ROW_TYPES, extend_rows
from .errors import InputError
from .record import Record
from .stats import RefLength

if TYPE_CHECKING:
    import random

# Field width when a segment's statistics are packed into one integer: a sum
# of at most 2**31 segments of values below 2**32 never carries into the next
# field, so one big-integer addition adds every statistic at once.
_FIELD_BITS = 64


class RowCodec(Protocol):
    """Statistics as flat rows of non-negative numbers and back (a metric:
    ``Metric.row``, ``Metric.from_row``)."""

    def row(self, stats: Any) -> Sequence[RefLength]: ...
    def from_row(self, sums: Sequence[Any], segments: int, last: Any) -> Any: ...


class Columns:
    """Per-segment statistics as columns, for fast sums over resamples.

    When every statistic is an integer in [0, 2**32) (always for BLEU,
    except with the ``average`` reference length, whose lengths are
    fractions) the segments are held as one row-major array of a row type
    (``buffers.ROW_TYPES``: uint16, 2 bytes a statistic, while every value
    fits, else uint32; ``rows``, what the compiled resamplers read,
    uncopied), and the columns are strided views of it. Otherwise the
    columns are lists. Each segment of non-negative integers (rows,
    or larger ones: NIST's fixed-point information) can also be packed into
    one integer, ``field_bits`` a field, so that a resample is summed with
    one ``sum`` of integers instead of one per column. The sums are the same
    exact integers either way.
    """

    def __init__(self, segments: Iterable[Any], codec: RowCodec) -> None:
        self.codec = codec
        rows: array[int] | None = array(ROW_TYPES[0])
        listed: list[Sequence[RefLength]] = []
        last = None
        width = 0
        shared = getattr(segments, "shared_rows", None)
        if shared is not None and len(shared):
            # rows as ``codec.row`` gives them, made at once: a store's own,
            # shared rather than copied (a million segments of chrF: 36 MB
            # a system), or BLEU's made from its tables a column at a time
            rows, width, last = shared, segments.width, segments[-1]  # type: ignore[attr-defined,index]
            segments = ()
        # one pass, so that ``segments`` may be computed on the fly (a
        # system's tables read a chunk at a time) and never held at once
        for last in segments:
            values = codec.row(last)
            width = len(values)
            if rows is not None:
                try:
                    rows.extend(values)  # type: ignore[arg-type]  # a Fraction: TypeError
                    continue
                except (TypeError, OverflowError):
                    del rows[len(rows) - len(rows) % width :]  # a row half added
                try:  # a value past uint16: a wider row type
                    rows = extend_rows(rows, values)  # type: ignore[arg-type]
                    continue
                except (TypeError, OverflowError):  # a Fraction; a value past uint32
                    listed = list(zip(*[iter(rows)] * width))
                    rows = None
            listed.append(values)
        self.width = width
        if last is None:
            raise InputError("no segments to resample")
        self.last = last
        # (past 2**31 segments a packed sum could carry into the next field)
        if rows is not None and len(rows) >= 2**31 * self.width:
            listed, rows = list(zip(*[iter(rows)] * self.width)), None
        #: the segments as rows of a row type, segment by segment (None: not
        #: packable)
        self.rows = rows
        self.cols: list[Sequence[RefLength]]
        if rows is not None:
            self.n = len(rows) // self.width
            view = memoryview(rows)
            self.cols = [view[k :: self.width] for k in range(self.width)]
        else:
            self.n = len(listed)
            self.cols = [list(col) for col in zip(*listed)]

    @property
    def packable(self) -> bool:
        """Whether the statistics are ``rows`` (and pack into ``packed``)."""
        return self.rows is not None

    @cached_property
    def field_bits(self) -> int | None:
        """The width of a field of ``packed``: 64 for rows; for other
        non-negative integers (NIST's fixed-point information, past uint32)
        wide enough that a sum of ``n`` draws never carries into the next
        field; None where a statistic is not such an integer (a Fraction)."""
        if self.packable:
            return _FIELD_BITS
        if not all(type(v) is int and v >= 0 for col in self.cols for v in col):
            return None
        top = max((int(max(col, default=0)) for col in self.cols), default=0)
        return top.bit_length() + self.n.bit_length() + 1

    @cached_property
    def packed(self) -> list[int] | None:
        """Each segment's statistics packed into one integer, ``field_bits``
        a field (built when a resampler asks: the compiled one reads
        ``rows`` instead)."""
        bits = self.field_bits
        if bits is None:
            return None
        return [sum(v << (bits * k) for k, v in enumerate(values)) for values in zip(*self.cols)]

    def unpack(self, total: int) -> list[int]:
        bits = self.field_bits or _FIELD_BITS
        mask = (1 << bits) - 1
        return [(total >> (bits * k)) & mask for k in range(self.width)]

    def to_stats(self, sums: Sequence[Any]) -> Any:
        """The statistics of a summed row (the segments' last one kept)."""
        return self.codec.from_row(sums, self.n, self.last)

    def row_sum(self, idx: Iterable[int]) -> Sequence[RefLength]:
        """The column sums of the segments ``idx`` names (repeats counted):
        one packed sum where the segments pack, else one sum per column."""
        if self.packed is not None:
            return self.unpack(sum(map(self.packed.__getitem__, idx)))
        chosen = list(idx)
        return [sum(map(col.__getitem__, chosen)) for col in self.cols]

    def selected_sum(self, selected: Sequence[int]) -> Sequence[RefLength]:
        """The column sums of the segments whose flag in ``selected`` is set."""
        if self.packed is not None:
            return self.unpack(sum(compress(self.packed, selected)))
        return [sum(compress(col, selected)) for col in self.cols]

    def resample(self, idx: Sequence[int]) -> Any:
        return self.to_stats(self.row_sum(idx))

    def total(self) -> list[RefLength]:
        return list(self._total)

    @cached_property
    def _total(self) -> tuple[RefLength, ...]:
        # summed once: the columns never change, and a study asks a pair of
        # systems' columns for their totals dozens of times
        return tuple(sum(col) for col in self.cols)

    def select(self, rows: Sequence[int | None], last: Any, zero: Any) -> Columns:
        """The columns of some of these segments, in that order (None: a row
        of ``zero`` statistics, a segment that adds nothing), ``last`` the
        statistics of the last: the columns ``Columns`` makes of those
        segments, taken from these rows without making each segment's
        statistics again."""
        if not rows:
            raise InputError("no segments to resample")
        out = Columns.__new__(Columns)
        out.codec, out.width, out.last, out.n = self.codec, self.width, last, len(rows)
        zero_row = list(self.codec.row(zero))
        w = self.width
        if self.rows is not None:
            # (arrays of the rows' own type: a row type, ``buffers.ROW_TYPES``)
            picked, blank = self.rows[:0], self.rows[:0]
            blank.extend(int(x) for x in zero_row)
            # a run of consecutive segments copied as one slice (a study's
            # rated segments come in documents)
            k, n = 0, len(rows)
            if None not in rows:
                # the runs are where a segment's number less its place
                # stays the same: grouped at C speed, not compared one by one
                for start, run in groupby(map(sub, rows, range(n))):
                    size = len(list(run))
                    picked.extend(self.rows[(start + k) * w : (start + k + size) * w])
                    k += size
            while k < n:
                i = rows[k]
                if i is None:
                    picked.extend(blank)
                    k += 1
                    continue
                end = k + 1
                while end < n and rows[end] == i + end - k:
                    end += 1
                picked.extend(self.rows[i * w : (i + end - k) * w])
                k = end
            out.rows = picked
            view = memoryview(picked)
            out.cols = [view[k::w] for k in range(w)]
        else:
            out.rows = None
            out.cols = [[zero_row[k] if i is None else col[i] for i in rows]
                        for k, col in enumerate(self.cols)]  # fmt: skip
        return out

    def row_view(self) -> RowView:
        """The rows as a sequence of rows, uncopied (needs ``rows``)."""
        if self.rows is None:
            raise ValueError("row_view: these statistics are not rows of a row type")
        return RowView(self.rows, self.width)


class RowView(Sequence[tuple[int, ...]]):
    """Row-major statistics (``buffer``, of a row type, ``width`` a row) read as a
    sequence of rows: each row is made when it is read, and kernels take
    the buffer itself."""

    def __init__(self, buffer: array[int], width: int) -> None:
        self.buffer, self.width = buffer, width

    def __len__(self) -> int:
        return len(self.buffer) // self.width

    @overload
    def __getitem__(self, i: int) -> tuple[int, ...]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[int, ...]]: ...
    def __getitem__(self, i: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if not -n <= i < n:
            raise IndexError("row index out of range")
        start = (i % n) * self.width
        return tuple(self.buffer[start : start + self.width])

    def column_sums(self) -> list[int]:
        """Each field's sum over the rows, exact."""
        w = self.width
        return [sum(self.buffer[f::w]) for f in range(w)]


def group_sums(cols: Columns, groups: bytes, count: int) -> list[list[RefLength]]:
    """Per group 0 .. ``count`` - 1, the column sums of the segments whose
    byte in ``groups`` (one per segment) is that group (the reference)."""
    if len(groups) != cols.n or any(g >= count for g in set(groups)):
        raise InputError(f"{len(groups)} groups below {count} for {cols.n} segments")
    sums = []
    for g in range(count):
        selected = groups.translate(bytes(int(i == g) for i in range(256)))
        sums.append([sum(compress(col, selected)) for col in cols.cols])
    return sums


class Draws(Record):
    """``count`` draws over ``n`` segments from the generator state of
    ``random.Random(seed)`` (``state``: its 625 words), shared by every
    system of a paired test."""

    n: int
    count: int
    state: tuple[int, ...]

    @classmethod
    def from_seed(cls, n: int, count: int, seed: int | None) -> Draws:
        import random  # here: a score without resampling never needs it

        return cls(n, count, random.Random(seed).getstate()[1])

    def rng(self) -> random.Random:
        """A generator at the seed's state."""
        import random

        rng = random.Random()
        rng.setstate((3, self.state, None))
        return rng


def bootstrap_indices(draws: Draws) -> list[list[int]]:
    """The bootstrap resamples: ``count`` lists of ``n`` segment indices."""
    rng, population = draws.rng(), range(draws.n)
    return [rng.choices(population, k=draws.n) for _ in range(draws.count)]


class FlatResamples(Sequence[Sequence[int]]):
    """Resamples of one size (``bootstrap_indices``'), one after the other in
    one int32 array (``positions``) that kernels read as it is: as a
    sequence, each resample a view of its positions."""

    def __init__(self, indices: Sequence[Sequence[int]]) -> None:
        self.per = len(indices[0]) if indices else 0
        if any(len(idx) != self.per for idx in indices):
            raise InputError("resamples of different sizes")
        self.positions = array("i", [i for idx in indices for i in idx])
        self._count = len(indices)

    @classmethod
    def from_positions(cls, positions: array[int], per: int) -> FlatResamples:
        """Resamples of ``per`` positions each, already one after the other."""
        if per < 1 or len(positions) % per:
            raise InputError("resamples of different sizes")
        flat = cls([])
        flat.per, flat.positions, flat._count = per, positions, len(positions) // per
        return flat

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, k: int) -> Sequence[int]: ...
    @overload
    def __getitem__(self, k: slice) -> Sequence[Sequence[int]]: ...
    def __getitem__(self, k: int | slice) -> Sequence[int] | Sequence[Sequence[int]]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._count))]
        if not -self._count <= k < self._count:
            raise IndexError("resample index out of range")
        k %= self._count
        return memoryview(self.positions)[k * self.per : (k + 1) * self.per]


_SELECTED = bytes.maketrans(b"01", b"\x00\x01")
_REST = bytes.maketrans(b"01", b"\x01\x00")


def randomization_selections(draws: Draws) -> Iterator[tuple[bytes, bytes]]:
    """Per trial, the swapped segments as 0/1 bytes for
    ``itertools.compress``, and the complement."""
    rng = draws.rng()
    for _ in range(draws.count):
        bits = format(rng.getrandbits(draws.n), f"0{draws.n}b").encode("ascii")
        yield bits.translate(_SELECTED), bits.translate(_REST)


def bootstrap_sums(systems: Sequence[Columns], draws: Draws) -> list[Iterator[Any]]:
    """Per system, its statistics summed over each bootstrap resample (the
    reference: the same resamples for every system)."""
    indices = bootstrap_indices(draws)
    return [map(c.resample, indices) for c in systems]


def bootstrap_rows(systems: Sequence[Columns], draws: Draws) -> list[list[RefLength]]:
    """Per system, its column sums over each bootstrap resample, one flat
    row after the other (the reference)."""
    indices = bootstrap_indices(draws)
    return [[x for idx in indices for x in c.row_sum(idx)] for c in systems]


Sides = tuple[Sequence[RefLength], Sequence[RefLength]]


def randomization_sums(base: Columns, other: Columns, draws: Draws) -> Iterator[Sides]:
    """Per trial, the summed statistics of the two shuffled systems: side A
    takes the baseline's selected segments and the other system's rest (the
    reference)."""
    base_total, other_total = base.total(), other.total()
    both = [a + b for a, b in zip(base_total, other_total)]
    if base.packed is not None and other.packed is not None and base.field_bits == other.field_bits:
        for sel, rest in randomization_selections(draws):
            packed = sum(compress(base.packed, sel)) + sum(compress(other.packed, rest))
            side_a: list[RefLength] = list(base.unpack(packed))
            yield side_a, [t - a for t, a in zip(both, side_a)]
        return
    deltas = [[b - s for b, s in zip(bc, sc)] for bc, sc in zip(base.cols, other.cols)]
    for sel, _ in randomization_selections(draws):
        side_a = [t + sum(compress(d, sel)) for t, d in zip(other_total, deltas)]
        yield side_a, [t - a for t, a in zip(both, side_a)]


def split_sums(cols: Columns, draws: Draws) -> tuple[list[RefLength], list[RefLength]]:
    """Per randomization trial, the column sums of a system's selected
    segments and of its others, each one flat row after the other (the
    reference: the selections of ``randomization_selections``)."""
    total = cols.total()
    selected: list[RefLength] = []
    others: list[RefLength] = []
    for sel, _ in randomization_selections(draws):
        side = cols.selected_sum(sel)
        selected.extend(side)
        others.extend(t - x for t, x in zip(total, side))
    return selected, others
