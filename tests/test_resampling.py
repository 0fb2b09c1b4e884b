"""Resampling: per-segment statistics as columns (packed or not), and the
draws of the bootstrap and of approximate randomization, defined from the
seed; every engine's resampling sums follow them."""

from __future__ import annotations

import random
from array import array

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import InputError
from bleukit.core.resampling import (
    Columns,
    Draws,
    bootstrap_indices,
    bootstrap_sums,
    randomization_selections,
    randomization_sums,
)
from bleukit.core.stats import Stats, corpus_sum
from bleukit.engines import ENGINES

#: a codec for Columns of 2-order statistics (what resampling sums, Metric.row)
BLEU2 = bleukit.load_variant("BLEUw4", max_order=2)


def _stats(variant, refs, *systems):
    prepared = variant.prepare_references([refs])
    return [variant.segment_stats(list(s), prepared)[0] for s in systems]


def test_packed_and_column_sums_agree():
    refs = ["the cat sat on the mat", "a dog barked", "the mat", "on a cat"]
    a = ["the cat sat on a mat", "the dog barked", "a mat", "on the cat"]
    b = ["cat sat", "dog", "the mat .", "a cat on"]
    v = bleukit.load_variant("sacrebleu", max_order=2, engine="python")
    sa, sb = _stats(v, refs, a, b)
    packed, plain = Columns(sa, BLEU2), Columns(sa, BLEU2)
    plain.packed = None
    assert packed.packed is not None
    for idx in ([0, 0, 3, 1], [2, 2, 2, 2], [3, 1, 0, 2]):
        assert packed.resample(idx) == plain.resample(idx)
    other_packed, other_plain = Columns(sb, BLEU2), Columns(sb, BLEU2)
    other_plain.packed = None
    # the ways to sum the trials of approximate randomization agree: packed
    # integers, columns (the reference), and every engine's
    trials = Draws.from_seed(4, 20, 7)
    expected = list(randomization_sums(plain, other_plain, trials))
    assert list(randomization_sums(packed, other_packed, trials)) == expected
    for engine in ENGINES.entries():
        if engine.component.unavailable() is None:
            sums = engine.component.randomization_sums(packed, other_packed, trials)
            assert list(sums) == expected, engine.name


def test_bootstrap_draws_are_random_choices_of_the_seed():
    draws = Draws.from_seed(7, 5, 99)
    rng = random.Random(99)
    assert bootstrap_indices(draws) == [rng.choices(range(7), k=7) for _ in range(5)]
    # drawn again from the same state: the same resamples (paired tests)
    assert bootstrap_indices(draws) == bootstrap_indices(Draws.from_seed(7, 5, 99))


def test_randomization_bits_are_getrandbits_of_the_seed():
    draws = Draws.from_seed(10, 3, 5)
    rng = random.Random(5)
    for selected, rest in randomization_selections(draws):
        bits = format(rng.getrandbits(10), "010b")
        assert selected == bytes(int(b) for b in bits)
        assert rest == bytes(1 - int(b) for b in bits)


def test_bootstrap_sums_are_sums_over_the_resamples():
    segs = [Stats(i, i + 1, (i % 3, 1), (5, 4), 1, i, (i % 3, 1), (5, 4)) for i in range(6)]
    cols = Columns(segs, BLEU2)
    draws = Draws.from_seed(6, 4, 3)
    sums = list(bootstrap_sums([cols], draws)[0])
    for idx, total in zip(bootstrap_indices(draws), sums):
        expected = corpus_sum([segs[i] for i in idx], 2)
        # the last segment's record stays the corpus's own (NLTK methods 5-7)
        assert total[:5] == expected[:5] and total.last_len == segs[-1].last_len


def test_columns_total_and_to_stats_round_trip():
    segs = [Stats(3, 4, (2, 1), (3, 2), 1, 3, (2, 1), (3, 2)), Stats(5, 5, (4, 2), (5, 4), 1)]
    cols = Columns(segs, BLEU2)
    assert cols.to_stats(cols.total())[:5] == corpus_sum(segs, 2)[:5]
    assert cols.width == 6


@pytest.mark.parametrize("value", [-1, 2**32])
def test_values_outside_32_bits_are_not_rows(value):
    segs = [Stats(3, value, (2, 1), (3, 2), 1)]
    cols = Columns(segs, BLEU2)
    assert cols.rows is None and not cols.packable
    # a large non-negative integer packs into fields wide enough for it
    assert (cols.packed is None) == (value < 0)


def test_wide_fields_never_carry_in_a_resample():
    big = 2**50 - 1
    segs = [Stats(big, big, (big, 1), (big, big), 1), Stats(1, big, (0, big), (big, 1), 1)]
    cols = Columns(segs, BLEU2)
    assert cols.field_bits == 50 + 2 + 1
    for idx in ([0, 0], [0, 1], [1, 1], [1, 0]):
        assert cols.resample(idx) == corpus_sum([segs[i] for i in idx], 2)._replace(
            segments=2, last_len=segs[1].last_len, last_counts=segs[1].last_counts,
            last_totals=segs[1].last_totals,
        )  # fmt: skip


def test_split_and_bootstrap_rows_of_fractions_are_the_resampled_sums():
    """Columns that are not uint32 (a Fraction): per trial the selected and
    the other segments' sums add up to the total; the bootstrap rows are the
    resamples' statistics as rows."""
    from fractions import Fraction

    from bleukit.core.resampling import bootstrap_rows, split_sums

    variant = bleukit.load_variant("BLEUw4", max_order=2)
    segments = [Stats(3, Fraction(5, 2), (2, 1), (3, 2), 1), Stats(4, 4, (3, 0), (4, 3), 1),
                Stats(2, Fraction(3, 2), (1, 1), (2, 1), 1)]  # fmt: skip
    cols = Columns(segments, variant)
    assert not cols.packable
    draws = Draws.from_seed(3, 20, 4)
    selected, others = split_sums(cols, draws)
    total = cols.total()
    rows = [selected[k : k + 6] for k in range(0, len(selected), 6)]
    rest = [others[k : k + 6] for k in range(0, len(others), 6)]
    assert len(rows) == 20
    for (sel, _), a, b in zip(randomization_selections(draws), rows, rest):
        assert [x + y for x, y in zip(a, b)] == total
        assert a == [sum(c[i] for i in range(3) if sel[i]) for c in cols.cols]
    (flat,) = bootstrap_rows([cols], draws)
    expected = [variant.row(cols.resample(idx)) for idx in bootstrap_indices(draws)]
    assert [tuple(flat[k : k + 6]) for k in range(0, len(flat), 6)] == expected


def test_flat_resamples_are_the_resamples_in_one_array():
    """``FlatResamples``: one int32 array for kernels, each resample a view."""
    from bleukit.core.resampling import FlatResamples

    draws = Draws.from_seed(5, 4, 2)
    indices = bootstrap_indices(draws)
    flat = FlatResamples(indices)
    assert len(flat) == 4 and flat.per == 5
    assert flat.positions.tolist() == [i for idx in indices for i in idx]
    assert [list(idx) for idx in flat] == indices
    assert list(flat[-1]) == indices[-1] and [list(x) for x in flat[1:3]] == indices[1:3]
    with pytest.raises(IndexError):
        flat[4]
    with pytest.raises(InputError, match="different sizes"):
        FlatResamples([[0, 1], [0]])
    assert len(FlatResamples([])) == 0
    made = FlatResamples.from_positions(flat.positions, 5)
    assert [list(idx) for idx in made] == indices and len(made) == 4
    for positions, per in (([0, 1, 2], 2), ([], 0)):
        with pytest.raises(InputError, match="different sizes"):
            FlatResamples.from_positions(array("i", positions), per)


class _Tuples:
    """A codec of rows that are the statistics themselves (any numbers)."""

    def row(self, stats):
        return stats

    def from_row(self, sums, segments, last):
        return (tuple(sums), segments, last)


@given(
    st.lists(
        st.tuples(st.integers(0, 70_000), st.integers(0, 9) | st.fractions(0, 3)),
        min_size=1,
        max_size=12,
    ),
    st.data(),
)
def test_selected_columns_are_the_columns_of_the_selected_segments(segments, data):
    """``Columns.select``: some segments' columns taken from the rows (uint16,
    uint32, or lists where a statistic is a Fraction) are the columns that
    ``Columns`` makes of those segments, rows of zeros where None; runs of
    consecutive segments (copied as one slice) too."""
    full = Columns(segments, _Tuples())
    n = len(segments)
    pick = st.integers(0, n - 1) | st.none()
    run = st.tuples(st.integers(0, n - 1), st.integers(1, 5))
    runs = st.lists(run | st.none(), min_size=1, max_size=4).map(
        lambda rs: [i for r in rs for i in ([None] if r is None else range(r[0], min(n, sum(r))))]
    )
    rows = data.draw(st.lists(pick, min_size=1, max_size=15) | runs)
    zero = (0, 0)
    chosen = [zero if i is None else segments[i] for i in rows]
    last = chosen[-1]
    expected = Columns(chosen, _Tuples())
    got = full.select(rows, last, zero)
    assert got.n == expected.n and got.width == expected.width
    assert [list(c) for c in got.cols] == [list(c) for c in expected.cols]
    assert got.packable == full.packable
    assert got.to_stats(got.total()) == expected.to_stats(expected.total())
    assert got.resample([0, 0]) == expected.resample([0, 0])
    with pytest.raises(InputError, match="no segments"):
        full.select([], zero, zero)
