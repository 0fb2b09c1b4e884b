"""bleukit/meta/statistics.py against scipy.stats itself, to 1e-12, on
random inputs (ties and near-constant vectors included) and on the WMT21
MQM data in tests/data/mqm; the exact p-values of
bleukit/meta/signflip.py against scipy's binomial tails. Opt-in:
``tox -e scipy``."""

from __future__ import annotations

import itertools
import math
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleukit.meta import statistics as s
from bleukit.meta.judgements import read_judgements

stats = pytest.importorskip("scipy.stats", reason="tox -e scipy installs scipy")

MQM = Path(__file__).resolve().parents[1] / "tests" / "data" / "mqm"


def theirs(name, x, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a constant input: scipy warns and returns nan
        f = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}
        return float(f[name](x, y, **kwargs)[0])


def same(ours, scipy_value):
    if math.isnan(scipy_value):
        return math.isnan(ours)
    return abs(ours - scipy_value) <= 1e-12


VALUES = st.one_of(
    st.floats(-1e3, 1e3, allow_nan=False), st.integers(-4, 4).map(float), st.just(0.1)
)


@settings(max_examples=1000, deadline=None)
@given(st.data())
def test_correlations_equal_scipys(data):
    n = data.draw(st.integers(2, 40))
    x = data.draw(st.lists(VALUES, min_size=n, max_size=n))
    y = data.draw(st.lists(VALUES, min_size=n, max_size=n))
    assert same(s.pearson(x, y), theirs("pearson", x, y))
    assert same(s.spearman(x, y), theirs("spearman", x, y))
    assert same(s.kendall(x, y), theirs("kendall", x, y))
    assert same(s.kendall(x, y, "c"), theirs("kendall", x, y, variant="c"))


@pytest.mark.parametrize("pair", ["ende", "zhen"])
def test_on_the_wmt21_mqm_data(pair):
    """Every system's segment scores against every other's (a stand-in
    for metric and human vectors with MQM's many ties), and the system
    means against their ranks."""
    j = read_judgements(str(MQM / f"mqm_newstest2021_{pair}.avg_seg_scores.tsv"))
    rated = [[v for v in j.scores[name] if v is not None] for name in j.systems]
    for x, y in itertools.pairwise(rated):
        for name in ("pearson", "spearman", "kendall"):
            assert same(getattr(s, name)(x, y), theirs(name, x, y))
        assert same(s.kendall(x, y, "c"), theirs("kendall", x, y, variant="c"))
    means = [j.system_score(name) for name in j.systems]
    order = list(range(len(means)))
    for name in ("pearson", "spearman", "kendall"):
        assert same(getattr(s, name)(means, order), theirs(name, means, order))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2 * 10**8), st.floats(-8, 8), st.data())
def test_sign_flip_p_values_are_scipys_binomial_tails(n, z, data):
    """The exact p-value of the pairwise permutation test (a binomial tail)
    equals scipy's survival function to 1e-9 relative, up to a hundred
    million terms and eight standard deviations either side."""
    from bleukit.meta.signflip import sign_flip_p_value

    wins = min(n, max(0, round(n / 2 + z * math.sqrt(n) / 2)))
    expected = float(stats.binom.sf(wins - 1, n, 0.5))
    assert sign_flip_p_value(wins, n - wins) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@settings(max_examples=500, deadline=None)
@given(st.floats(-60, 60), st.integers(1, 100), st.floats(0, 1))
def test_t_tail_is_scipys(t, df, fraction):
    """Student's t survival function of bleukit/meta/williams.py (the
    Williams test's tail) equals scipy's to 1e-12 up to 100 degrees of
    freedom (a study of up to 103 systems)."""
    from bleukit.meta.williams import t_sf

    df_value = max(1.0, df - fraction)
    assert t_sf(t, df_value) == pytest.approx(float(stats.t.sf(t, df_value)), abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(VALUES, VALUES, VALUES), min_size=4, max_size=40))
def test_williams_is_mt_metrics_evals_with_scipys_tail(rows):
    """The Williams test on three vectors (humans, metric A, metric B) as
    mt-metrics-eval's ``WilliamsSigDiff`` computes it with scipy: the three
    Pearson correlations, then ``scipy.stats.t.sf`` of |t| at n - 3."""
    from bleukit.meta.williams import williams_p

    human, a, b = (list(col) for col in zip(*rows))
    r12, r13 = theirs("pearson", human, a), theirs("pearson", human, b)
    r23 = theirs("pearson", a, b)
    # the correlations are scipy's (test_correlations_equal_scipys checks bleukit's
    # equal them): a near-singular case amplifies their last bits
    ours = williams_p(r12, r13, r23, len(rows))
    if any(math.isnan(r) for r in (r12, r13, r23)):
        assert math.isnan(ours)
        return
    n = len(rows)
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r23 * r13
    squared = 2 * (n - 1) / (n - 3) * k + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3
    if squared <= 1e-12:
        return  # A and B are one metric: mt-metrics-eval divides by zero
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(squared)
    assert ours == pytest.approx(float(stats.t.sf(abs(t), n - 3)), abs=1e-9)


CELL = st.one_of(st.just(math.nan), st.integers(0, 3).map(float), st.floats(-5, 5))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_segment_correlations_are_mt_metrics_evals_average_correlation(data):
    """statistics.segment_correlation equals mt-metrics-eval's
    AverageCorrelation with scipy's functions (macro average, None-filtered
    groups of at least two, a NaN value dropped; Pearson and Spearman NaN on
    a constant side, as it sets them), to 1e-12, in every grouping; tau_23
    from its KendallVariants formula over scipy-counted pairs."""
    systems, items = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 6))
    shape = st.lists(st.lists(CELL, min_size=items, max_size=items),
                     min_size=systems, max_size=systems)  # fmt: skip
    metric = data.draw(shape)
    human = data.draw(shape)

    def groups(by):
        if by == "none":
            return [([x for r in metric for x in r], [x for r in human for x in r])]
        if by == "system":
            return list(zip(metric, human))
        return list(zip(zip(*metric), zip(*human)))

    def tau_23(m, h):
        pairs = list(itertools.combinations(range(len(m)), 2))
        score = 0
        for i, j in pairs:
            dm, dh = m[i] - m[j], h[i] - h[j]
            if (dm == 0 and dh == 0) or (dm != 0 and dh != 0 and (dm > 0) == (dh > 0)):
                score += 1
            else:
                score -= 1
        return score / len(pairs)

    def expected(name, by):
        values = []
        for m, h in groups(by):
            kept = [(a, b) for a, b in zip(m, h) if not (math.isnan(a) or math.isnan(b))]
            if len(kept) < 2:
                continue
            x, y = [a for a, _ in kept], [b for _, b in kept]
            if name in ("pearson", "spearman") and (len(set(x)) < 2 or len(set(y)) < 2):
                continue
            if name == "tau_23":
                values.append(tau_23(x, y))
                continue
            kwargs = {"variant": name[-1]} if name.startswith("kendall") else {}
            value = theirs(name.split("_")[0], x, y, **kwargs)
            if not math.isnan(value):
                values.append(value)
        return sum(values) / len(values) if values else math.nan

    for name in s.SEGMENT_CORRELATIONS:
        for by in s.GROUPINGS:
            assert same(s.segment_correlation(metric, human, name, by), expected(name, by)), (
                name, by)  # fmt: skip
