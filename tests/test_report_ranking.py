"""All-pairs significance as text, Markdown, LaTeX, JSON and CSV
(bleukit/report/ranking.py): every format carries the same ranks, raw and
corrected p-values, method and signature; the matrix is ordered best first."""

from __future__ import annotations

import csv
import io
import json

import pytest

import bleukit
from bleukit.core.spec import SignificanceSpec
from bleukit.report import ranking as report
from bleukit.significance.multiple import adjust
from bleukit.significance.ranking import rank

REF = ["the cat sat on the mat", "hello world , how are you ?", "it rains today"] * 6
SYSTEMS = {
    "base": ["the cat sat on a mat", "hello world how are you", "it rains"] * 6,
    "good": REF,
    "bad": ["a cat", "world", "rain"] * 6,
    "also_good": ["the cat sat on the mat", "hello world , how are you ?", "it rains"] * 6,
}


@pytest.fixture(scope="module", params=["BLEUw4", "TER"])
def ranking(request):
    metric = bleukit.load_metric(request.param)
    refs = metric.prepare_references([REF])
    stats = [(name, metric.segment_stats(h, refs)[0]) for name, h in SYSTEMS.items()]
    return rank(metric, stats, 1, SignificanceSpec("bs", samples=1000, seed=3), "bonferroni")


def test_best_first_follows_the_clusters(ranking):
    order = report.best_first(ranking)
    assert sorted(order) == list(range(len(SYSTEMS)))
    scores = [ranking.systems[i].result.score for i in order]
    assert scores == sorted(scores, reverse=ranking.higher_is_better)
    assert ranking.systems[order[-1]].system == "bad"


def test_text_has_ranks_matrix_method_and_signature(ranking):
    out = report.text([ranking])
    lines = out.splitlines()
    assert lines[0].split() == ["#", "Rank", "System", ranking.variant, "95%", "CI"]
    order = report.best_first(ranking)
    assert lines[5].split()[:3] == ["#4", ranking.clusters[-1].rank, "bad"]
    assert ranking.significant(order[-1], order[0])
    # the matrix, best first: "-" on the diagonal, "*" where significant
    top = next(k for k, line in enumerate(lines) if line.startswith("p (Bonferroni-corrected)"))
    assert lines[top].split()[2:] == ["#1", "#2", "#3", "#4"]
    for k, i in enumerate(order):
        cells = lines[top + 2 + k].split()
        expected = ["-" if i == j else f"{ranking.adjusted[i][j]:.4f}" +
                    ("*" if ranking.significant(i, j) else "") for j in order]  # fmt: skip
        assert cells == [f"#{k + 1}", *expected]
    assert "pairs by paired bootstrap resampling, 1000 samples, seed 3" in out
    assert "p-values Bonferroni-corrected" in out
    assert ranking.signature.long in out


def test_json_holds_every_pair_raw_and_corrected(ranking):
    (data,) = json.loads(report.as_json([ranking]))
    n = len(SYSTEMS)
    assert data["variant"] == ranking.variant and data["correction"] == "bonferroni"
    assert data["signature"] == ranking.signature.long
    assert len(data["pairs"]) == n * (n - 1) // 2
    raw = [p["p_value"] for p in data["pairs"]]
    assert [p["p_adjusted"] for p in data["pairs"]] == adjust(raw, "bonferroni")
    assert all(p["significant"] == (p["p_adjusted"] < 0.05) for p in data["pairs"])
    names = [s["system"] for s in data["systems"]]
    assert sorted(names) == sorted(SYSTEMS) and names[-1] == "bad"
    assert [s["cluster"] for s in data["systems"]] == sorted(s["cluster"] for s in data["systems"])
    assert all(s["ci"] is not None for s in data["systems"])


def test_csv_is_the_json_s_pairs_with_ranks(ranking):
    rows = list(csv.DictReader(io.StringIO(report.as_csv([ranking, ranking]))))
    (data,) = json.loads(report.as_json([ranking]))
    assert len(rows) == 2 * len(data["pairs"])
    rank_of = {s["system"]: s["rank"] for s in data["systems"]}
    for row, pair in zip(rows, data["pairs"]):
        assert (row["system_a"], row["system_b"]) == (pair["system_a"], pair["system_b"])
        assert float(row["p_adjusted"]) == pair["p_adjusted"]
        assert row["rank_a"] == rank_of[row["system_a"]]
        assert row["correction"] == "bonferroni" and row["signature"] == data["signature"]


def test_markdown_table(ranking):
    md = report.markdown([ranking])
    assert md.startswith(f"| # | Rank | System | {ranking.variant} | 95% CI |")
    assert "| p (Bonferroni-corrected) | #1 | #2 | #3 | #4 |" in md
