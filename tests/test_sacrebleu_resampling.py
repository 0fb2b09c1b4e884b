"""bleukit.significance.sacrebleu_compat: the float32 resample sums equal sacrebleu's
own computation (a gather, then a float32 sum) bit for bit, on the exact
path and on the large sums that take sacrebleu's computation itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="--compat sacrebleu needs NumPy (tox -e oracle)")

from bleukit.significance.sacrebleu_compat import bootstrap_draws, float32_sums  # noqa: E402


def sacrebleu_sums(rows, idxs):
    # sacrebleu 2.6.0 significance.py, _bootstrap_resample
    return np.array(rows, dtype="float32")[idxs].sum(axis=1)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 40).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, 2**40), min_size=4, max_size=4), min_size=n, max_size=n
        )
    ),
    st.integers(0, 2**31),
    st.sampled_from([10, 1000, 2**20, 2**40]),
)
def test_sums_equal_sacrebleus_bit_for_bit(rows, seed, cap):
    rows = [[v % cap for v in row] for row in rows]
    idxs = bootstrap_draws(seed, len(rows), 50)
    ours, theirs = float32_sums(rows, idxs), sacrebleu_sums(rows, idxs)
    assert ours.dtype == theirs.dtype == np.float32
    assert ours.tobytes() == theirs.tobytes()


def test_sums_past_float32s_exact_range_still_equal_sacrebleus():
    # 3 segments of 2**24 - 1: sums round in float32, in sacrebleu's order
    rows = [[2**24 - 1, 3], [2**24 - 1, 5], [1, 2**23 + 1]]
    idxs = bootstrap_draws(1, 3, 200)
    assert float32_sums(rows, idxs).tobytes() == sacrebleu_sums(rows, idxs).tobytes()


def test_wmt_sized_sums_take_the_exact_path_and_equal_sacrebleus():
    rng = np.random.default_rng(0)
    rows = rng.integers(0, 60, size=(1002, 10)).tolist()
    idxs = bootstrap_draws(12345, 1002, 1000)
    assert 60 * 1002 < 2**24
    assert float32_sums(rows, idxs).tobytes() == sacrebleu_sums(rows, idxs).tobytes()
