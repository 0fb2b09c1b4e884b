"""bleukit/core/dataframes.py and the ``to_frame()`` of every result: a
score, a comparison, a ranking, an analysis's tables and a study, each a
pandas DataFrame holding the same numbers as the result (where pandas is
installed: tox -e dask has it and sets BLEUKIT_REQUIRE_FRAMES=1, which makes
its absence a failure); without pandas, one error saying which extra to
install."""

from __future__ import annotations

import math
import os
import sys

import pytest

import bleukit
from bleukit.core.errors import InputError, MissingDependencyError
from bleukit.core.spec import SignificanceSpec
from bleukit.corpus.systems import collect

REFS = [["the cat sat on the mat", "a dog ran away", "it rained today", "we are here now"]]
HYPS = [
    ("A", ["the cat sat on a mat", "a dog ran", "it rains today", "we are here"]),
    ("B", ["a cat sat on the mat", "the dog ran away", "rain today", "here we are now"]),
    ("C", ["cat mat", "dog", "it rained", "we here"]),
]


@pytest.fixture
def pandas():
    try:
        import pandas
    except ImportError:
        if os.environ.get("BLEUKIT_REQUIRE_FRAMES"):
            raise
        pytest.skip("pandas not installed (tox -e dask)")
    return pandas


def test_without_pandas_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    result = bleukit.load_metric("BLEUw4").corpus_score(HYPS[0][1], REFS)
    with pytest.raises(MissingDependencyError, match=r"pip install 'bleukit\[pandas\]'"):
        result.to_frame()


def test_a_score_is_one_row(pandas):
    for name in ("BLEUw4", "chrF", "TER"):
        result = bleukit.load_metric(name).corpus_score(HYPS[0][1], REFS)
        frame = result.to_frame()
        assert len(frame) == 1 and frame["score"][0] == result.score
        assert set(result.to_dict()) == set(frame.columns)


def test_comparison_and_ranking(pandas):
    from bleukit.significance.paired import compare
    from bleukit.significance.ranking import rank_all

    metric = bleukit.load_metric("chrF")
    stats = collect([metric], HYPS, REFS)
    spec = SignificanceSpec("bs", samples=50, seed=3)
    (comparison,) = compare([metric], stats, spec)
    frame = comparison.to_frame()
    assert list(frame["system"]) == ["A", "B", "C"]
    assert list(frame["baseline"]) == [True, False, False]
    for row, (_, got) in zip(comparison.rows, frame.iterrows()):
        assert got["score"] == row.result.score and got["ci_low"] == row.interval.low
        p = got["p_value"]
        assert math.isnan(p) if row.p_value is None else p == row.p_value
    (ranking,) = rank_all([metric], stats, spec)
    systems = ranking.to_frame()
    assert list(systems["cluster"]) == [ranking.cluster_of(k) + 1 for k in range(3)]
    pairs = ranking.pairs_frame()
    assert len(pairs) == 3 and list(pairs["p_adjusted"]) == [
        ranking.adjusted[a][b] for a in range(3) for b in range(a + 1, 3)
    ]


def test_every_table_of_an_analysis(pandas):
    from bleukit.analysis.profile import FRAMES, analyze_lines

    variants = [bleukit.load_metric("BLEUw4"), bleukit.load_metric("chrF")]
    analysis, _ = analyze_lines(variants, HYPS, REFS)
    aggregate = analysis.to_frame()
    assert list(aggregate.columns) == ["system", "BLEUw4", "chrF", "length_ratio"]
    assert list(aggregate["BLEUw4"]) == list(analysis.aggregate.scores[0])
    for table in FRAMES:
        frame = analysis.to_frame(table)
        assert len(frame) or table in ("ngrams", "segments"), table
    lengths = analysis.to_frame("by_reference_length")
    b = analysis.by_length[1]
    chrf = lengths[lengths["variant"] == "chrF"]
    assert list(chrf["segments"]) == [c for counts in b.counts for c in counts]
    counts = analysis.to_frame("by_length_difference")
    assert counts["segments"].sum() == 3 * 4
    with pytest.raises(InputError, match="analysis table 'words': expected one of aggregate"):
        analysis.to_frame("words")


def test_a_study_is_a_row_per_variant(pandas):
    from bleukit.meta.judgements import Judgements
    from bleukit.meta.study import Settings, run

    chrf, bleu = bleukit.load_metric("chrF"), bleukit.load_metric("BLEUw4")
    stats = collect([chrf, bleu], HYPS, REFS)
    human = {name: tuple(stats.sentence_values(chrf, name)) for name, _ in HYPS}
    study = run([chrf, bleu], stats, Judgements("test", human), Settings(samples=20, trials=20))
    frame = study.to_frame()
    assert list(frame["variant"]) == ["chrF", "BLEUw4"] and list(frame["tested"]) == [True, True]
    for i, v in enumerate(study.variants):
        assert frame["pearson"][i] == v.system["pearson"]
        assert frame["acc_eq_item"][i] == v.segment["acc_eq_item"]
        low, high = v.intervals["pearson"]
        assert (frame["pearson_low"][i], frame["pearson_high"][i]) == (low, high)
    clusters = {s.statistic: s.clusters for s in study.significance if not s.untested}
    assert list(frame["acc_eq_item_cluster"]) == list(clusters["acc_eq_item"])
