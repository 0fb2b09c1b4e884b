"""The kernels of meta-evaluation, behind one interface chosen in one place
(``meta_kernels``), as the counting engines are (``bleukit.engines``):

* ``MetaKernels``, the reference, in Python (``pairs``, ``correlation``):
  every pair visited, for small inputs and for the tests;
* ``CompiledMetaKernels``, the compiled ``bleukit.meta._kernels`` (built with
  ``bleukit._accel``), in threads: the same numbers, bit for bit, on every
  input it takes, and the reference's for the rest (shapes it refuses,
  counts past its integers).

Nothing outside ``bleukit.meta`` imports them (tests/test_architecture.py).
"""

from __future__ import annotations

import functools
import itertools
import math
from array import array
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from ..core.buffers import typed_buffer
from ..core.errors import InputError, MissingDependencyError
from ..core.reflen import RefLength
from ..core.resampling import Columns, Draws, FlatResamples, bootstrap_indices
from ..engines import Engine, ordered_map, requested_engine, workers
from .correlation import SYSTEM_STATISTICS, system_swaps
from .pairs import (
    SWAP_KINDS,
    ItemCounts,
    PairRow,
    Pairs,
    calibrated_epsilon,
    calibrated_swap_sums,
    cell_weights,
    epsilon_pairs,
    item_pairs,
    item_weights,
    pair_counts,
    pair_disagreements,
    pair_swap_sums,
    rated,
    swap_tables,
    window_pairs,
)
from .statistics import groups

#: the pairs calibrated_swap_sums packs into an event's 28 bits
_CALIBRATED_MAX_PAIRS = 1 << 28


def _system_statistic(name: str) -> Any:
    """A system-level statistic by name (``correlation.SYSTEM_STATISTICS``)."""
    if name not in SYSTEM_STATISTICS:
        raise InputError(f"statistic {name!r}: expected one of {', '.join(SYSTEM_STATISTICS)}")
    return SYSTEM_STATISTICS[name]


class _Weights:
    """A row codec for PERM-BOTH's per-cell weights as two non-negative
    fields (the positive and the negative part), so that approximate
    randomization's sums (``Engine.randomization_sums``) give a trial's
    signed sum."""

    def row(self, stats: Any) -> Sequence[int]:
        return stats  # type: ignore[no-any-return]

    def from_row(self, sums: Sequence[Any], segments: int, last: Any) -> Any:
        return sums


class MetaKernels:
    """The reference: each kernel in Python. ``engine``, the counting
    engine of the study's variants, resamples what is summed like a
    metric's statistics (``signed_trials``)."""

    name = "python"

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def bootstrap_resamples(self, draws: Draws) -> FlatResamples:
        """The bootstrap resamples of ``draws`` (``bootstrap_indices``), flat."""
        return FlatResamples(bootstrap_indices(draws))

    def signed_trials(self, weights: Sequence[int], draws: Draws) -> list[int]:
        """Per trial, the sum of the cells' weights, each negated where the
        trial swaps the cell (its draw's bit clear), by approximate
        randomization's sums of the positive and negative parts (the
        engine's ``randomization_sums``)."""
        kept = Columns([(max(w, 0), max(-w, 0)) for w in weights], _Weights())
        swapped = Columns([(max(-w, 0), max(w, 0)) for w in weights], _Weights())
        sums = self.engine.randomization_sums(kept, swapped, draws)
        return [int(plus - minus) for (plus, minus), _ in sums]

    def batch_signed_trials(
        self, vectors: Sequence[Sequence[int]], draws: Draws
    ) -> list[list[int]]:
        """``signed_trials`` of each vector of weights, over the same trials."""
        return [self.signed_trials(v, draws) for v in vectors]

    def split_sums(
        self, cols: Columns, draws: Draws
    ) -> tuple[Sequence[RefLength], Sequence[RefLength]]:
        """Per approximate-randomization trial, one system's selected
        segments' column sums and its others', flat (the engine's
        ``split_sums``)."""
        return self.engine.split_sums(cols, draws)

    def gathered_sums(
        self, values: Sequence[Sequence[int]], indices: Sequence[int], per: int
    ) -> list[list[int]]:
        """Per resample (``indices``: resamples of ``per`` positions each, one
        after the other, repeats counted), the sum of each vector of
        ``values`` at its positions."""
        if per < 1 or len(indices) % per:
            raise InputError(f"{len(indices)} positions are not resamples of {per}")
        return [[sum(map(v.__getitem__, indices[lo : lo + per])) for v in values]
                for lo in range(0, len(indices), per)]  # fmt: skip

    def pair_counts(self, metric: Sequence[float], human: Sequence[float]) -> Pairs:
        """Every pair of positions of two score vectors classified
        (``pairs.pair_counts``)."""
        return pair_counts(metric, human)

    def rated_pair_counts(self, metric: Sequence[float], human: Sequence[float]) -> Pairs:
        """``pair_counts`` of the rated entries (``pairs.rated``: a NaN on
        either side left out)."""
        return self.pair_counts(*rated(metric, human))

    def grouped_pair_counts(
        self, metric: Sequence[Sequence[float]], human: Sequence[Sequence[float]], by: str
    ) -> list[Pairs]:
        """``rated_pair_counts`` of each group of two systems x items
        matrices under a grouping (``statistics.groups``)."""
        return [self.rated_pair_counts(m, h) for m, h in groups(metric, human, by)]

    def resampled_pair_counts(
        self,
        metric: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
        indices: Sequence[Sequence[int]],
        by_system: bool,
        epsilon: float = 0.0,
    ) -> list[list[Pairs]]:
        """For each resample of the items (columns) of two systems x items
        matrices (``indices``, repeats kept), the pair counts of the
        resampled scores, a metric difference of at most ``epsilon`` a tie:
        per system, or of all of them in one vector (a bootstrap of the
        segment-level statistics grouped by system or not grouped); NaN
        cells (unrated) left out (``resampled_pair_rows``' rows as ``Pairs``)."""
        rows = self.resampled_pair_rows(metric, human, indices, by_system, epsilon)
        return [[Pairs(*row) for row in groups] for groups in rows]

    def resampled_pair_rows(
        self,
        metric: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
        indices: Sequence[Sequence[int]],
        by_system: bool,
        epsilon: float = 0.0,
    ) -> list[list[PairRow]]:
        """``resampled_pair_counts`` as tuples of the five counts (``Pairs``'
        fields in order): a grid's intervals read a million of them, which
        as ``Pairs`` took about 2% of its time to make. The reference
        recounts each resample's repeated scores."""
        if len(metric) != len(human) or any(len(m) != len(h) for m, h in zip(metric, human)):
            raise InputError("metric and human scores must be matrices of one shape")
        out = []
        for idx in indices:
            m = [[row[i] for i in idx] for row in metric]
            h = [[row[i] for i in idx] for row in human]
            flat = [x for row in m for x in row], [x for row in h for x in row]
            vectors = [rated(a, b) for a, b in (zip(m, h) if by_system else [flat])]
            out.append([(self.pair_counts(a, b) if epsilon == 0
                         else window_pairs(a, b, epsilon)).row() for a, b in vectors])  # fmt: skip
        return out

    def system_statistics(
        self, metric: Sequence[float], human: Sequence[float], systems: int, statistic: str
    ) -> list[float]:
        """Per resample (a row of ``systems`` metric scores and one of human
        scores, flat), a system-level statistic of the metric's row against
        the human one; NaN where a human score is NaN (a resample without a
        rated segment of some system)."""
        f = _system_statistic(statistic)
        if len(metric) != len(human) or systems < 1 or len(metric) % systems:
            raise InputError(f"{len(metric)} metric and {len(human)} human scores "
                             f"for rows of {systems}")  # fmt: skip
        out = []
        for lo in range(0, len(metric), systems):
            m, h = list(metric[lo : lo + systems]), list(human[lo : lo + systems])
            out.append(math.nan if any(map(math.isnan, h)) else f(m, h))
        return out

    def system_swaps(
        self,
        a: Sequence[float],
        b: Sequence[float],
        human: Sequence[float],
        statistic: str,
        draws: Draws,
    ) -> int:
        """PERM-BOTH's trials of a system-level statistic that reach the
        observed lead of b over a (``correlation.system_swaps``)."""
        return system_swaps(a, b, human, statistic, draws)

    def cell_weights(
        self, x: Sequence[float], y: Sequence[float], human: Sequence[float], kind: str
    ) -> list[int]:
        """PERM-BOTH's per-cell weights of a statistic summed over every
        pair of one vector (``pairs.cell_weights``; every pair
        visited)."""
        return cell_weights(x, y, human, kind)

    def rated_cell_weights(
        self, x: Sequence[float], y: Sequence[float], human: Sequence[float], kind: str
    ) -> list[int]:
        """``cell_weights`` of the cells the humans rated, 0 for an unrated
        (NaN) one: it pairs with no cell, so its swap changes nothing."""
        keep = [k for k, h in enumerate(human) if not math.isnan(h)]
        if len(keep) == len(human):
            return self.cell_weights(x, y, human, kind)
        own = self.cell_weights([x[k] for k in keep], [y[k] for k in keep],
                                [human[k] for k in keep], kind)  # fmt: skip
        full = [0] * len(human)
        for k, w in zip(keep, own):
            full[k] = w
        return full

    def pair_cell_weights(
        self,
        vectors: Sequence[Sequence[float]],
        human: Sequence[float],
        pairs: Sequence[tuple[int, int]],
        kind: str,
    ) -> list[Sequence[int]]:
        """``rated_cell_weights(vectors[x], vectors[y], human, kind)`` of each
        pair (x, y): many pairs of one group's vectors at once."""
        return [self.rated_cell_weights(vectors[x], vectors[y], human, kind) for x, y in pairs]

    def pair_cell_weights_both(
        self,
        vectors: Sequence[Sequence[float]],
        human: Sequence[float],
        pairs: Sequence[tuple[int, int]],
    ) -> dict[str, list[Sequence[int]]]:
        """``pair_cell_weights`` of every kind (``SWAP_KINDS``), by kind."""
        return {kind: self.pair_cell_weights(vectors, human, pairs, kind) for kind in SWAP_KINDS}

    def pooled_calibration(
        self, metric: Sequence[float], human: Sequence[float]
    ) -> tuple[int, int, float]:
        """Tie calibration of acc_eq with no grouping, the vectors one
        group: the pairs agreeing at the calibrated epsilon, all pairs, and
        the epsilon (``pairs.calibrated_epsilon``; every pair is
        visited, so this reference is for small inputs)."""
        epsilon = calibrated_epsilon([(metric, human)])
        pairs = epsilon_pairs(metric, human, epsilon)
        return pairs.con + pairs.tie_both, pairs.total, epsilon

    def item_pairs(
        self, metric: Sequence[Sequence[float]], human: Sequence[Sequence[float]], threshold: float
    ) -> tuple[list[ItemCounts], float]:
        """How the pairs of systems of every item (column) of two system x
        item matrices compare, and acc_eq's calibrated epsilon
        (``pairs.item_pairs``)."""
        return item_pairs(metric, human, threshold)

    def pair_swap_trials(
        self,
        vectors: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
        pairs: Sequence[tuple[int, int]],
        kind: str,
        threshold: float,
        draws: Draws,
    ) -> list[tuple[int, list[int]] | None]:
        """PERM-BOTH of an item-grouped statistic for each pair (a, b) of
        vectors of cells (a variant's system x item scores, system after
        system, as ``human``'s rows): b's sum minus a's over the pair tables
        with no cell swapped (``pairs.swap_tables``) and in each trial
        (``pairs.pair_swap_sums``); None where no pair of cells counts."""
        items = len(human[0]) if human else 0

        def rows(v: int) -> list[Sequence[float]]:
            return [vectors[v][s * items : (s + 1) * items] for s in range(len(human))]

        trials: list[tuple[int, list[int]] | None] = []
        for a, b in pairs:
            first, second, table = swap_tables(rows(a), rows(b), human, kind, threshold)
            trials.append((sum(table[0::4]), pair_swap_sums(draws, first, second, table))
                          if first else None)  # fmt: skip
        return trials

    def calibrated_swap_sums(
        self,
        draws: Draws,
        za: Sequence[Sequence[float]],
        zb: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
    ) -> list[int]:
        """PERM-BOTH's trials of acc_eq with tie calibration by item, the
        calibration run again in every trial: b's agreeing pairs minus a's
        (``pairs.calibrated_swap_sums``)."""
        return calibrated_swap_sums(draws, za, zb, human)

    def pair_disagreements(
        self,
        a: Sequence[float],
        b: Sequence[float],
        human: Sequence[float],
        epsilon_a: float,
        epsilon_b: float,
    ) -> tuple[int, int]:
        """The pairs of one vector where acc_eq of b at ``epsilon_b`` agrees
        and of a at ``epsilon_a`` does not, and the other way round
        (``pairs.pair_disagreements``; every pair visited)."""
        return pair_disagreements(a, b, human, epsilon_a, epsilon_b)


@functools.lru_cache(maxsize=4)
def _human_order(module: ModuleType, human: bytes, groups: int) -> bytes:
    """The human scores' order for ``group_pair_counts`` (its ``human_order``),
    made once for the variants of a study, which share their humans: half
    of each variant's sorting passes."""
    order: bytes = module.human_order(human, groups)
    return order


def _items(*matrices: Sequence[Sequence[float]]) -> int | None:
    """The number of columns of matrices of one shape (None: of several)."""
    first = matrices[0]
    items = len(first[0]) if first else 0
    same = all(len(m) == len(first) and all(len(r) == items for r in m) for m in matrices)
    return items if same else None


def _flat(matrix: Sequence[Sequence[float]]) -> array[float]:
    """A matrix's rows, one after the other, as float64 (the kernels' layout):
    float64 arrays copied as they are, lists through ``fromlist`` (a third
    of the time of an iterator's values, a matrix a pair of variants)."""
    out = array("d")
    for row in matrix:
        if isinstance(row, array) and row.typecode == "d":
            out.extend(row)
        else:
            out.fromlist(row if isinstance(row, list) else list(row))
    return out


def joined_ints(vectors: Sequence[Sequence[int]]) -> array[int]:
    """Vectors of integers one after the other in one int64 array: int64
    buffers (a kernel's views) copied as bytes, anything else converted
    (OverflowError past int64)."""
    out = array("q")
    for v in vectors:
        if isinstance(v, (memoryview, array)) and memoryview(v).format == "q":
            out.frombytes(memoryview(v).cast("B"))
        else:
            out.extend(v)
    return out


def _fits(vectors: Sequence[Sequence[float]], n: int, pairs: Sequence[tuple[int, int]]) -> bool:
    """Whether a kernel over pairs of vectors takes these (the reference
    refuses the others): n >= 1 cells, every vector of n, every pair naming
    two of the vectors."""
    return (
        n > 0
        and all(len(v) == n for v in vectors)
        and all(0 <= i < len(vectors) for pair in pairs for i in pair)
    )


def _unrated(*matrices: Sequence[Sequence[float]]) -> bool:
    """Whether a matrix has a NaN cell (a score the humans did not rate),
    whose pairs the kernels leave out, weighing items of other pair counts."""
    return any(any(map(math.isnan, row)) for m in matrices for row in m)


def _row_bounds(n: int, parts: int) -> list[int]:
    """Row bounds splitting the pairs (i, j), i < j < n, into ``parts``
    ranges of rows with about as many pairs each (row i has n - 1 - i)."""
    total = n * (n - 1) // 2
    bounds, row, before = [0], 0, 0
    for p in range(1, parts):
        while row < n and before < total * p // parts:
            before += n - 1 - row
            row += 1
        bounds.append(row)
    bounds.append(n)
    return bounds


def compiled_module() -> ModuleType | None:
    """The compiled kernels, or None where they were not built."""
    try:
        from . import _kernels
    except ImportError:
        return None
    return _kernels


class CompiledMetaKernels(MetaKernels):
    """The compiled kernels (``bleukit.meta._kernels``), in threads."""

    name = "c"

    def __init__(self, engine: Engine, module: ModuleType) -> None:
        super().__init__(engine)
        self.module = module

    def bootstrap_resamples(self, draws: Draws) -> FlatResamples:
        # drawn in C: 2,004 x 1,000 draws took random.choices 0.6 s
        if not draws.count:
            return super().bootstrap_resamples(draws)
        raw = self.module.bootstrap_positions(draws.state, draws.n, draws.count)
        return FlatResamples.from_positions(array("i", raw), draws.n)

    def batch_signed_trials(
        self, vectors: Sequence[Sequence[int]], draws: Draws
    ) -> list[list[int]]:
        cells = len(vectors[0]) if vectors else 0
        if not cells or any(len(v) != cells for v in vectors):
            # none, an empty vector or vectors of two lengths: one at a time
            return super().batch_signed_trials(vectors, draws)
        sums = self._kernel_trials(vectors, cells, draws)
        if sums is None:
            # weights past int64's trials (the reference counts them)
            return super().batch_signed_trials(vectors, draws)
        return [sums[k * draws.count : (k + 1) * draws.count] for k in range(len(vectors))]

    def _kernel_trials(
        self, vectors: Sequence[Sequence[int]], cells: int, draws: Draws
    ) -> list[int] | None:
        """The kernel's signed trials of vectors of ``cells`` weights each,
        one vector's after the other; None where the weights pass its int64."""
        try:
            raw = self.module.signed_trials(draws.state, cells, joined_ints(vectors), draws.count)
        except OverflowError:
            return None
        return memoryview(raw).cast("q").tolist()

    def split_sums(
        self, cols: Columns, draws: Draws
    ) -> tuple[Sequence[RefLength], Sequence[RefLength]]:
        if cols.rows is None:
            # rows that are not small integers: the engine's sums
            return super().split_sums(cols, draws)
        # the selected rows' sums by tables of each 8 rows' 256 sums, a field
        # at a time (the engine's sums read every row of every trial); the
        # others' are the rest of the totals
        sides = self.module.selected_sums(draws.state, cols.rows, cols.width, draws.count)
        selected, others = (memoryview(raw).cast("q") for raw in sides)
        return selected, others

    def gathered_sums(
        self, values: Sequence[Sequence[int]], indices: Sequence[int], per: int
    ) -> list[list[int]]:
        cells = len(values[0]) if values else 0
        if (
            not cells
            or per < 1
            or not indices
            or len(indices) % per
            or any(len(v) != cells for v in values)
        ):
            # no values or resamples, or ragged ones: the reference's sums or error
            return super().gathered_sums(values, indices, per)
        try:
            raw = self.module.gathered_sums(joined_ints(values), cells, typed_buffer(indices, "i"),
                                            len(indices) // per)  # fmt: skip
        except (OverflowError, ValueError):
            # values past int64's sums, or positions outside the vectors
            # (the reference's sums, or its IndexError)
            return super().gathered_sums(values, indices, per)
        sums = memoryview(raw).cast("q").tolist()
        k = len(values)
        return [sums[r * k : (r + 1) * k] for r in range(len(indices) // per)]

    def signed_trials(self, weights: Sequence[int], draws: Draws) -> list[int]:
        # no cell (the reference refuses it), or weights past int64's
        # trials (the reference counts them): the reference's
        sums = self._kernel_trials([weights], len(weights), draws) if weights else None
        return super().signed_trials(weights, draws) if sums is None else sums

    def pair_counts(self, metric: Sequence[float], human: Sequence[float]) -> Pairs:
        try:
            return Pairs(*self.module.pair_counts(array("d", metric), array("d", human)))
        except ValueError:
            # vectors of two lengths, which the reference refuses, or a NaN,
            # which the kernel's order has no place for: the reference's
            return super().pair_counts(metric, human)

    def rated_pair_counts(self, metric: Sequence[float], human: Sequence[float]) -> Pairs:
        if len(metric) != len(human):
            return super().rated_pair_counts(metric, human)
        return Pairs(*self.module.pair_counts(array("d", metric), array("d", human), True))

    def grouped_pair_counts(
        self, metric: Sequence[Sequence[float]], human: Sequence[Sequence[float]], by: str
    ) -> list[Pairs]:
        items = _items(metric, human)
        if by not in ("none", "system") or not items:
            # by item (columns), and what is not two matrices of one shape:
            # the reference's
            return super().grouped_pair_counts(metric, human, by)
        slices = 1 if by == "none" else len(metric)
        order = _human_order(self.module, _flat(human).tobytes(), slices)
        raw = self.module.group_pair_counts(_flat(metric), order, slices)
        values = memoryview(raw).cast("q").tolist()
        return [Pairs(*values[k : k + 5]) for k in range(0, len(values), 5)]

    def resampled_pair_rows(
        self,
        metric: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
        indices: Sequence[Sequence[int]],
        by_system: bool,
        epsilon: float = 0.0,
    ) -> list[list[PairRow]]:
        kernel = self.module
        items = _items(metric, human)
        if not items or any(len(idx) != items for idx in indices):
            # the reference refuses matrices of two shapes
            return super().resampled_pair_rows(metric, human, indices, by_system, epsilon)
        flat_m, flat_h = _flat(metric), _flat(human)
        # threads count ranges of the resamples (each sorts the groups once)
        parts = max(1, min(workers(), len(indices) // 64))
        bounds = [len(indices) * p // parts for p in range(parts + 1)]

        def part(lo_hi: tuple[int, int]) -> list[int]:
            lo, hi = lo_hi
            # resamples in one array are read as they are
            flat_i = (memoryview(indices.positions)[lo * items : hi * items]
                      if isinstance(indices, FlatResamples)
                      else array("i", [i for idx in indices[lo:hi] for i in idx]))  # fmt: skip
            raw = kernel.resampled_pair_counts(flat_m, flat_h, len(metric), items, flat_i,
                                               by_system, epsilon)  # fmt: skip
            return memoryview(raw).cast("q").tolist()

        values = [x for flat in ordered_map(part, list(itertools.pairwise(bounds)), parts)
                  for x in flat]  # fmt: skip
        groups = len(metric) if by_system else 1
        rows: list[PairRow] = list(zip(*[iter(values)] * 5))
        return [rows[r * groups : (r + 1) * groups] for r in range(len(indices))]

    def system_statistics(
        self, metric: Sequence[float], human: Sequence[float], systems: int, statistic: str
    ) -> list[float]:
        _system_statistic(statistic)
        if len(metric) != len(human) or systems < 1 or len(metric) % systems:
            # the reference refuses what the kernel would
            return super().system_statistics(metric, human, systems, statistic)
        index = list(SYSTEM_STATISTICS).index(statistic)
        raw = self.module.system_statistics(array("d", metric), array("d", human), systems, index)
        return array("d", raw).tolist()

    def system_swaps(
        self,
        a: Sequence[float],
        b: Sequence[float],
        human: Sequence[float],
        statistic: str,
        draws: Draws,
    ) -> int:
        kernel = self.module
        if statistic not in SYSTEM_STATISTICS or not len(a) == len(b) == len(human) or not a:
            # the reference refuses unknown statistics and vectors of two lengths
            return super().system_swaps(a, b, human, statistic, draws)
        vectors = (array("d", v) for v in (a, b, human))
        index = list(SYSTEM_STATISTICS).index(statistic)
        count: int = kernel.system_swaps(draws.state, *vectors, index, draws.count)
        return count

    def cell_weights(
        self, x: Sequence[float], y: Sequence[float], human: Sequence[float], kind: str
    ) -> list[int]:
        kernel = self.module
        if kind not in SWAP_KINDS or not len(x) == len(y) == len(human):
            # the reference refuses what the kernel would
            return super().cell_weights(x, y, human, kind)
        vectors = (array("d", v) for v in (x, y, human))
        raw = kernel.cell_weights(*vectors, SWAP_KINDS.index(kind))
        return memoryview(raw).cast("q").tolist()

    def pair_cell_weights(
        self,
        vectors: Sequence[Sequence[float]],
        human: Sequence[float],
        pairs: Sequence[tuple[int, int]],
        kind: str,
    ) -> list[Sequence[int]]:
        if kind not in SWAP_KINDS or not _fits(vectors, len(human), pairs):
            # the reference refuses what the kernel would
            return super().pair_cell_weights(vectors, human, pairs, kind)
        return self._cell_weights(vectors, human, pairs, SWAP_KINDS.index(kind))[0]

    def pair_cell_weights_both(
        self,
        vectors: Sequence[Sequence[float]],
        human: Sequence[float],
        pairs: Sequence[tuple[int, int]],
    ) -> dict[str, list[Sequence[int]]]:
        if not _fits(vectors, len(human), pairs):
            return super().pair_cell_weights_both(vectors, human, pairs)
        # both kinds from the same passes (the kernel's kind 2)
        return dict(zip(SWAP_KINDS, self._cell_weights(vectors, human, pairs, 2)))

    def _cell_weights(
        self,
        vectors: Sequence[Sequence[float]],
        human: Sequence[float],
        pairs: Sequence[tuple[int, int]],
        kind: int,
    ) -> list[list[Sequence[int]]]:
        """The kernel's cell weights of each pair, a list of them per kind it
        gives (kind 2: both)."""
        n = len(human)
        raw = self.module.pair_cell_weights(
            array("d", itertools.chain.from_iterable(vectors)), array("d", human),
            array("i", itertools.chain.from_iterable(pairs)), kind,
        )  # fmt: skip
        # views of the kernel's buffer: a grid's pairs hold no list of ints
        flat = memoryview(raw).cast("q")
        p = len(pairs)
        return [[flat[(c * p + q) * n : (c * p + q + 1) * n] for q in range(p)]
                for c in range(2 if kind == 2 else 1)]  # fmt: skip

    def pooled_calibration(
        self, metric: Sequence[float], human: Sequence[float]
    ) -> tuple[int, int, float]:
        kernel = self.module
        if len(metric) != len(human):
            # the reference refuses vectors of two lengths
            return super().pooled_calibration(metric, human)
        counts: tuple[int, int, float] = kernel.pooled_calibration(
            array("d", metric), array("d", human)
        )
        return counts

    def item_pairs(
        self, metric: Sequence[Sequence[float]], human: Sequence[Sequence[float]], threshold: float
    ) -> tuple[list[ItemCounts], float]:
        kernel = self.module
        items = _items(metric, human)
        if items is None:
            # the reference refuses what is not two matrices of one shape
            return super().item_pairs(metric, human, threshold)
        try:
            # items of other pair counts (NaN cells, not rated) weigh their
            # pairs in the sweep: the kernel makes the weights
            # (pairs.item_weights) of the rated cells
            raw, epsilon = kernel.item_pairs(_flat(metric), _flat(human), len(metric), items,
                                             threshold)  # fmt: skip
        except OverflowError:
            # weights past what the kernel sums exactly: the reference's ints
            return super().item_pairs(metric, human, threshold)
        values = memoryview(raw).cast("q").tolist()
        counts: list[ItemCounts] = [tuple(values[k : k + 9]) for k in range(0, len(values), 9)]  # type: ignore[misc]
        return counts, epsilon

    def pair_swap_trials(
        self,
        vectors: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
        pairs: Sequence[tuple[int, int]],
        kind: str,
        threshold: float,
        draws: Draws,
    ) -> list[tuple[int, list[int]] | None]:
        kernel = self.module
        systems, items = len(human), _items(human)
        cells = systems * (items or 0)
        if kind not in SWAP_KINDS or draws.n != cells or not _fits(vectors, cells, pairs):
            # the reference refuses what is not one shape, and draws bits
            # for cells the kernel does not have
            return super().pair_swap_trials(vectors, human, pairs, kind, threshold, draws)
        extra: tuple[array[int], ...] = ()
        if kind == "acc_eq" and _unrated(human):
            # items of other pair counts: each pair weighs its item's weight
            weights = item_weights(human)
            if max(weights, default=0) >= 2**30:
                return super().pair_swap_trials(vectors, human, pairs, kind, threshold, draws)
            extra = (array("i", weights),)
        flat, flat_h = _flat(vectors), _flat(human)
        # threads take ranges of the pairs, each drawing the trials' bits
        parts = max(1, min(workers(), len(pairs)))
        bounds = list(itertools.pairwise([len(pairs) * p // parts for p in range(parts + 1)]))

        def part(lo_hi: tuple[int, int]) -> tuple[bytes, bytes, int]:
            lo, hi = lo_hi
            chosen = array("i", itertools.chain.from_iterable(pairs[lo:hi]))
            raw: tuple[bytes, bytes, int] = kernel.pair_swap_trials(
                draws.state, flat, flat_h, chosen, systems, items, SWAP_KINDS.index(kind),
                threshold, draws.count, *extra,
            )  # fmt: skip
            return raw

        trials: list[tuple[int, list[int]] | None] = []
        n = draws.count
        for (lo, hi), (sums, observed, counted) in zip(bounds, ordered_map(part, bounds, parts)):
            if counted < 0:
                # trials past int64: the reference's ints
                return super().pair_swap_trials(vectors, human, pairs, kind, threshold, draws)
            each, base = memoryview(sums).cast("q"), memoryview(observed).cast("q")
            trials.extend((base[q], each[q * n : (q + 1) * n].tolist()) if counted else None
                          for q in range(hi - lo))  # fmt: skip
        return trials

    def calibrated_swap_sums(
        self,
        draws: Draws,
        za: Sequence[Sequence[float]],
        zb: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
    ) -> list[int]:
        kernel = self.module
        items = _items(za, zb, human)
        pairs = items * (len(za) * (len(za) - 1) // 2) if items else 0
        weights = item_weights(human) if items else []
        too_many = pairs >= _CALIBRATED_MAX_PAIRS or max(weights, default=0) * pairs >= 2**62
        if items is None or draws.n != len(za) * items or too_many:
            # the reference refuses matrices of two shapes and draws of
            # another size, and counts past int64
            return super().calibrated_swap_sums(draws, za, zb, human)
        flat: list[array[Any]] = [_flat(m) for m in (za, zb, human)]
        flat.append(array("q", weights))
        # threads take ranges of the trials, each drawing and passing over
        # the trials before its own (the draws are one sequence)
        parts = max(1, min(workers(), draws.count // 64))
        bounds = [draws.count * p // parts for p in range(parts + 1)]

        def part(lo_hi: tuple[int, int]) -> list[int]:
            lo, hi = lo_hi
            raw = kernel.calibrated_swap_sums(draws.state, *flat, len(za), items, lo, hi - lo)
            return memoryview(raw).cast("q").tolist()

        chunks = ordered_map(part, list(itertools.pairwise(bounds)), parts)
        return [x for chunk in chunks for x in chunk]

    def pair_disagreements(
        self,
        a: Sequence[float],
        b: Sequence[float],
        human: Sequence[float],
        epsilon_a: float,
        epsilon_b: float,
    ) -> tuple[int, int]:
        kernel = self.module
        if not len(a) == len(b) == len(human):
            # the reference refuses vectors of two lengths
            return super().pair_disagreements(a, b, human, epsilon_a, epsilon_b)
        vectors = [array("d", v) for v in (a, b, human)]
        parts = max(1, min(workers(), len(human) // 1024))
        bounds = _row_bounds(len(human), parts)

        def part(lo_hi: tuple[int, int]) -> tuple[int, int]:
            counts: tuple[int, int] = kernel.pair_disagreements(*vectors, epsilon_a, epsilon_b,
                                                                *lo_hi)  # fmt: skip
            return counts

        counts = list(ordered_map(part, list(itertools.pairwise(bounds)), parts))
        return sum(c[0] for c in counts), sum(c[1] for c in counts)


def meta_kernels(engine: Engine) -> MetaKernels:
    """The kernels of a study whose variants count on ``engine``: the
    reference beside the reference engine (``python``), else the compiled
    kernels where they are built, else the reference; an error where
    ``BLEUKIT_ENGINE=c`` asked for compiled code and they are not built."""
    if engine.name == "python":
        return MetaKernels(engine)
    module = compiled_module()
    if module is not None:
        return CompiledMetaKernels(engine, module)
    if requested_engine() == "c":
        raise MissingDependencyError(
            "BLEUKIT_ENGINE=c: bleukit.meta._kernels is not built (install bleukit where a C "
            "compiler is available, or a wheel that has it)"
        )
    return MetaKernels(engine)
