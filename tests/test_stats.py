from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.reflen import closest
from bleukit.core.stats import Stats, corpus_sum, prepare_references, segment_stats


def seg(hyp, refs, order=4, totals="exact"):
    prepared = prepare_references([r.split() for r in refs], order)
    return segment_stats(hyp.split(), prepared, order, closest, totals)


def test_papineni_modified_unigram_precision():
    # Papineni et al. 2002, section 2.1: "the" clipped to its reference count
    s = seg(
        "the the the the the the the", ["the cat is on the mat", "there is a cat on the mat"], 1
    )
    assert (s.counts, s.totals) == ((2,), (7,))


def test_segment_fields():
    s = seg("a b c", ["a b d e"])
    assert (s.sys_len, s.ref_len) == (3, 4)
    assert s.counts == (2, 1, 0, 0) and s.totals == (3, 2, 1, 0)
    assert s.last_len == 3 and s.last_counts == s.counts


def test_at_least_one_totals_reproduce_nltk():
    s = seg("a b", ["a b"], totals="at-least-one")
    assert s.totals == (2, 1, 1, 1)


def test_addition_is_elementwise_and_keeps_the_last_segment():
    a, b = seg("a b c", ["a b c"]), seg("x", ["y z"])
    total = a + b
    assert total.sys_len == 4 and total.ref_len == 5 and total.segments == 2
    assert total.counts == (3, 2, 1, 0) and total.totals == (4, 2, 1, 0)
    assert total.last_len == 1
    assert corpus_sum([a, b], 4) == total
    assert Stats.zero(4) + a == a + Stats.zero(4) == a


def test_orders_must_agree():
    with pytest.raises(ValueError):
        Stats.zero(4) + Stats.zero(5)


def test_fractional_reference_lengths_add_exactly():
    s = Stats(1, Fraction(1, 3), (1,), (1,), 1)
    assert (s + s + s).ref_len == 1


@given(
    st.lists(
        st.builds(
            lambda c, t, n, last: Stats(
                sum(c), sum(t), tuple(c), tuple(t), n, last, tuple(c), tuple(t)
            ),
            st.lists(st.integers(0, 50), min_size=3, max_size=3),
            st.lists(st.integers(0, 50), min_size=3, max_size=3),
            st.integers(0, 2),
            st.integers(0, 40),
        ),
        max_size=12,
    )
)
def test_corpus_sum_equals_adding_one_by_one(segs):
    folded = Stats.zero(3)
    for s in segs:
        folded = folded + s
    assert corpus_sum(segs, 3) == folded


def test_corpus_sum_refuses_mixed_orders():
    with pytest.raises(ValueError, match="different n-gram orders"):
        corpus_sum([Stats.zero(3), Stats.zero(4)], 3)
