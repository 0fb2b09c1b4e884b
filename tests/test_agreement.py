"""Agreement statistics against hand-computed small cases (and one value
NumPy computed once: numpy.corrcoef(x, y)[0, 1] for the vectors below)."""

import pytest

from bleukit.analysis.agreement import (
    agreement,
    cohen_kappa,
    grade,
    kendall_tau_b,
    pearson,
    rank_flips,
    ranks,
)

X = [1.0, 2.0, 3.0, 4.0, 5.5]
Y = [2.0, 1.0, 4.0, 3.0, 6.0]


def test_pearson():
    assert pearson(X, Y) == pytest.approx(0.8483871429665281, abs=1e-12)  # NumPy
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert pearson([1, 1, 1], [1, 2, 3]) is None
    with pytest.raises(ValueError):
        pearson([1], [1])


@pytest.mark.parametrize(
    ("score", "g"),
    [
        (0.0, 0),
        (9.99, 0),
        (10.0, 1),
        (55.0, 5),
        (90.0, 9),
        (99.9, 9),
        (100.0, 9),
        (100.00000000000004, 9),
    ],
)
def test_grades_of_a_tenth(score, g):
    assert grade(score) == g


def test_cohen_kappa():
    # po = 3/4, pe = 1/16 + 2/16 + 2/16 = 5/16, kappa = (3/4 - 5/16) / (11/16)
    assert cohen_kappa([0, 1, 2, 2], [0, 1, 1, 2]) == pytest.approx(7 / 11)
    assert cohen_kappa([1, 2, 3], [1, 2, 3]) == pytest.approx(1.0)
    assert cohen_kappa([4, 4], [4, 4]) is None


def test_kendall_tau_b():
    # 10 pairs: (1,2) and (3,4) discordant, the rest concordant: (8 - 2) / 10
    assert kendall_tau_b(X, Y) == pytest.approx(0.6)
    # one tie in each ranking: 4 / sqrt(5 * 5)
    assert kendall_tau_b([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(0.8)
    assert kendall_tau_b([1, 1], [1, 2]) is None


def test_rank_flips_and_ranks():
    assert rank_flips(["a", "b", "c"], [3, 2, 1], [3, 1, 2]) == [("b", "c")]
    assert rank_flips(["a", "b"], [1, 1], [1, 2]) == [("a", "b")]
    assert ranks([10.0, 30.0, 20.0, 30.0]) == [4, 1, 3, 1]


def test_agreement_bundle():
    a = [10.0, 20.0, 30.0, 40.0]
    lower = [15.0, 25.0, 35.0, 45.0]
    b = [12.0, 26.0, 31.0, 39.0]
    r = agreement(a, b, lower, ["s1", "s2"], [20.0, 30.0], [25.0, 24.0])
    assert r.analogical == 0.75  # 26 > 25
    assert r.between == 0.5  # 12 and 31 lie within [a, lower]
    assert r.flips == [("s1", "s2")] and r.kendall_tau == pytest.approx(-1.0)
    d = r.to_dict()
    assert d["systems"][0] == {
        "system": "s1",
        "score_a": 20.0,
        "score_b": 25.0,
        "rank_a": 2,
        "rank_b": 1,
    }


# ------------------------------------------------------------- the study

REFS = [["the cat sat on the mat", "a dog barked at the moon", "it rains today", "go home"]]
SYSTEMS = [
    ("good", ["the cat sat on the mat", "a dog barked at the moon", "it rains today", "go"]),
    ("fair", ["the cat sat on a mat", "the dog barked at a moon", "it rained today", "home"]),
    ("poor", ["cat mat", "dog moon", "rain", "go home now"]),
]


def test_agree_computes_the_statistics_from_each_variant_scores():
    import bleukit
    from bleukit.analysis.agreement import agree

    a, b = bleukit.load_variant("sacrebleu"), bleukit.load_variant("BLEUc18", smoothing="exp")
    study = agree(a, b, REFS, SYSTEMS)
    lower = a.with_overrides(max_order=3)
    sent = {
        v.name: [r.score for _, hyps in SYSTEMS for r in v.sentence_scores(hyps, REFS)]
        for v in (a, b, lower)
    }
    corpus = {v.name: [v.corpus_score(h, REFS).score for _, h in SYSTEMS] for v in (a, b)}
    expected = agreement(
        sent[a.name], sent[b.name], sent[lower.name], ["good", "fair", "poor"],
        corpus[a.name], corpus[b.name],
    )  # fmt: skip
    assert study.result == expected
    assert study.lower_a is not None and study.lower_a.name == lower.name
    assert study.search is None and study.best_orders() == {}
    data = study.to_dict()
    assert data["signature_b"] == b.signature(1).long and data["lower_order_a"] == lower.name


def test_agree_searches_orders_from_one_set_of_statistics():
    import bleukit
    from bleukit.analysis.agreement import agree

    a, b = bleukit.load_variant("sacrebleu"), bleukit.load_variant("BLEUc18", smoothing="exp")
    study = agree(a, b, REFS, SYSTEMS, orders=range(2, 6))
    assert sorted(study.search) == [2, 3, 4, 5]
    assert study.search[5] == agree(a, b.with_overrides(max_order=5), REFS, SYSTEMS).result
    best = study.best_orders()
    assert set(best) == {"pearson", "kappa", "between", "kendall_tau"}
    pearson_by_order = {m: r.pearson for m, r in study.search.items()}
    assert best["pearson"] == max(pearson_by_order, key=lambda m: (pearson_by_order[m], -m))


def test_agree_needs_two_segments():
    import bleukit
    from bleukit.analysis.agreement import agree
    from bleukit.core.errors import InputError

    a = bleukit.load_variant("BLEUw4")
    with pytest.raises(InputError, match="at least two segments"):
        agree(a, a, [["x"]], [("s", ["x"])])
