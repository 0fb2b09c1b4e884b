"""All-pairs significance (bleukit/significance/ranking.py) on WMT21 en-de:
each pair's p-value is the baseline test's with the earlier system as
baseline, the matrix is symmetric, the correction and the clusters are the
ones multiple.py gives, lower-is-better metrics rank lowest first, and the
engines agree."""

from __future__ import annotations

import importlib.util

import pytest

import bleukit
from bleukit.core.spec import SignificanceSpec
from bleukit.significance import paired_test
from bleukit.significance.multiple import adjust, clusters
from bleukit.significance.ranking import rank

SET = "newstest2021.en-de"
NAMES = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF"]
SEGMENTS = 300
HAS_NUMPY = importlib.util.find_spec("numpy") is not None


def systems(variant, wmt):
    refs = variant.prepare_references([r[:SEGMENTS] for r in wmt.refs(SET, ["A"])])
    return [(n, variant.segment_stats(wmt.hyps(SET, n)[:SEGMENTS], refs)[0]) for n in NAMES]


def spec(test: str, compat: str = "none") -> SignificanceSpec:
    return SignificanceSpec(test, samples=200 if test == "bs" else 300, seed=7, compat=compat)


@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("variant", ["sacrebleu", "chrF", "TER"])
def test_each_pair_is_the_baseline_test_of_its_earlier_system(test, variant, wmt):
    metric = bleukit.load_metric(variant)
    stats = systems(metric, wmt)
    ranking = rank(metric, stats, 1, spec(test))
    n = len(stats)
    for i in range(n - 1):
        rows = paired_test(metric, stats[i:], 1, spec(test))
        for j, row in enumerate(rows[1:], i + 1):
            assert ranking.p_values[i][j] == ranking.p_values[j][i] == row.p_value
    assert all(ranking.p_values[i][i] is None for i in range(n))
    against_first = paired_test(metric, stats, 1, spec(test))
    for s, row in zip(ranking.systems, against_first):
        assert s.system == row.system and s.result.score == row.result.score
        assert s.p_value is None and s.interval == row.interval


def test_correction_and_clusters_are_multiple_py_s(wmt):
    metric = bleukit.load_metric("sacrebleu")
    for correction in ("holm", "bonferroni", "bh", "none"):
        r = rank(metric, systems(metric, wmt), 1, spec("bs"), correction)
        n = len(r.systems)
        keys = [(i, j) for i in range(n) for j in range(i + 1, n)]
        expected = adjust([r.p_values[i][j] for i, j in keys], correction)
        assert [r.adjusted[i][j] for i, j in keys] == expected
        scores = [s.result.score for s in r.systems]
        assert list(r.clusters) == clusters(scores, r.significant, True)
        for k, cluster in enumerate(r.clusters):
            assert all(r.cluster_of(m) == k for m in cluster.members)
    # a stricter correction never splits more
    holm = rank(metric, systems(metric, wmt), 1, spec("bs"), "holm")
    none = rank(metric, systems(metric, wmt), 1, spec("bs"), "none")
    assert len(holm.clusters) <= len(none.clusters)


def test_ter_ranks_the_lowest_first(wmt):
    metric = bleukit.load_metric("TER")
    r = rank(metric, systems(metric, wmt), 1, spec("bs"))
    order = [m for c in r.clusters for m in c.members]
    scores = [r.systems[m].result.score for m in order]
    assert scores == sorted(scores)
    assert not r.higher_is_better
    best, worst = order[0], order[-1]
    assert not r.worse(best, worst) and (r.worse(worst, best) == r.significant(best, worst))


def test_engines_give_the_same_ranking(wmt):
    a = bleukit.load_variant("sacrebleu", engine="python")
    b = bleukit.load_variant("sacrebleu", engine="auto")
    ra, rb = (rank(v, systems(v, wmt), 1, spec("bs")) for v in (a, b))
    assert ra.p_values == rb.p_values and ra.clusters == rb.clusters


@pytest.mark.skipif(not HAS_NUMPY, reason="--compat sacrebleu needs NumPy")
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_sacrebleu_mode_is_its_paired_test_per_baseline(test, wmt):
    metric = bleukit.load_metric("sacrebleu")
    stats = systems(metric, wmt)
    r = rank(metric, stats, 1, spec(test, "sacrebleu"))
    for i in range(len(stats) - 1):
        rows = paired_test(metric, stats[i:], 1, spec(test, "sacrebleu"))
        assert [r.p_values[i][j] for j in range(i + 1, len(stats))] == [
            row.p_value for row in rows[1:]
        ]


def test_bad_input_is_one_error():
    metric = bleukit.load_metric("sacrebleu")
    one = metric.segment_stats(["a b c"], [["a b c"]])[0]
    with pytest.raises(bleukit.BleukitError, match="at least one more system"):
        rank(metric, [("a", one)], 1, spec("bs"))
    with pytest.raises(bleukit.BleukitError, match="unknown correction"):
        rank(metric, [("a", one), ("b", one)], 1, spec("bs"), "sidak")  # type: ignore[arg-type]
