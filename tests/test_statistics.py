"""bleukit/meta/statistics.py: hand-worked cases from the papers, and
properties against brute-force definitions (scipy itself is checked in
tests_scipy, tox -e scipy)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.core.errors import InputError
from bleukit.meta import statistics as s

# small integers: many ties, as metric and human scores have
SCORES = st.lists(st.integers(-3, 3).map(float), min_size=0, max_size=30)


def brute_pairs(metric, human, epsilon=0.0):
    out = [0] * 5
    for i, j in itertools.combinations(range(len(metric)), 2):
        dm, dh = metric[i] - metric[j], human[i] - human[j]
        mt, ht = abs(dm) <= epsilon, dh == 0
        out[4 if mt and ht else 2 if mt else 3 if ht else 0 if (dm > 0) == (dh > 0) else 1] += 1
    return s.Pairs(*out)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_pair_counts_classify_every_pair(data):
    n = data.draw(st.integers(0, 30))
    metric = data.draw(st.lists(st.integers(-3, 3).map(float), min_size=n, max_size=n))
    human = data.draw(st.lists(st.integers(-3, 3).map(float), min_size=n, max_size=n))
    assert s.pair_counts(metric, human) == brute_pairs(metric, human)
    assert s.epsilon_pairs(metric, human, 0.0) == brute_pairs(metric, human)
    assert s.epsilon_pairs(metric, human, 1.0) == brute_pairs(metric, human, 1.0)
    assert s.pair_counts(metric, human).total == n * (n - 1) // 2


def test_kendall_by_hand():
    # x = 1 2 3 4, y = 1 3 2 4: 5 concordant, 1 discordant, no ties
    assert s.kendall([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    # tau-b with ties: x = 1 1 2, y = 1 2 3: con 2, dis 0, x tied once
    assert s.kendall([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / math.sqrt(2 * 3))
    # tau-c: 2 (C - D) / (n^2 (m - 1) / m), m = min classes = 2
    assert s.kendall([1, 1, 2], [1, 2, 3], "c") == pytest.approx(2 * 2 / (9 * 1 / 2))
    assert math.isnan(s.kendall([1, 1, 1], [1, 2, 3]))
    with pytest.raises(InputError, match="expected 'b' or 'c'"):
        s.kendall([1, 2], [1, 2], "a")


def test_pearson_and_spearman_by_hand():
    assert s.pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0, abs=1e-15)
    assert s.pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0, abs=1e-15)
    assert math.isnan(s.pearson([1, 1, 1], [1, 2, 3])) and math.isnan(s.pearson([1], [2]))
    assert s.ranks([10, 20, 20, 5]) == [2.0, 3.5, 3.5, 1.0]
    # monotone but not linear: rho 1, r below 1
    assert s.spearman([1, 2, 3, 4], [1, 4, 9, 100]) == pytest.approx(1.0)
    assert s.pearson([1, 2, 3, 4], [1, 4, 9, 100]) < 0.9
    with pytest.raises(InputError, match="3 metric scores for 2 human scores"):
        s.pearson([1, 2, 3], [1, 2])


def test_pairwise_accuracy_counts_sign_agreement_ties_included():
    # Kocmi et al. 2021: the share of system pairs ordered as humans order them
    assert s.pairwise_accuracy([3, 2, 1], [30, 20, 10]) == 1.0
    assert s.pairwise_accuracy([1, 2, 3], [30, 20, 10]) == 0.0
    # pairs: (0,1) both tied: agree; (0,2) and (1,2) agree: 3 of 3
    assert s.pairwise_accuracy([1, 1, 0], [5, 5, 2]) == 1.0
    assert s.pairwise_accuracy([1, 2, 0], [5, 5, 2]) == pytest.approx(2 / 3)


def test_soft_pairwise_accuracy():
    human = [[None, 0.01, 0.2], [None, None, 0.5], [None, None, None]]
    assert s.soft_pairwise_accuracy(human, human) == 1.0
    metric = [[None, 0.11, 0.2], [None, None, 0.2], [None, None, None]]
    assert s.soft_pairwise_accuracy(metric, human) == pytest.approx(1 - (0.1 + 0 + 0.3) / 3)


def test_kendall_like_is_wmts_darr():
    # two items, three systems; item 1: human 0 10 40, item 2: human 5 5 50
    human = [[0, 5], [10, 5], [40, 50]]
    metric = [[1, 2], [3, 2], [2, 9]]
    # threshold 25: item 1 pairs (0,2): m 1<2 con, (1,2): m 3>2 dis; item 2:
    # (0,2) con, (1,2) con; (0,1) differs by 0: skipped
    assert s.kendall_like(metric, human, 25) == pytest.approx((3 - 1) / 4)
    # threshold 0: item 1 (0,1) concordant too; item 2 (0,1) tied in humans: skipped
    assert s.kendall_like(metric, human, 0) == pytest.approx((4 - 1) / 5)
    # a metric tie counts against the metric
    assert s.darr_pairs([1, 1], [0, 30], 25) == (0, 1)


def test_groupings():
    metric = [[1, 2, 3], [4, 5, 6]]
    human = [[1, 2, 4], [3, 5, 6]]
    assert s.groups(metric, human, "none") == [([1, 2, 3, 4, 5, 6], [1, 2, 4, 3, 5, 6])]
    assert s.groups(metric, human, "system")[1] == ([4, 5, 6], [3, 5, 6])
    assert s.groups(metric, human, "item")[2] == ([3, 6], [4, 6])
    assert s.grouped(metric, human, "item", s.pearson) == 1.0
    with pytest.raises(InputError, match="grouping 'segment'"):
        s.groups(metric, human, "segment")


def test_acc_eq_by_hand():
    # Deutsch et al. 2023: ties in both count as agreement
    assert s.acc_eq(s.Pairs(con=3, dis=1, tie_metric=1, tie_human=1, tie_both=2)) == 5 / 8
    assert math.isnan(s.acc_eq(s.Pairs()))


def test_tie_calibration_by_hand():
    # humans tie the first two systems; the metric is 0.1 apart there: at
    # epsilon 0.1 that pair agrees, and no other pair turns into a tie
    metric, human = [1.0, 1.1, 3.0], [2.0, 2.0, 5.0]
    at0 = s.acc_eq(s.pair_counts(metric, human))
    best = s.calibrated_acc_eq([(metric, human)])
    assert at0 == pytest.approx(2 / 3) and best.value == 1.0
    assert best.epsilon == pytest.approx(0.1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(SCORES, SCORES), min_size=1, max_size=4))
def test_tie_calibration_finds_the_best_epsilon(vectors):
    vectors = [(m[: len(h)], h[: len(m)]) for m, h in vectors]
    best = s.calibrated_acc_eq(vectors)

    def at(eps):
        return s.mean(s.acc_eq(brute_pairs(m, h, eps)) for m, h in vectors)

    candidates = {0.0} | {abs(a - b) for m, _ in vectors for a, b in itertools.combinations(m, 2)}
    values = {e: at(e) for e in candidates}
    if all(math.isnan(v) for v in values.values()):
        assert math.isnan(best.value)
        return
    top = max(v for v in values.values() if not math.isnan(v))
    assert best.value == pytest.approx(top, abs=1e-12)
    assert best.epsilon == min(e for e, v in values.items() if v >= top - 1e-12)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_correlations_are_bounded_and_symmetric(data):
    n = data.draw(st.integers(2, 20))
    x = data.draw(st.lists(st.floats(-1e6, 1e6), min_size=n, max_size=n))
    y = data.draw(st.lists(st.floats(-1e6, 1e6), min_size=n, max_size=n))
    for f in (s.pearson, s.spearman, s.kendall):
        r = f(x, y)
        assert math.isnan(r) or -1 <= r <= 1
        assert (math.isnan(r) and math.isnan(f(y, x))) or r == pytest.approx(f(y, x), abs=1e-12)
    # ranks are invariant under a (floating-point exact) increasing map
    doubled = [2 * v for v in x]
    assert s.spearman(x, y) == pytest.approx(s.spearman(doubled, y), abs=1e-12, nan_ok=True)
    assert s.kendall(x, y) == pytest.approx(s.kendall(doubled, y), abs=1e-12, nan_ok=True)


def test_segment_correlations_by_hand():
    """Two systems x three items: per item two cells (one pair each), per
    system three cells; NaN cells (unrated) left out with their pairs."""
    nan = math.nan
    metric = [[1.0, 2.0, 3.0], [2.0, 2.0, nan]]
    human = [[1.0, 3.0, 2.0], [3.0, 1.0, 5.0]]
    # by item: item 0 (1 vs 2, humans 1 vs 3) concordant; item 1 (2 vs 2,
    # humans 3 vs 1) a metric tie; item 2 has one rated cell: left out
    assert s.segment_correlation(metric, human, "tau_23", "item") == (1 + -1) / 2
    assert s.segment_correlation(metric, human, "kendall_b", "item") == 1.0  # item 1: NaN, dropped
    # by system: system 0 (1, 2, 3 against 1, 3, 2): 2 concordant, 1
    # discordant of 3 pairs; system 1's two rated cells tie in the metric
    assert s.segment_correlation(metric, human, "tau_23", "system") == ((2 - 1) / 3 + -1) / 2
    assert s.segment_correlation(metric, human, "kendall_b", "system") == pytest.approx(1 / 3)
    assert s.segment_correlation(metric, human, "pearson", "system") == pytest.approx(0.5)
    # not grouped: the five rated cells in one vector
    rated_m, rated_h = [1.0, 2.0, 3.0, 2.0, 2.0], [1.0, 3.0, 2.0, 3.0, 1.0]
    assert s.segment_correlation(metric, human, "spearman", "none") == s.spearman(rated_m, rated_h)
    assert s.segment_correlation(metric, human, "kendall_c", "none") == s.kendall(
        rated_m, rated_h, "c")  # fmt: skip
    # a constant side has no Pearson's r, and nothing to average is NaN
    assert math.isnan(s.segment_correlation([[1.0, 1.0]], [[1.0, 2.0]], "pearson", "system"))
    assert math.isnan(s.segment_correlation([[1.0], [2.0]], [[1.0], [nan]], "pearson", "item"))
