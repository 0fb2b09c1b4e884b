"""bleukit/meta/pairs.py: the pair counts of meta-evaluation, by hand and by property."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.core.errors import InputError
from bleukit.core.resampling import Draws
from bleukit.meta.pairs import (
    Pairs,
    calibrate,
    calibrated_agreeing,
    calibrated_epsilon,
    calibrated_swap_sums,
    cell_weights,
    darr_pairs,
    epsilon_pairs,
    item_pairs,
    pair_disagreements,
    rated,
    swap_tables,
    window_pairs,
)


def test_pairs_add_and_total():
    assert Pairs(1, 2, 3, 4, 5) + Pairs(1, 1, 1, 1, 1) == Pairs(2, 3, 4, 5, 6)
    assert Pairs(1, 2, 3, 4, 5).total == 15


def test_epsilon_turns_small_metric_differences_into_ties():
    metric, human = [1.0, 1.05, 2.0], [1.0, 1.0, 3.0]
    assert epsilon_pairs(metric, human, 0.0) == Pairs(con=2, tie_human=1)
    assert epsilon_pairs(metric, human, 0.1) == Pairs(con=2, tie_both=1)
    assert darr_pairs(metric, human, 0.0) == (2, 0)
    with pytest.raises(InputError):
        epsilon_pairs([1.0], [], 0.0)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 25), st.sampled_from([0.0, 0.1, 0.2, 0.5, 2.0]), st.data())
def test_window_pairs_count_as_every_pair_does(n, epsilon, data):
    """window_pairs (a sliding window and a Fenwick tree, O(n log n)) is
    epsilon_pairs (every pair, one by one), close values and ties included."""
    cell = st.sampled_from([0.0, 0.1, 0.2, 0.30000000000000004, 1.0, 2.5, -1.0])
    metric = data.draw(st.lists(st.one_of(cell, st.floats(-10, 10)), min_size=n, max_size=n))
    human = data.draw(st.lists(st.sampled_from([0.0, 1.0, 5.0]), min_size=n, max_size=n))
    assert window_pairs(metric, human, epsilon) == epsilon_pairs(metric, human, epsilon)
    with pytest.raises(InputError):
        window_pairs([1.0], [], epsilon)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10), st.sampled_from(["darr", "acc_eq"]), st.data())
def test_cell_weights_make_a_swap_trial_linear(n, kind, data):
    """With the cell weights, any trial's swaps give the statistic's
    difference (summed over the pairs, twice) as the signed sum of the
    weights: recounted here pair by pair."""
    cell = st.sampled_from([0.0, 0.5, 1.0, 2.0])
    x, y = (data.draw(st.lists(cell, min_size=n, max_size=n)) for _ in range(2))
    human = data.draw(st.lists(st.sampled_from([0.0, 1.0]), min_size=n, max_size=n))
    signs = data.draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    v1 = [a if s > 0 else b for a, b, s in zip(x, y, signs)]
    v2 = [b if s > 0 else a for a, b, s in zip(x, y, signs)]

    def total(v):
        p = epsilon_pairs(v, human, 0.0)
        return p.con - p.dis - p.tie_metric if kind == "darr" else p.con + p.tie_both

    weights = cell_weights(x, y, human, kind)
    assert sum(s * w for s, w in zip(signs, weights)) == 2 * (total(v1) - total(v2))
    with pytest.raises(InputError, match="kind 'x'"):
        cell_weights(x, y, human, "x")


def test_calibration_chooses_the_smallest_best_epsilon():
    # one group of 2 pairs, one agreeing; at 0.5 a disagreeing pair the
    # humans tie starts agreeing, at 1.0 the agreeing one stops
    assert calibrate([1], [2], [(1.0, 0, -1), (0.5, 0, 1)]) == 0.5
    # nothing improves: epsilon 0
    assert calibrate([2], [2], [(0.3, 0, -1)]) == 0.0
    assert calibrate([0], [0], []) == 0.0


def test_item_pairs_by_hand():
    # two systems, two items: item 0 concordant, item 1 tied by the metric only
    metric, human = [[2.0, 1.0], [1.0, 1.0]], [[5.0, 3.0], [4.0, 0.0]]
    counts, epsilon = item_pairs(metric, human, 0.0)
    assert epsilon == 0.0
    assert counts == [(1, 0, 0, 0, 0, 1, 0, 1, 1), (0, 0, 1, 0, 0, 0, 1, 0, 1)]
    # a threshold of 2 drops item 0's DARR pair (difference 1)
    counts, _ = item_pairs(metric, human, 2.0)
    assert [c[5:7] for c in counts] == [(0, 0), (0, 1)]
    assert item_pairs([], [], 0.0) == ([], 0.0)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5), st.integers(1, 6), st.sampled_from(["darr", "acc_eq"]), st.data())
def test_swap_tables_swap_one_cell_as_the_other_reversed(systems, items, kind, data):
    """Swapping a pair's first cell gives the opposite of swapping its
    second, and swapping both the opposite of swapping neither: each trial's
    sum is linear in the swapped cells, which the compiled pair_swap_sums
    reads (a trial costs the cells, not the pairs)."""
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0])
    za, zb, human = (
        [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
        for _ in range(3)
    )
    _, _, table = swap_tables(za, zb, human, kind, 0.0)
    for p in range(0, len(table), 4):
        neither, second, first, both = table[p : p + 4]
        assert (second, both) == (-first, -neither)


def _agreeing_at_calibration(metric, human):
    """acc_eq's agreeing pairs by item at the epsilon calibrated by item,
    recounted pair by pair there (epsilon_pairs)."""
    columns = list(zip(zip(*metric), zip(*human)))
    epsilon = calibrated_epsilon(columns)
    return sum(p.con + p.tie_both for p in (epsilon_pairs(m, h, epsilon) for m, h in columns))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.data())
def test_calibrated_agreeing_is_the_count_at_the_calibrated_epsilon(systems, items, data):
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0, 0.30000000000000004])
    metric, human = (
        [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
        for _ in range(2)
    )
    expected = _agreeing_at_calibration(metric, human)
    assert calibrated_agreeing(metric, human) == expected
    assert sum(c[7] for c in item_pairs(metric, human, 0.0)[0]) == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 30), st.integers(0, 9), st.data())
def test_calibrated_swap_sums_calibrate_each_trials_scores_again(systems, items, trials, seed,
                                                                  data):  # fmt: skip
    """Each trial of PERM-BOTH with tie calibration swaps the cells whose
    bit getrandbits draws set, and calibrates both sides again on their
    own: recounted here from the drawn bits."""
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0])
    za, zb, human = (
        [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
        for _ in range(3)
    )
    draws = Draws.from_seed(systems * items, trials, seed)
    rng = draws.rng()
    expected = []
    for _ in range(trials):
        bits = rng.getrandbits(systems * items)
        swap = [[bits >> (s * items + j) & 1 for j in range(items)] for s in range(systems)]
        a = [[zb[s][j] if swap[s][j] else za[s][j] for j in range(items)] for s in range(systems)]
        b = [[za[s][j] if swap[s][j] else zb[s][j] for j in range(items)] for s in range(systems)]
        expected.append(_agreeing_at_calibration(b, human) - _agreeing_at_calibration(a, human))
    assert calibrated_swap_sums(draws, za, zb, human) == expected


def test_calibrated_swap_sums_refuse_other_shapes_and_draws():
    with pytest.raises(InputError, match="one shape"):
        calibrated_swap_sums(Draws.from_seed(2, 1, 0), [[1.0, 2.0]], [[1.0]], [[1.0, 2.0]])
    with pytest.raises(InputError, match="3 cells drawn for 2"):
        calibrated_swap_sums(Draws.from_seed(3, 1, 0), [[1.0, 2.0]], [[1.0, 2.0]], [[1.0, 2.0]])


def test_pair_disagreements_by_hand():
    human = [1.0, 1.0, 3.0]
    # a at 0.5: (0, 1) tied as the humans tie it; (0, 2), (1, 2) concordant
    a = [1.0, 1.2, 2.0]
    # b at 0: (0, 1) tied too; (0, 2), (1, 2) discordant
    b = [1.0, 1.0, 0.5]
    assert pair_disagreements(a, b, human, 0.5, 0.0) == (0, 2)
    assert pair_disagreements(b, a, human, 0.0, 0.5) == (2, 0)
    with pytest.raises(InputError):
        pair_disagreements(a, [1.0], human, 0.0, 0.0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 12), st.data())
def test_pair_disagreements_differ_by_the_agreeing_pairs(n, data):
    """b's wins minus a's are the difference of their agreeing pairs, each
    at its own epsilon."""
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0, 0.30000000000000004])
    a, b = (data.draw(st.lists(cell, min_size=n, max_size=n)) for _ in range(2))
    human = data.draw(st.lists(st.sampled_from([0.0, 1.0, 5.0]), min_size=n, max_size=n))
    eps_a, eps_b = (data.draw(st.sampled_from([0.0, 0.5, 0.30000000000000004, 1.0]))
                    for _ in range(2))  # fmt: skip
    wins, losses = pair_disagreements(a, b, human, eps_a, eps_b)
    pa, pb = epsilon_pairs(a, human, eps_a), epsilon_pairs(b, human, eps_b)
    assert wins - losses == (pb.con + pb.tie_both) - (pa.con + pa.tie_both)
    assert pair_disagreements(b, a, human, eps_b, eps_a) == (losses, wins)
    assert wins + losses <= n * (n - 1) // 2


NAN = float("nan")


def _with_unrated(data, systems, items):
    """Metric and human matrices with some cells unrated (NaN in both)."""
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0])
    metric, human = (
        [data.draw(st.lists(cell, min_size=items, max_size=items)) for _ in range(systems)]
        for _ in range(2)
    )
    mask = [data.draw(st.lists(st.booleans(), min_size=items, max_size=items))
            for _ in range(systems)]  # fmt: skip
    for m, h, row in zip(metric, human, mask):
        for j, off in enumerate(row):
            if off:
                m[j] = h[j] = NAN
    return metric, human


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_unrated_cells_are_left_out_of_every_items_pairs(systems, items, data):
    """Item pairs, the calibration by item and the calibrated agreeing
    count of matrices with NaN cells are those of each item's rated cells:
    each item's share weighs the same whatever its pairs."""
    from fractions import Fraction

    metric, human = _with_unrated(data, systems, items)
    columns = [rated(m, h) for m, h in zip(zip(*metric), zip(*human))]
    counts, epsilon = item_pairs(metric, human, 0.0)
    assert epsilon == calibrated_epsilon(columns)
    for c, (m, h) in zip(counts, columns):
        at = epsilon_pairs(m, h, epsilon)
        assert (c[7], c[8]) == (at.con + at.tie_both, at.total)
    totals = [c[8] for c in counts if c[8]]
    if totals:
        common = math.lcm(*totals)
        shares = sum(Fraction(c[7], c[8]) for c in counts if c[8])
        assert Fraction(calibrated_agreeing(metric, human), common) == shares


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5), st.integers(1, 5), st.data())
def test_swap_tables_weigh_items_of_other_pair_counts(systems, items, data):
    """With unrated cells, acc_eq's pair tables weigh each pair by the
    least common multiple of the items' pair counts over its item's, so
    that with no cell swapped they sum to that multiple times the
    difference of the mean shares; pairs of unrated cells are left out."""
    from fractions import Fraction

    za, human = _with_unrated(data, systems, items)
    cell = st.sampled_from([0.0, 0.5, 1.0, -1.0, 2.0])
    zb = [[NAN if math.isnan(h) else data.draw(cell) for h in row] for row in human]
    first, _, table = swap_tables(za, zb, human, "acc_eq", 0.0)
    columns_a = [rated(m, h) for m, h in zip(zip(*za), zip(*human))]
    columns_b = [rated(m, h) for m, h in zip(zip(*zb), zip(*human))]
    pairs = [len(h) * (len(h) - 1) // 2 for _, h in columns_a]
    assert len(first) == sum(pairs)
    if any(pairs):
        common = math.lcm(*(p for p in pairs if p))

        def agreeing(m, h):
            p = epsilon_pairs(m, h, 0.0)
            return p.con + p.tie_both

        shares = sum(Fraction(agreeing(*b) - agreeing(*a), n)
                     for a, b, n in zip(columns_a, columns_b, pairs) if n)  # fmt: skip
        assert Fraction(sum(table[0::4]), common) == shares
