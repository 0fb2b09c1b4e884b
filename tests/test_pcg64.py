"""bleukit/core/pcg64.py and the engines' sacrebleu resampling: NumPy's
``default_rng`` stream drawn without NumPy, against NumPy's own draws
(recorded in tests/golden/numpy_draws.json by
tests/golden/make_numpy_golden.py; live where NumPy is installed, which
tox -e oracle requires), and the compiled kernels against the reference."""

from __future__ import annotations

import json
from array import array
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.core.pcg64 import (
    Pcg64,
    PcgState,
    bootstrap_sums,
    randomization_sums,
    seed_sequence_state,
)
from bleukit.core.resampling import RowView
from bleukit.engines import ENGINES, compiled

GOLDEN = json.loads((Path(__file__).parent / "golden" / "numpy_draws.json").read_text("utf-8"))
ENGINE_NAMES = [n for n in ("python", "c") if ENGINES.get(n).unavailable() is None]


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["draws"], ids=lambda c: str(c["seed"]))
def test_draws_equal_numpys(case):
    seed = case["seed"]
    assert seed_sequence_state(seed) == case["seed_sequence"]
    start = PcgState.from_seed(seed)
    assert [start.state, start.inc] == case["pcg64"]
    for n, expected in case["choice"].items():
        gen = Pcg64(start)
        assert [gen.below(int(n)) for _ in expected] == expected, n
    gen = Pcg64(start)
    assert [int(b) for b in gen.bools(len(case["bools"]))] == case["bools"]
    # the generator carries on where the booleans left it
    assert [gen.below(1002) for _ in case["choice_after_bools"]] == case["choice_after_bools"]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_engines_draw_the_recorded_resamples(engine):
    """One-hot rows make each resample's sums the counts of its draws: the
    engines draw what the reference generator (checked above against the
    recorded draws) draws."""
    from collections import Counter

    n, samples = 300, 3
    rows = [[float(k == j) for j in range(n)] for k in range(n)]
    start = PcgState.from_seed(GOLDEN["draws"][2]["seed"])
    (sums,) = ENGINES.get(engine).sacrebleu_bootstrap(start, [rows], samples)
    gen = Pcg64(start)
    for resample in sums:
        counts = Counter(gen.below(n) for _ in range(n))
        assert resample == [float(counts[j]) for j in range(n)]


def test_a_seed_is_not_negative_and_none_draws_fresh_entropy():
    with pytest.raises(ValueError, match="a seed is 0 or more"):
        PcgState.from_seed(-1)
    assert PcgState.from_seed(None) != PcgState.from_seed(None)


ROWS = st.integers(1, 30).flatmap(
    lambda n: st.integers(1, 5).flatmap(
        lambda k: st.lists(
            st.lists(
                st.one_of(st.integers(0, 2**30), st.floats(0, 1e6, allow_nan=False)),
                min_size=k,
                max_size=k,
            ),
            min_size=n,
            max_size=n,
        )
    )
)


@pytest.mark.skipif("c" not in ENGINE_NAMES, reason="no compiled engine here")
@settings(max_examples=100, deadline=None)
@given(ROWS, ROWS, st.integers(0, 2**64), st.integers(0, 12))
def test_the_compiled_kernels_equal_the_reference(base, other, seed, samples):
    other = (other * len(base))[: len(base)]
    other = [(row * len(base[0]))[: len(base[0])] for row in other]
    start = PcgState.from_seed(seed)
    c = ENGINES.get("c")
    assert c.sacrebleu_bootstrap(start, [base, other], samples) == [
        bootstrap_sums(start, rows, samples) for rows in (base, other)
    ]
    assert c.sacrebleu_randomization(start, base, other, samples) == randomization_sums(
        start, base, other, samples
    )


UINT32_ROWS = st.integers(1, 4).flatmap(
    lambda width: st.lists(
        st.lists(st.integers(0, 2**32 - 1) | st.integers(0, 40), min_size=width, max_size=width),
        min_size=1,
        max_size=40,
    )
)


@pytest.mark.skipif("c" not in ENGINE_NAMES, reason="no compiled engine here")
@settings(max_examples=100, deadline=None)
@given(UINT32_ROWS, st.integers(0, 2**64), st.integers(0, 9), st.booleans(), st.booleans())
def test_integer_rows_are_read_as_they_are_in_threads_or_not(rows, seed, samples, split, narrow):
    """``Columns``' own rows (``RowView``, the buffer uncopied: uint32, or
    uint16 where every value fits), summed on one thread or on several (each
    drawing the resamples before its range), give the reference's sums of
    the same rows as lists, values past 2**31 included."""
    if narrow:
        rows = [[x % 2**16 for x in row] for row in rows]
    code = "H" if narrow else "I"
    view = RowView(array(code, [x for row in rows for x in row]), len(rows[0]))
    other = RowView(array(code, [x for row in reversed(rows) for x in row]), len(rows[0]))
    start = PcgState.from_seed(seed)
    c = ENGINES.get("c")
    with mock.patch.object(compiled, "_SPLIT_ROW_BYTES", -1 if split else 1 << 40):
        got = c.sacrebleu_bootstrap(start, [view, other], samples)
    assert got == [bootstrap_sums(start, rows, samples), bootstrap_sums(start, other, samples)]
    assert c.sacrebleu_randomization(start, view, other, samples) == randomization_sums(
        start, rows, list(other), samples
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**128), st.integers(1, 2**45), st.integers(0, 40))
def test_draws_equal_numpys_live(numpy, seed, n, count):
    np = numpy
    rng = np.random.default_rng(seed)
    gen = Pcg64(PcgState.from_seed(seed))
    assert rng.choice(n, size=count).tolist() == [gen.below(n) for _ in range(count)]
    assert rng.integers(2, size=count, dtype=bool).tolist() == list(gen.bools(count))
    assert rng.choice(n, size=3).tolist() == [gen.below(n) for _ in range(3)]


@settings(max_examples=60, deadline=None)
@given(ROWS, st.integers(0, 2**32), st.integers(1, 20))
def test_sums_equal_sacrebleus_live(numpy, rows, seed, samples):
    np = numpy
    """sacrebleu 2.6.0's _bootstrap_resample and _paired_ar_test, as NumPy
    computes them, on any rows (float32 sums past 2**24 round in its order)."""
    idxs = np.random.default_rng(seed).choice(len(rows), size=(samples, len(rows)))
    expected = np.array(rows, dtype="float32")[idxs].sum(axis=1).tolist()
    for name in ENGINE_NAMES:
        engine = ENGINES.get(name)
        assert engine.sacrebleu_bootstrap(PcgState.from_seed(seed), [rows], samples) == [expected]
    whole = [[int(x) for x in row] for row in rows]
    other = [row[::-1] for row in whole]
    rng = np.random.default_rng(seed)
    pos = rng.integers(2, size=(samples, len(rows)), dtype=bool)
    bl, sy = np.array(whole), np.array(other)
    a, b = (pos @ bl + ~pos @ sy).tolist(), (~pos @ bl + pos @ sy).tolist()
    after = rng.choice(len(rows), size=5).tolist()
    for name in ENGINE_NAMES:
        got_a, got_b, state = ENGINES.get(name).sacrebleu_randomization(
            PcgState.from_seed(seed), whole, other, samples
        )
        assert (got_a, got_b) == (a, b)
        gen = Pcg64(state)
        assert [gen.below(len(rows)) for _ in range(5)] == after
