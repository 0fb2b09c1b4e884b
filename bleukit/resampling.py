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
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, compress
from typing import TYPE_CHECKING

from .errors import InputError
from .stats import RefLength, Stats

if TYPE_CHECKING:
    import random

# Field width when a segment's statistics are packed into one integer: a sum
# of at most 2**31 segments of values below 2**32 never carries into the next
# field, so one big-integer addition adds every statistic at once.
_FIELD_BITS = 64
_FIELD_MASK = (1 << _FIELD_BITS) - 1


class Columns:
    """Per-segment statistics as columns, for fast sums over resamples.

    When every statistic is a small non-negative integer (always, except with
    the ``average`` reference length, whose lengths are fractions) each
    segment is also packed into one integer, fields ``_FIELD_BITS`` wide: a
    resample is then summed with one ``sum`` of integers instead of one per
    column. The result is the same exact integers either way.
    """

    def __init__(self, segments: Iterable[Stats], order: int) -> None:
        self.order = order
        sys_len: list[int] = []
        ref_len: list[RefLength] = []
        counts: list[list[int]] = [[] for _ in range(order)]
        totals: list[list[int]] = [[] for _ in range(order)]
        last = None
        # one pass, so that ``segments`` may be computed on the fly (a
        # system's tables read a chunk at a time) and never held as Stats
        for last in segments:
            sys_len.append(last.sys_len)
            ref_len.append(last.ref_len)
            for k in range(order):
                counts[k].append(last.counts[k])
                totals[k].append(last.totals[k])
        if last is None:
            raise InputError("no segments to resample")
        self.n = len(sys_len)
        self.cols: list[list[RefLength]] = [sys_len, ref_len, *counts, *totals]  # type: ignore[list-item]
        self.last = last
        #: whether every statistic fits a packed field (``packed``)
        self.packable = self.n < 2**31 and all(map(_fits_field, self.cols))

    @cached_property
    def packed(self) -> list[int] | None:
        """Each segment's statistics packed into one integer (built when a
        resampler asks: the compiled one reads ``rows`` instead)."""
        if not self.packable:
            return None
        return [
            sum(v << (_FIELD_BITS * k) for k, v in enumerate(values)) for values in zip(*self.cols)
        ]

    @property
    def width(self) -> int:
        return len(self.cols)

    def unpack(self, total: int) -> list[int]:
        return [(total >> (_FIELD_BITS * k)) & _FIELD_MASK for k in range(self.width)]

    def to_stats(self, sums: Sequence[RefLength]) -> Stats:
        o = self.order
        last = self.last
        # every column but the reference lengths holds ints (a hot path: no conversion)
        return Stats(
            sums[0],  # type: ignore[arg-type]
            sums[1],
            tuple(sums[2 : 2 + o]),  # type: ignore[arg-type]
            tuple(sums[2 + o :]),  # type: ignore[arg-type]
            self.n,
            last.last_len,
            last.last_counts,
            last.last_totals,
        )

    def resample(self, idx: Sequence[int]) -> Stats:
        if self.packed is not None:
            return self.to_stats(self.unpack(sum(map(self.packed.__getitem__, idx))))
        return self.to_stats([sum(map(col.__getitem__, idx)) for col in self.cols])

    def total(self) -> list[RefLength]:
        return [sum(col) for col in self.cols]

    def rows(self) -> array[int]:
        """The statistics as int64, segment by segment (packable columns
        only): a buffer for the compiled resamplers, not copied to bytes."""
        return array("q", chain.from_iterable(zip(*self.cols)))


def _fits_field(col: Sequence[RefLength]) -> bool:
    """Whether every value of a column is an int in [0, 2**32): converting
    to int64 refuses anything but ints (a Fraction, a float) at C speed."""
    try:
        values = array("q", col)  # type: ignore[type-var]  # a Fraction is refused here
    except (TypeError, OverflowError):
        return False
    return not values or (min(values) >= 0 and max(values) < 2**32)


@dataclass(frozen=True)
class Draws:
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


_SELECTED = bytes.maketrans(b"01", b"\x00\x01")
_REST = bytes.maketrans(b"01", b"\x01\x00")


def randomization_selections(draws: Draws) -> Iterator[tuple[bytes, bytes]]:
    """Per trial, the swapped segments as 0/1 bytes for
    ``itertools.compress``, and the complement."""
    rng = draws.rng()
    for _ in range(draws.count):
        bits = format(rng.getrandbits(draws.n), f"0{draws.n}b").encode("ascii")
        yield bits.translate(_SELECTED), bits.translate(_REST)


def bootstrap_sums(systems: Sequence[Columns], draws: Draws) -> list[Iterator[Stats]]:
    """Per system, its statistics summed over each bootstrap resample (the
    reference: the same resamples for every system)."""
    indices = bootstrap_indices(draws)
    return [map(c.resample, indices) for c in systems]


Sides = tuple[Sequence[RefLength], Sequence[RefLength]]


def randomization_sums(base: Columns, other: Columns, draws: Draws) -> Iterator[Sides]:
    """Per trial, the summed statistics of the two shuffled systems: side A
    takes the baseline's selected segments and the other system's rest (the
    reference)."""
    base_total, other_total = base.total(), other.total()
    both = [a + b for a, b in zip(base_total, other_total)]
    if base.packed is not None and other.packed is not None:
        for sel, rest in randomization_selections(draws):
            packed = sum(compress(base.packed, sel)) + sum(compress(other.packed, rest))
            side_a: list[RefLength] = list(base.unpack(packed))
            yield side_a, [t - a for t, a in zip(both, side_a)]
        return
    deltas = [[b - s for b, s in zip(bc, sc)] for bc, sc in zip(base.cols, other.cols)]
    for sel, _ in randomization_selections(draws):
        side_a = [t + sum(compress(d, sel)) for t, d in zip(other_total, deltas)]
        yield side_a, [t - a for t, a in zip(both, side_a)]
