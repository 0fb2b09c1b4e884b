"""bleukit.meta.kernels: the compiled meta-evaluation kernels
(bleukit.meta._kernels) against the Python reference (MetaKernels), on
random input, bit for bit; the refusals both share; the choice of kernels."""

from __future__ import annotations

import ast
import itertools
import math
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleukit.core.errors import InputError, MissingDependencyError
from bleukit.core.resampling import Draws
from bleukit.engines import ENGINES
from bleukit.meta import kernels
from bleukit.meta.kernels import CompiledMetaKernels, MetaKernels, meta_kernels

COMPILED = kernels.compiled_module()
needs_accel = pytest.mark.skipif(
    COMPILED is None and not os.environ.get("BLEUKIT_REQUIRE_ACCEL"),
    reason="bleukit.meta._kernels is not built (no C compiler at install time)",
)
EXAMPLES = int(os.environ.get("BLEUKIT_EXAMPLES", 300))
PY = MetaKernels(ENGINES.get("python"))
C = CompiledMetaKernels(ENGINES.get("c"), COMPILED) if COMPILED is not None else PY
#: every kernel this build has, by name
AVAILABLE_ENGINES = [e.name for e in ENGINES.entries() if e.component.unavailable() is None]
KERNELS = {"python": PY, **({"c": C} if COMPILED is not None else {})}


def test_the_kernels_follow_the_engine(monkeypatch):
    """Chosen in one place: the reference beside the reference engine, the
    compiled kernels beside any other where they are built."""
    assert type(meta_kernels(ENGINES.get("python"))) is MetaKernels
    if COMPILED is not None:
        assert type(meta_kernels(ENGINES.get("c"))) is CompiledMetaKernels
    monkeypatch.setattr(kernels, "compiled_module", lambda: None)
    assert type(meta_kernels(ENGINES.get("c"))) is MetaKernels
    monkeypatch.setenv("BLEUKIT_ENGINE", "c")
    with pytest.raises(MissingDependencyError, match="bleukit.meta._kernels is not built"):
        meta_kernels(ENGINES.get("c"))


@needs_accel
def test_the_type_stub_names_every_function():
    """bleukit/meta/_kernels.pyi types what bleukit.meta._kernels defines."""
    stub = ast.parse(Path(kernels.__file__).with_name("_kernels.pyi").read_text())
    typed = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    assert typed == {name for name in dir(COMPILED) if not name.startswith("_")}


@needs_accel
@settings(max_examples=100, deadline=None)
@given(st.integers(1, 700), st.integers(0, 6), st.integers(0, 2**32) | st.none())
def test_compiled_bootstrap_resamples_are_pythons_choices(n, count, seed):
    """The study's resamples drawn in C: random.choices(range(n), k=n) per
    resample, the draws running on across resamples and past a block of 512."""
    draws = Draws.from_seed(n, count, seed)
    compiled, reference = C.bootstrap_resamples(draws), PY.bootstrap_resamples(draws)
    assert (compiled.per, len(compiled)) == (reference.per, len(reference))
    assert compiled.positions.tolist() == reference.positions.tolist()


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(1, 6), st.integers(1, 12), st.integers(1, 4),
       st.sampled_from(["darr", "acc_eq"]), st.sampled_from([0.0, 0.5, 25.0]),
       st.integers(0, 2**32) | st.none(), st.data())  # fmt: skip
def test_compiled_pair_swap_trials_equal_the_reference(systems, items, vectors, kind, threshold,
                                                       seed, data):  # fmt: skip
    """PERM-BOTH's item-grouped trials in C (each pair of vectors a weight
    per cell, every pair's sums over each trial's bits drawn once) are the
    reference's pair tables summed trial by trial: the same bits of
    getrandbits(cells), cells below, at and above a 32-bit word; unrated
    (NaN) human cells leaving their pairs out and weighing acc_eq's items;
    pairs of a vector with itself; none counted (NaN's test)."""
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.25, 30.0, 0.30000000000000004])
    human_cell = st.sampled_from([0.0, 1.0, 5.0, 30.0, math.nan])
    z = [data.draw(st.lists(cell, min_size=systems * items, max_size=systems * items))
         for _ in range(vectors)]  # fmt: skip
    human = [data.draw(st.lists(human_cell, min_size=items, max_size=items))
             for _ in range(systems)]  # fmt: skip
    pair = st.tuples(st.integers(0, vectors - 1), st.integers(0, vectors - 1))
    pairs = data.draw(st.lists(pair, max_size=5))
    draws = Draws.from_seed(systems * items, data.draw(st.integers(0, 30)), seed)
    expected = PY.pair_swap_trials(z, human, pairs, kind, threshold, draws)
    assert C.pair_swap_trials(z, human, pairs, kind, threshold, draws) == expected


def test_pair_swap_trials_by_hand():
    """One item of two systems, acc_eq: b agrees where a does not (+1 with
    no swap); swapping either cell alone exchanges the mixed differences,
    both exchange a and b (-1)."""
    from bleukit.meta.pairs import _agrees

    human = [[1.0], [0.0]]
    za, zb = [0.0, 1.0], [1.0, 0.0]  # a's pair discordant, b's concordant
    draws = Draws.from_seed(2, 6, 3)
    rng = draws.rng()
    bits = [rng.getrandbits(2) for _ in range(6)]
    mixed = int(_agrees(zb[0] - za[1], 1.0)) - int(_agrees(za[0] - zb[1], 1.0))
    table = [1, mixed, -mixed, -1]
    expected = [table[2 * (b & 1) + (b >> 1 & 1)] for b in bits]
    for engine in KERNELS.values():
        assert engine.pair_swap_trials([za, zb], human, [(0, 1)], "acc_eq", 0.0, draws) == [
            (1, expected)
        ]
        # no pair of cells the humans do not tie: nothing to test
        tied = [[1.0], [1.0]]
        assert engine.pair_swap_trials([za, zb], tied, [(0, 1)], "darr", 0.0, draws) == [None]


@needs_accel
@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=80),
    st.integers(0, 30),
    st.integers(0, 2**32) | st.none(),
)
def test_compiled_signed_trials_equal_the_reference(weights, trials, seed):
    """PERM-BOTH's signed sums of cell weights (MetaKernels.signed_trials) in
    C: the same trials as approximate randomization's sums of the weights'
    two parts, for cells below, at and above a 32-bit word."""
    draws = Draws.from_seed(len(weights), trials, seed)
    assert C.signed_trials(weights, draws) == PY.signed_trials(weights, draws)


@needs_accel
@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 8),
    st.lists(
        st.integers(0, 3) | st.integers(0, 2**16 - 1) | st.integers(0, 2**32 - 1),
        min_size=1,
        max_size=120,
    ),
    st.integers(0, 20),
    st.integers(0, 2**32),
)
def test_compiled_split_sums_equal_the_engines(width, values, trials, seed):
    """A system's selected and other rows' sums per randomization trial
    (MetaKernels.split_sums: tables of 4 rows' sums in C, fields of small
    totals packed into one int64 lane) are the engines' (approximate
    randomization of the rows against zeros), on uint16 and uint32 rows,
    fields of zeros, for row counts below, at and above a 32-bit word."""
    from bleukit.core.resampling import Columns

    rows = [tuple(values[k : k + width]) for k in range(0, len(values) - width + 1, width)]
    if not rows:
        return
    cols = Columns(rows, kernels._Weights())
    draws = Draws.from_seed(len(rows), trials, seed)
    for engine in AVAILABLE_ENGINES:
        expected = [list(x) for x in ENGINES.get(engine).split_sums(cols, draws)]
        assert [list(x) for x in C.split_sums(cols, draws)] == expected


def test_signed_trials_by_hand():
    """A cell keeps its weight where its bit is set (cell j: bit n-1-j, as
    approximate randomization reads getrandbits), else the weight negated."""
    weights = [5, -7, 11]
    draws = Draws.from_seed(3, 6, 3)
    rng = draws.rng()
    bits = [rng.getrandbits(3) for _ in range(6)]
    expected = [sum(w if b >> (2 - j) & 1 else -w for j, w in enumerate(weights)) for b in bits]
    for engine in KERNELS:
        assert KERNELS[engine].signed_trials(weights, draws) == expected
        with pytest.raises(InputError, match="no segments"):
            KERNELS[engine].signed_trials([], draws)


@needs_accel
def test_compiled_signed_trials_refuse_bad_calls_and_sum_many_vectors():
    from array import array

    from bleukit.meta import _kernels

    draws = Draws.from_seed(3, 4, 1)
    a, b = [1, 2, -3], [-4, 0, 9]
    both = _kernels.signed_trials(draws.state, 3, array("q", a + b), 4)
    assert memoryview(both).cast("q").tolist() == C.signed_trials(a, draws) + C.signed_trials(
        b, draws
    )
    expected = [PY.signed_trials(a, draws), PY.signed_trials(b, draws)]
    assert C.batch_signed_trials([a, b], draws) == PY.batch_signed_trials([a, b], draws) == expected
    # vectors of two lengths, and weights past the kernel's integers: one at a time
    assert C.batch_signed_trials([a, [1, 2]], draws) == [
        expected[0],
        PY.signed_trials([1, 2], draws),
    ]
    huge = [2**62, -(2**62), 1]
    assert C.batch_signed_trials([huge], draws) == [PY.signed_trials(huge, draws)]
    # int64 buffers (a kernel's views) are joined as bytes
    views = [memoryview(array("q", a)), array("q", b)]
    assert C.batch_signed_trials(views, draws) == expected
    with pytest.raises(ValueError, match="signed_trials"):
        _kernels.signed_trials(draws.state, 2, array("q", a), 4)
    with pytest.raises(ValueError, match="selected_sums"):
        _kernels.selected_sums(draws.state, array("d", [1.0, 2.0]), 1, 4)
    with pytest.raises(ValueError, match="selected_sums"):
        _kernels.selected_sums(draws.state, array("H", [1, 2, 3]), 2, 4)
    two = array("d", [1.0, 2.0])
    with pytest.raises(ValueError, match="outside 0..0"):
        _kernels.pair_cell_weights(two, two, array("i", [0, 1]), 0)
    with pytest.raises(ValueError, match="pair_cell_weights"):
        _kernels.pair_cell_weights(array("d", [1.0]), two, array("i", [0, 0]), 0)
    with pytest.raises(ValueError, match="kind 0, 1 or 2"):
        _kernels.pair_cell_weights(two, two, array("i", [0, 0]), 3)
    # pair_swap_trials: two vectors of one system x two items
    state, pairs = Draws.from_seed(2, 4, 1).state, array("i", [0, 2])
    with pytest.raises(ValueError, match="pair_swap_trials: pair 0 names a vector outside 0..1"):
        _kernels.pair_swap_trials(state, two + two, two, pairs, 1, 2, 1, 0.0, 4)
    with pytest.raises(ValueError, match="pair_swap_trials: vectors"):
        _kernels.pair_swap_trials(state, two + two, two, array("i", [0, 1]), 1, 2, 2, 0.0, 4)
    with pytest.raises(OverflowError, match="2\\*\\*62"):
        _kernels.signed_trials(draws.state, 2, array("q", [2**61, 2**61]), 4)
    # past the kernel's integers, the reference's sums
    huge = [2**62, -(2**62), 1]
    assert C.signed_trials(huge, draws) == PY.signed_trials(huge, draws)


@needs_accel
@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(0, 4), st.integers(1, 40), st.integers(0, 6), st.data())
def test_compiled_gathered_sums_equal_the_reference(cells, vectors, per, resamples, data):
    """Each resample's sums of each vector at its positions (repeats
    counted), in C as in the reference, and the reference's where a sum
    could pass int64 or a position is outside the vectors."""
    value = st.integers(-(2**31), 2**31) | st.sampled_from([2**62, -(2**63)])
    values = [data.draw(st.lists(value, min_size=cells, max_size=cells)) for _ in range(vectors)]
    position = st.integers(0, cells - 1) | st.sampled_from([-1, cells])
    indices = data.draw(st.lists(position, min_size=per * resamples, max_size=per * resamples))
    try:
        expected = PY.gathered_sums(values, indices, per)
    except IndexError:
        with pytest.raises(IndexError):
            C.gathered_sums(values, indices, per)
        return
    assert C.gathered_sums(values, indices, per) == expected


def test_gathered_sums_by_hand_and_refusals():
    for kind in KERNELS.values():
        assert kind.gathered_sums([[1, 10, 100], [0, -1, 5]], [0, 0, 2, 1, 2, 2], 3) == [
            [102, 5],
            [210, 9],
        ]
        with pytest.raises(InputError, match="not resamples of 4"):
            kind.gathered_sums([[1, 2]], [0, 1, 1], 4)


def test_pair_swap_sums_by_hand_and_refusals():
    from bleukit.meta.pairs import pair_swap_sums

    draws = Draws.from_seed(3, 4, 7)
    rng = draws.rng()
    bits = [rng.getrandbits(3) for _ in range(4)]
    # one pair of cells 0 and 2: the table entry of (bit 0, bit 2)
    table = [10, 20, 30, 40]
    expected = [table[2 * (b & 1) + ((b >> 2) & 1)] for b in bits]
    assert pair_swap_sums(draws, [0], [2], table) == expected
    with pytest.raises(InputError, match="outside 0..2"):
        pair_swap_sums(draws, [0], [3], table)
    with pytest.raises(InputError, match="four entries a pair"):
        pair_swap_sums(draws, [0], [1], [1, 2])


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 6), st.integers(0, 9), st.sampled_from([0.0, 1.0, 25.0]), st.data())
def test_compiled_item_pairs_equal_the_reference(systems, items, threshold, data):
    """Every count and the calibrated epsilon of MetaKernels.item_pairs in C
    are the reference's (meta.pairs.item_pairs), ties and exact float
    comparisons included; any float too, as the C sweep sorts the
    differences by their bits."""
    from bleukit.meta.pairs import item_pairs

    few = st.sampled_from([0.0, 0.1, 0.2, 0.30000000000000004, 1.0, 2.5, 30.0, -1.0])
    cell = st.one_of(few, st.floats(-1e300, 1e300, allow_nan=False))
    metric = [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
    human = [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
    assert C.item_pairs(metric, human, threshold) == item_pairs(metric, human, threshold)
    # the sweep sorting its events in parts (the smallest ``first``, then
    # the rest where it goes on) counts what sorting them all at once does
    flat = [_flat(m, systems * items) for m in (metric, human)]
    whole = COMPILED.item_pairs(*flat, systems, items, threshold)
    first = data.draw(st.integers(1, 4))
    assert COMPILED.item_pairs(*flat, systems, items, threshold, first) == whole


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 60), st.booleans(), st.sampled_from([1, 3, 50, 1 << 22]), st.data())
def test_compiled_pooled_calibration_equals_the_reference(n, few, collect, data):
    """Tie calibration with no grouping in C (counted by leading bits,
    never holding every pair) is the reference's: the same epsilon, the
    same agreeing pairs, on ties, close values and any float. A small
    ``collect`` (the events one range may hold) makes it split ranges by
    their next bits down to single differences, as millions of pairs do;
    -0.0 beside 0.0 ties (their difference was once read as -0.0's bits)."""
    from array import array

    from bleukit.meta import _kernels

    cells = (st.sampled_from([0.0, -0.0, 0.1, 0.2, 0.30000000000000004, 1.0, 2.5, -1.0]) if few
             else st.floats(-1e300, 1e300, allow_nan=False))  # fmt: skip
    metric = data.draw(st.lists(cells, min_size=n, max_size=n))
    human = data.draw(st.lists(st.sampled_from([0.0, 1.0, 5.0, 25.0]), min_size=n, max_size=n))
    expected = PY.pooled_calibration(metric, human)
    first = data.draw(st.sampled_from([1, 2, 7, 4096]))
    assert _kernels.pooled_calibration(array("d", metric), array("d", human), collect,
                                       first) == expected  # fmt: skip
    assert C.pooled_calibration(metric, human) == expected


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(1, 5), st.integers(1, 8), st.sampled_from([0, 1, 2, 17, 32, 33, 40]),
       st.booleans(), st.sampled_from([0.0, 0.0, 0.2, 0.5, 0.30000000000000004, 3.0]),
       st.data())  # fmt: skip
def test_compiled_resampled_pair_counts_equal_the_reference(systems, items, draws, by, eps, data):
    """The pair counts of bootstrap resamples in C (each group sorted once,
    the resamples as weights, thirty-two or eight at a time: counts of one,
    a pass's and more resamples; at epsilon 0 from runs of equal scores) are
    the reference's recount of the repeated scores, ties within epsilon and
    self-pairs of repeated items included, unrated (NaN) cells left out; as
    rows, ``Pairs``' fields in order."""
    cell = st.sampled_from([0.0, -0.0, 0.5, 1.0, 2.5, -1.0, 0.30000000000000004, float("nan")])
    metric = [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
    human = [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
    row = st.lists(st.integers(0, items - 1), min_size=items, max_size=items)
    indices = [data.draw(row) for _ in range(draws)]
    expected = PY.resampled_pair_counts(metric, human, indices, by, eps)
    assert C.resampled_pair_counts(metric, human, indices, by, eps) == expected
    rows = [[(p.con, p.dis, p.tie_metric, p.tie_human, p.tie_both) for p in g] for g in expected]
    assert C.resampled_pair_rows(metric, human, indices, by, eps) == rows
    assert PY.resampled_pair_rows(metric, human, indices, by, eps) == rows


@needs_accel
@pytest.mark.parametrize("items", [65_535, 65_536])
def test_compiled_resampled_pair_counts_at_the_edge_of_16_bit_lanes(items):
    """A group of fewer than 65,536 cells is counted in 16-bit lanes with
    32-bit sums; from 65,536 in 32-bit lanes with 64-bit sums. At the edge,
    one item drawn every time weighs the whole resample, the largest run,
    tree node and sum of squares there can be, and the counts are still the
    reference's."""
    rng = random.Random(items)
    metric = [[rng.choice([0.0, 0.5, 1.0]) for _ in range(items)]]
    human = [[rng.random() for _ in range(items)]]
    # one system: grouped by system or not, the one group is the same
    indices = [[7] * items, list(range(items))]
    expected = PY.resampled_pair_counts(metric, human, indices, False)
    assert C.resampled_pair_counts(metric, human, indices, False) == expected


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 30), st.sampled_from(["darr", "acc_eq"]), st.data())
def test_compiled_cell_weights_equal_the_reference(n, kind, data):
    """PERM-BOTH's cell weights in C (dominance counts with a Fenwick tree,
    O(n log n)) are the reference's sums over every pair, ties included."""
    cell = st.one_of(st.sampled_from([0.0, 0.5, 1.0, -1.0]), st.floats(-5, 5))
    x, y = (data.draw(st.lists(cell, min_size=n, max_size=n)) for _ in range(2))
    human = data.draw(st.lists(st.sampled_from([0.0, 1.0, 5.0]), min_size=n, max_size=n))
    expected = PY.cell_weights(x, y, human, kind)
    assert C.cell_weights(x, y, human, kind) == expected
    # unrated (NaN) human cells: weight 0, the rest those of the rated cells
    unrated = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    human = [math.nan if u else h for h, u in zip(human, unrated)]
    expected = PY.rated_cell_weights(x, y, human, kind)
    assert C.rated_cell_weights(x, y, human, kind) == expected
    kept = [k for k in range(n) if not unrated[k]]
    own = PY.cell_weights(*([v[k] for k in kept] for v in (x, y, human)), kind)
    assert [expected[k] for k in kept] == own
    assert not any(expected[k] for k in range(n) if unrated[k])


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(1, 20), st.integers(1, 4), st.sampled_from(["darr", "acc_eq"]), st.data())
def test_compiled_pair_cell_weights_equal_the_reference(n, vectors, kind, data):
    """Many pairs' cell weights in one call (the humans ranked and each
    vector sorted once) are each pair's own, unrated cells 0."""
    cell = st.one_of(st.sampled_from([0.0, 0.5, 1.0, -1.0]), st.floats(-5, 5))
    z = [data.draw(st.lists(cell, min_size=n, max_size=n)) for _ in range(vectors)]
    human = data.draw(st.lists(st.sampled_from([0.0, 1.0, 5.0, math.nan]), min_size=n, max_size=n))
    pair = st.tuples(st.integers(0, vectors - 1), st.integers(0, vectors - 1))
    pairs = data.draw(st.lists(pair, max_size=6))
    expected = [PY.rated_cell_weights(z[x], z[y], human, kind) for x, y in pairs]
    assert PY.pair_cell_weights(z, human, pairs, kind) == expected
    assert [list(w) for w in C.pair_cell_weights(z, human, pairs, kind)] == expected
    # both kinds from the same passes (the kernel's kind 2): each kind's own
    both = C.pair_cell_weights_both(z, human, pairs)
    assert [list(w) for w in both[kind]] == expected
    assert {k: [list(w) for w in v] for k, v in both.items()} == PY.pair_cell_weights_both(
        z, human, pairs
    )


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 5), st.integers(0, 6), st.integers(0, 200), st.integers(0, 9), st.data())
def test_compiled_calibrated_swap_sums_equal_the_reference(systems, items, trials, seed, data):
    """PERM-BOTH with tie calibration in every trial in C (the candidate
    differences' events sorted once, swept per trial) is the reference's
    calibration of each trial's swapped scores, trial for trial, in the
    threads' ranges of trials too; any float included."""
    from bleukit.meta.pairs import calibrated_swap_sums

    few = st.sampled_from([0.0, 0.5, 1.0, -1.25, 0.30000000000000004, 2.0])
    cell = st.one_of(few, st.floats(-1e300, 1e300, allow_nan=False))
    za, zb = (
        [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
        for _ in range(2)
    )
    human = [data.draw(st.lists(few, min_size=items, max_size=items)) for _ in range(systems)]
    draws = Draws.from_seed(systems * items, trials, seed)
    expected = calibrated_swap_sums(draws, za, zb, human)
    assert C.calibrated_swap_sums(draws, za, zb, human) == expected
    # the events sorted in parts: the smallest ``first``, all where a
    # trial's sweep goes past them
    first = data.draw(st.integers(1, 5))
    assert _calibrated_in_parts(draws, za, zb, human, first) == expected


def _flat(matrix, cells):
    from array import array

    flat = array("d", [x for row in matrix for x in row])
    assert len(flat) == cells
    return flat


def _calibrated_in_parts(draws, za, zb, human, first):
    """The compiled calibrated trials, their events sorted ``first`` at a
    time (the kernel's argument; MetaKernels uses the default)."""
    from array import array

    from bleukit.meta.pairs import item_weights

    systems, items = len(za), len(za[0]) if za else 0
    flat = [_flat(m, systems * items) for m in (za, zb, human)]
    weights = array("q", item_weights(human) if items else [])
    raw = COMPILED.calibrated_swap_sums(draws.state, *flat, weights, systems, items, 0,
                                        draws.count, first)  # fmt: skip
    return memoryview(raw).cast("q").tolist()


@needs_accel
@pytest.mark.parametrize("ties", [0.0, 0.3, 0.9])
def test_compiled_calibrated_swaps_stop_early_with_the_same_counts(ties):
    """With few human ties the C sweep stops once neither side can pass its
    best (after 64 events at the earliest): larger matrices, where it does,
    give the reference's trials all the same, whether the sweep stops within
    the first events sorted or goes on (all sorted, the trial swept again)."""
    import random

    from bleukit.meta.pairs import calibrated_swap_sums

    rng = random.Random(7)
    za = [[rng.random() for _ in range(30)] for _ in range(6)]
    zb = [[x + rng.random() / 3 for x in row] for row in za]
    human = [[0.0 if rng.random() < ties else x + rng.gauss(0, 0.3) for x in row] for row in za]
    draws = Draws.from_seed(180, 25, 3)
    expected = calibrated_swap_sums(draws, za, zb, human)
    assert C.calibrated_swap_sums(draws, za, zb, human) == expected
    for first in (64, 200):
        assert _calibrated_in_parts(draws, za, zb, human, first) == expected


@needs_accel
def test_item_pairs_sort_many_events_in_parts():
    """87,990 pairs of one item, most of them events (a quarter human ties,
    the rest mostly concordant): the sweep sorts the smallest events, goes
    past them and sorts the rest by 16-bit digits (8-bit ones below 65,536
    events); the counts and epsilon are the reference's."""
    from bleukit.meta.pairs import item_pairs

    rng = random.Random(11)
    human = [[float(rng.randrange(4))] for _ in range(420)]
    metric = [[row[0] + rng.choice([0.0, 0.5]) + rng.random() / 8] for row in human]
    assert C.item_pairs(metric, human, 0.0) == item_pairs(metric, human, 0.0)


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(0, 40), st.data())
def test_compiled_pair_disagreements_equal_the_reference(n, data):
    """The pairs where two variants' acc_eq outcomes differ, each at its
    epsilon, counted in C over row ranges are the reference's, an epsilon
    that is a pair's own difference included."""
    from array import array

    from bleukit.meta import _kernels

    cell = st.sampled_from([0.0, 0.1, 0.2, 0.30000000000000004, 1.0, 2.5, -1.0])
    a, b = (data.draw(st.lists(cell, min_size=n, max_size=n)) for _ in range(2))
    human = data.draw(st.lists(st.sampled_from([0.0, 1.0, 5.0]), min_size=n, max_size=n))
    eps_a, eps_b = (data.draw(st.sampled_from([0.0, 0.1, 0.30000000000000004, 1.5]))
                    for _ in range(2))  # fmt: skip
    expected = PY.pair_disagreements(a, b, human, eps_a, eps_b)
    assert C.pair_disagreements(a, b, human, eps_a, eps_b) == expected
    cut = data.draw(st.integers(0, n))
    vectors = [array("d", v) for v in (a, b, human)]
    parts = [_kernels.pair_disagreements(*vectors, eps_a, eps_b, lo, hi)
             for lo, hi in ((0, cut), (cut, n))]  # fmt: skip
    assert tuple(map(sum, zip(*parts))) == expected


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.data())
def test_unrated_cells_take_the_reference_path(systems, items, data):
    """Where cells are NaN (not rated) the C engine gives what the
    reference gives, which leaves those cells out and weighs items of other
    pair counts: item pairs, item-grouped trials (weighed), calibrated
    trials and resampled counts."""
    nan = float("nan")
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0])
    za, zb, human = (
        [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
        for _ in range(3)
    )
    offs = data.draw(st.lists(st.integers(0, systems * items - 1), min_size=1, max_size=6))
    for off in offs:
        for m in (za, zb, human):
            m[off // items][off % items] = nan
    c, py = C, PY
    assert c.item_pairs(za, human, 0.0) == py.item_pairs(za, human, 0.0)
    draws = Draws.from_seed(systems * items, 20, 1)
    flat = [[x for row in m for x in row] for m in (za, zb)]
    assert c.pair_swap_trials(flat, human, [(0, 1)], "acc_eq", 0.0, draws) == (
        py.pair_swap_trials(flat, human, [(0, 1)], "acc_eq", 0.0, draws)
    )
    assert c.calibrated_swap_sums(draws, za, zb, human) == py.calibrated_swap_sums(
        draws, za, zb, human
    )
    indices = [[0] * items, list(range(items))]
    for by in (False, True):
        assert c.resampled_pair_counts(za, human, indices, by) == py.resampled_pair_counts(
            za, human, indices, by
        )


def test_compiled_row_bounds_split_the_pairs_evenly():
    from bleukit.meta.kernels import _row_bounds

    for n, parts in ((0, 1), (1, 2), (10, 3), (1000, 4)):
        bounds = _row_bounds(n, parts)
        assert bounds[0] == 0 and bounds[-1] == n and bounds == sorted(bounds)
        assert len(bounds) == parts + 1
    pairs = [sum(1000 - 1 - i for i in range(lo, hi))
             for lo, hi in itertools.pairwise(_row_bounds(1000, 4))]  # fmt: skip
    assert max(pairs) - min(pairs) < 1000


@needs_accel
def test_calibration_kernels_refuse_bad_calls():
    from array import array

    from bleukit.meta import _kernels

    state = Draws.from_seed(2, 1, 0).state
    two = array("d", [1.0, 2.0])
    with pytest.raises(ValueError, match="calibrated_swap_sums"):
        _kernels.calibrated_swap_sums(
            state, two, two, array("d", [1.0]), array("q", [1, 1]), 1, 2, 0, 1
        )
    with pytest.raises(ValueError, match="pair_disagreements"):
        _kernels.pair_disagreements(two, two, two, 0.0, 0.0, 1, 3)


@needs_accel
def test_item_pairs_weigh_unrated_items_as_item_weights_does():
    """The kernel weighs items of other pair counts (NaN cells) as
    pairs.item_weights would; past 2^62 pairs of weight it refuses, and
    MetaKernels.item_pairs counts with the reference."""
    from array import array

    from bleukit.meta import _kernels
    from bleukit.meta.pairs import item_pairs

    nan = float("nan")
    metric = [[nan, 1.0, 2.0, 0.5], [3.0, 1.0, nan, 0.25], [1.0, 2.0, 0.0, 0.5]]
    human = [[1.0, nan, 2.0, 1.0], [0.0, 1.0, 1.0, 2.0], [2.0, 0.0, 1.0, 1.0]]
    assert C.item_pairs(metric, human, 0.0) == item_pairs(metric, human, 0.0)
    # item j rated for j + 2 of 40 systems: the pair counts' least common
    # multiple passes what the kernel's sweep sums exactly
    systems, items = 40, 39
    metric = [[float(s * j % 7) if s < j + 2 else nan for j in range(items)]
              for s in range(systems)]  # fmt: skip
    human = [[float((s + j) % 5) for j in range(items)] for s in range(systems)]
    flat = [array("d", [x for row in m for x in row]) for m in (metric, human)]
    with pytest.raises(OverflowError, match="2\\^62"):
        _kernels.item_pairs(*flat, systems, items, 0.0)
    assert C.item_pairs(metric, human, 0.0) == item_pairs(metric, human, 0.0)


def test_resampled_pair_counts_refuse_matrices_of_two_shapes():
    for engine in KERNELS:
        with pytest.raises(InputError, match="matrices of one shape"):
            KERNELS[engine].resampled_pair_counts([[1.0, 2.0]], [[1.0]], [[0, 0]], True)


def test_item_pairs_refuse_matrices_of_two_shapes():
    for engine in KERNELS:
        with pytest.raises(InputError, match="matrices of one shape"):
            KERNELS[engine].item_pairs([[1.0, 2.0]], [[1.0]], 0.0)


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data())
def test_compiled_pair_counts_equal_the_reference(data):
    """MetaKernels.pair_counts in C classifies every pair as the reference
    (meta.pairs.pair_counts) does: ties, -0.0 and 0.0, runs of equals."""
    from bleukit.meta.pairs import pair_counts, rated

    n = data.draw(st.integers(0, 60))
    cell = st.sampled_from([0.0, -0.0, 0.5, 1.0, -1.0, 2.5, 1e300, -3.25])
    metric = data.draw(st.lists(cell, min_size=n, max_size=n))
    human = data.draw(st.lists(cell, min_size=n, max_size=n))
    assert C.pair_counts(metric, human) == pair_counts(metric, human)
    # an unrated (NaN) score on either side: its pairs left out, as
    # meta.pairs.rated leaves them
    nan = float("nan")
    unrated = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    sides = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    metric = [nan if u and s else x for x, u, s in zip(metric, unrated, sides)]
    human = [nan if u and not s else x for x, u, s in zip(human, unrated, sides)]
    assert C.rated_pair_counts(metric, human) == PY.rated_pair_counts(metric, human)
    assert PY.rated_pair_counts(metric, human) == pair_counts(*rated(metric, human))
    # a NaN not left out has no place in the kernel's order: the reference's
    assert C.pair_counts(metric, human) == pair_counts(metric, human)


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data(), st.sampled_from(["none", "system", "item"]))
def test_compiled_grouped_pair_counts_equal_the_reference(data, by):
    """Every group's rated pair counts in one kernel call, as the reference
    counts each group's (``rated_pair_counts`` of ``statistics.groups``):
    NaN cells (unrated) left out, -0.0 and 0.0 one key, runs of equals."""
    from bleukit.meta.statistics import groups

    systems, items = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 12))
    cell = st.sampled_from([0.0, -0.0, 0.5, 1.0, -1.0, 2.5, 1e300, -3.25, float("nan")])
    metric, human = (
        data.draw(st.lists(st.lists(cell, min_size=items, max_size=items),
                           min_size=systems, max_size=systems))
        for _ in range(2)
    )  # fmt: skip
    expected = [pair_counts_of(m, h) for m, h in groups(metric, human, by)]
    assert C.grouped_pair_counts(metric, human, by) == expected
    assert PY.grouped_pair_counts(metric, human, by) == expected


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data(), st.sampled_from(["none", "system"]))
def test_compiled_grouped_pair_counts_of_many_distinct_scores(data, by):
    """Scores of every magnitude and sign, few of them tied (a grid's are
    mostly distinct), through the humans' order made once
    (``human_order``) and every byte of the radix sort's keys: the
    reference's counts, for two metrics against the same humans."""
    from bleukit.meta.statistics import groups

    systems, items = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 80))
    number = st.floats(allow_nan=False, allow_infinity=False, width=64)
    pool = data.draw(st.lists(number, min_size=1, max_size=systems * items))
    cell = st.one_of(st.sampled_from(pool), number)
    human = [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
    for _ in range(2):
        metric = [data.draw(st.lists(cell, min_size=items, max_size=items))
                  for _ in range(systems)]  # fmt: skip
        expected = [pair_counts_of(m, h) for m, h in groups(metric, human, by)]
        assert C.grouped_pair_counts(metric, human, by) == expected


@needs_accel
def test_group_pair_counts_refuse_an_order_not_made_for_them():
    """The kernel reads positions from the humans' order: one of another
    length, or with a position outside its group, is a ValueError, not a
    read past the scores."""
    from array import array

    from bleukit.meta import _kernels

    metric = array("d", [0.5, 1.0, 2.0, 3.0]).tobytes()
    order = _kernels.human_order(array("d", [1.0, 0.0, 2.0, float("nan")]), 2)
    assert memoryview(order).cast("i").tolist() == [1, 0, 2, -1, 0, 1, 0, -1, 2, 1]
    assert _kernels.group_pair_counts(metric, order, 2)
    bad = array("i", [1, 2, 2, -1, 0, 1, 0, -1, 2, 1])  # position 2 is group 1's
    for wrong, groups in ((order[:-4], 2), (order, 1), (bad, 2)):
        with pytest.raises(ValueError, match="human_order"):
            _kernels.group_pair_counts(metric, wrong, groups)


def pair_counts_of(metric, human):
    from bleukit.meta.pairs import pair_counts, rated

    return pair_counts(*rated(metric, human))


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 40),
    st.sampled_from(["pearson", "spearman", "kendall_b", "kendall_c", "pairwise_accuracy"]),
    st.integers(0, 2**32),
    st.data(),
)
def test_compiled_system_swaps_count_the_references_trials(n, statistic, seed, data):
    """PERM-BOTH's system-level trials in C (MetaKernels.system_swaps): the same
    draws and the same count as meta.correlation.system_swaps, over ties
    (a few values) and over z-scores (any float), constant vectors too."""
    from bleukit.meta.correlation import system_swaps

    value = data.draw(st.sampled_from([
        st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0]),
        st.floats(-3, 3, allow_nan=False, allow_subnormal=False),
        # magnitudes whose squares underflow or overflow: Pearson's norms scaled
        st.sampled_from([0.0, 1e-200, -3e-201, 2e-200, 1e200, -1e199]),
    ]))  # fmt: skip
    a, b, human = (data.draw(st.lists(value, min_size=n, max_size=n)) for _ in range(3))
    draws = Draws.from_seed(n, data.draw(st.integers(0, 60)), seed)
    expected = system_swaps(a, b, human, statistic, draws)
    assert C.system_swaps(a, b, human, statistic, draws) == expected


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 16),
    st.integers(0, 6),
    st.sampled_from(["pearson", "spearman", "kendall_b", "kendall_c", "pairwise_accuracy"]),
    st.data(),
)
def test_compiled_system_statistics_are_the_references_per_resample(systems, resamples,
                                                                    statistic, data):  # fmt: skip
    """A bootstrap interval's system-level statistics in C, one resample a
    row: bit for bit the reference's (meta.correlation's functions) over
    ties, constant rows and extreme magnitudes, and NaN where a human score
    is NaN (a resample without a rated segment of some system)."""
    from bleukit.meta.correlation import SYSTEM_STATISTICS

    value = data.draw(st.sampled_from([
        st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0]),
        st.floats(-3, 3, allow_nan=False, allow_subnormal=False),
        st.sampled_from([0.0, 1e-200, -3e-201, 2e-200, 1e200, -1e199]),
    ]))  # fmt: skip
    size = systems * resamples
    metric = data.draw(st.lists(value, min_size=size, max_size=size))
    human = data.draw(st.lists(st.one_of(value, st.just(math.nan)), min_size=size, max_size=size))
    got = C.system_statistics(metric, human, systems, statistic)
    expected = PY.system_statistics(metric, human, systems, statistic)
    assert len(got) == resamples and str(got) == str(expected)
    f = SYSTEM_STATISTICS[statistic]
    for r, value_r in enumerate(expected):
        m, h = metric[r * systems : (r + 1) * systems], human[r * systems : (r + 1) * systems]
        assert str(value_r) == str(math.nan if any(x != x for x in h) else f(m, h))


def test_system_statistics_refuse_unknown_statistics_and_shapes():
    for engine in KERNELS:
        with pytest.raises(InputError, match="statistic 'tau'"):
            KERNELS[engine].system_statistics([1.0] * 3, [2.0] * 3, 3, "tau")
        with pytest.raises(InputError, match="4 metric and 3 human scores for rows of 3"):
            KERNELS[engine].system_statistics([1.0] * 4, [2.0] * 3, 3, "pearson")
        with pytest.raises(InputError, match="for rows of 2"):
            KERNELS[engine].system_statistics([1.0] * 3, [2.0] * 3, 2, "pearson")
    if COMPILED is not None:
        from array import array

        with pytest.raises(ValueError, match="a known statistic"):
            COMPILED.system_statistics(array("d", [1.0]), array("d", [1.0]), 1, 9)


def test_system_swaps_refuse_unknown_statistics_and_lengths():
    draws = Draws.from_seed(3, 5, 1)
    for engine in KERNELS:
        with pytest.raises(InputError, match="statistic 'tau'"):
            KERNELS[engine].system_swaps([1.0] * 3, [2.0] * 3, [3.0] * 3, "tau", draws)
        with pytest.raises(InputError, match="2 metric scores for 3 human scores"):
            KERNELS[engine].system_swaps([1.0] * 2, [2.0] * 2, [3.0] * 3, "pearson", draws)
