"""Smoothing methods against hand-computed values."""

import math
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.errors import BleukitError
from bleukit.core.smoothing import LOG_ZERO, SMOOTHINGS, Smoothed
from bleukit.core.stats import Stats


def stats(counts, totals, sys_len=10, last=None):
    last_len, last_counts, last_totals = last or (sys_len, counts, totals)
    return Stats(
        sys_len,
        sys_len,
        tuple(counts),
        tuple(totals),
        1,
        last_len,
        tuple(last_counts),
        tuple(last_totals),
    )


def smooth(name, s, order=4, weights=None, eff=False, value=None):
    method = SMOOTHINGS.get(name)
    if value is None:
        value = method.default_value
    return method(s, order, weights, eff, value)


def gmean(precisions):
    return math.exp(sum(math.log(p) for p in precisions) / len(precisions))


def test_exp_halves_for_each_order_without_match():
    r = smooth("exp", stats([3, 1, 0, 0], [4, 3, 2, 1]))
    assert r.precisions == (75.0, 100 / 3, 100 / (2 * 2), 100 / (4 * 1))
    assert r.mean == pytest.approx(gmean(r.precisions), rel=1e-15)


def test_floor_and_add_k():
    r = smooth("floor", stats([3, 1, 0, 0], [4, 3, 2, 1]))
    assert r.precisions[2:] == (100 * 0.1 / 2, 100 * 0.1 / 1)
    r = smooth("add-k", stats([3, 1, 0, 0], [4, 3, 2, 1]), value=1.0)
    assert r.precisions == (75.0, 100 * 2 / 4, 100 * 1 / 3, 100 * 1 / 2)


def test_none_gives_zero_when_an_order_has_no_match():
    r = smooth("none", stats([3, 1, 0, 0], [4, 3, 2, 1]))
    assert r.mean == 0.0 and r.precisions[2] == 0.0
    assert math.exp(LOG_ZERO / 4) == 0.0


def test_no_match_at_all_scores_zero():
    assert smooth("exp", stats([0, 0, 0, 0], [4, 3, 2, 1])).mean == 0.0


def test_effective_order_stops_at_the_first_order_without_ngrams():
    s = stats([2, 1, 0, 0], [2, 1, 0, 0])
    assert smooth("none", s, eff=True).mean == pytest.approx(gmean([100.0, 100.0]))
    assert smooth("none", s, eff=False).mean == 0.0


def test_explicit_weights_ignore_zero_weight_orders():
    s = stats([3, 1, 0, 0], [4, 3, 2, 1])
    r = smooth("none", s, weights=(0.5, 0.5, 0.0, 0.0))
    assert r.mean == pytest.approx(math.sqrt(75.0 * 100 / 3))


def test_uniform_weights_equal_explicit_uniform_vector():
    s = stats([7, 5, 3, 2], [9, 8, 7, 6])
    assert smooth("exp", s).mean == pytest.approx(
        smooth("exp", s, weights=(0.25,) * 4).mean, rel=1e-14
    )


def test_nltk_method0_uses_float_min_for_zero_precision():
    r = smooth("nltk-method0", stats([3, 1, 0, 0], [4, 3, 2, 1]))
    expected = math.exp(
        0.25 * (math.log(3 / 4) + math.log(1 / 3) + 2 * math.log(sys.float_info.min))
    )
    assert r.mean == pytest.approx(100 * expected, rel=1e-12)


def test_nltk_method1_epsilon():
    r = smooth("nltk-method1", stats([3, 1, 0, 0], [4, 3, 2, 1]))
    assert r.precisions[2:] == (100 * 0.1 / 2, 100 * 0.1 / 1)


def test_nltk_method2_adds_one_to_every_order_but_the_first():
    r = smooth("nltk-method2", stats([4, 2, 2, 0], [4, 4, 2, 1]))
    # unnormalised fractions: (2+1)/(4+1), not (1+1)/(2+1)
    assert r.precisions == (100.0, 100 * 3 / 5, 100 * 3 / 3, 100 * 1 / 2)


def test_nltk_method3_and_method4():
    s = stats([3, 1, 0, 0], [4, 3, 2, 1], sys_len=20)
    assert smooth("nltk-method3", s).precisions[2:] == (100 / (2 * 2), 100 / (4 * 1))
    r = smooth("nltk-method4", s)
    k, log_len = 5, math.log(20)
    assert r.precisions[2] == pytest.approx(100 * (1 / (2 * k / log_len)) / 2)
    assert r.precisions[3] == pytest.approx(100 * (1 / (4 * k / log_len)) / 1)


def test_nltk_method5_uses_the_last_segments_five_grams():
    s = stats([4, 3, 2, 1], [5, 4, 3, 2], last=(6, (4, 3, 2, 1, 1), (6, 5, 4, 3, 2)))
    p = [Fraction(4, 5), Fraction(3, 4), Fraction(2, 3), Fraction(1, 2)]
    plus1 = [*p, Fraction(1, 2)]
    prev, expected = p[0] + 1, []
    for i, pi in enumerate(p):
        prev = (prev + pi + plus1[i + 1]) / 3
        expected.append(prev)
    r = smooth("nltk-method5", s)
    assert r.precisions == tuple(100 * float(x) for x in expected)


def test_nltk_method6_interpolates_and_needs_trigrams():
    s = stats([4, 3, 2, 0], [5, 4, 3, 2], last=(5, (4, 3, 2, 0), (5, 4, 3, 2)))
    r = smooth("nltk-method6", s)
    p1, p2 = Fraction(4, 5), Fraction(3, 4)
    p3 = (2 + 5 * p2**2 / p1) / (3 + 5)  # last hypothesis has 5 - 2 = 3 trigrams
    p4 = (0 + 5 * p3**2 / p2) / (2 + 5)
    assert r.precisions[2:] == (100 * float(p3), 100 * float(p4))
    with pytest.raises(BleukitError, match="trigram"):
        smooth("nltk-method6", stats([4, 3, 0, 0], [5, 4, 3, 2]))


def test_nltk_method7_is_method4_then_method5():
    s = stats([3, 1, 0, 0], [4, 3, 2, 1], sys_len=20, last=(20, (3, 1, 0, 0, 0), (4, 3, 2, 1, 1)))
    r7 = smooth("nltk-method7", s)
    assert r7.precisions[0] != smooth("nltk-method4", s).precisions[0]
    assert r7.mean > 0


def test_t2t_exp_skips_an_order_without_ngrams_but_divides_by_the_order():
    # bleu_hook: precisions 3/4, 1/3, 1/(2*2), then 0 (no 4-gram): log sum / 4
    r = smooth("t2t-exp", stats([3, 1, 0, 0], [4, 3, 2, 0]))
    assert r.precisions == (75.0, 100 * (1 / 3), 100 / 4, 0.0)
    expected = math.exp((math.log(3 / 4) + math.log(1 / 3) + math.log(1 / 4)) / 4)
    assert r.mean == pytest.approx(100 * expected, rel=1e-15)
    # sacrebleu's exp scores the same statistics 0
    assert smooth("exp", stats([3, 1, 0, 0], [4, 3, 2, 0])).mean == 0.0
    # effective order: the divisor is the last order with n-grams
    r = smooth("t2t-exp", stats([3, 1, 0, 0], [4, 3, 2, 0]), eff=True)
    assert r.mean == pytest.approx(100 * expected ** (4 / 3), rel=1e-14)


def test_t2t_exp_smooths_a_hypothesis_without_any_match():
    r = smooth("t2t-exp", stats([0, 0, 0, 0], [2, 1, 0, 0]))
    assert r.precisions == (100 / 4, 100 / 4, 0.0, 0.0)
    assert r.mean == pytest.approx(100 * math.exp(2 * math.log(1 / 4) / 4), rel=1e-15)
    assert smooth("t2t-exp", stats([0, 0, 0, 0], [0, 0, 0, 0])).mean == 0.0
    weighted = smooth("t2t-exp", stats([2, 1, 0, 0], [2, 1, 0, 0]), weights=(0.5, 0.5, 0, 0))
    assert weighted.mean == pytest.approx(100.0, rel=1e-15)


def test_defaults_and_names():
    assert SMOOTHINGS.get("floor").default_value == 0.1
    assert SMOOTHINGS.get("add-k").default_value == 1
    assert SMOOTHINGS.get("exp").default_value is None
    assert {f"nltk-method{m}.v1" for m in range(8)} <= set(SMOOTHINGS.names())


@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 30), min_size=4, max_size=4),
            st.lists(st.integers(0, 30), min_size=4, max_size=4),
        ),
        max_size=20,
    ),
    st.sampled_from(["none.v1", "exp.v1", "floor.v1", "add-k.v1", "t2t-exp.v1", "add-one-all.v1"]),
    st.booleans(),
    st.one_of(st.none(), st.just((0.1, 0.2, 0.3, 0.4))),
)
def test_many_equals_one_call_per_segment(rows, name, effective_order, weights):
    """A method's batch (sentence BLEU of many segments) gives what one
    call per segment gives, bit for bit: nothing carries over from one
    segment to the next (NLTK's methods, which read the corpus's last
    segment, are excluded: their batch is the per-segment default)."""
    method = SMOOTHINGS.get(name)
    stats = [
        Stats(sum(t), sum(t), tuple(c), tuple(t), 1, sum(t), tuple(c), tuple(t)) for c, t in rows
    ]
    value = method.default_value
    batch = method.many(stats, 4, weights, effective_order, value)
    assert batch == [method(s, 4, weights, effective_order, value) for s in stats]
    assert all(type(b) is Smoothed for b in batch)


def test_compare_mt_takes_an_order_without_match_as_precision_one():
    """compare-mt's BleuScorer: log p skipped (taken as 0) where an order
    has no match; no unigram match scores 0; the log sum in order."""
    s = stats([6, 3, 0, 0], [10, 9, 8, 7])
    out = smooth("compare-mt.v1", s)
    expected = 0.0
    for p in (6 / 10, 3 / 9):
        expected += math.log(p) * 0.25
    assert out.mean == 100 * math.exp(expected)
    assert out.precisions == (60.0, 100 * (3 / 9), 0.0, 0.0)
    assert smooth("compare-mt.v1", stats([0, 0, 0, 0], [5, 4, 3, 2])).mean == 0.0
    full = stats([6, 3, 2, 1], [10, 9, 8, 7])
    assert smooth("compare-mt.v1", full).mean == pytest.approx(
        100 * gmean([0.6, 1 / 3, 0.25, 1 / 7])
    )
    assert SMOOTHINGS.get("compare-mt.v1").sentence_smoothing == "nltk-method2.v1"
