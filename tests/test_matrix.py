"""bleukit matrix: scores equal corpus_score, shared work, rankings, formats."""

from __future__ import annotations

import json
import re

import pytest

import bleukit
from bleukit.analysis import matrix
from bleukit.config.model import split_variant_list
from bleukit.engines.compiled import accelerator
from bleukit.metrics.bleu.variant import Variant
from bleukit.report import matrix as matrix_formats

REFS = [["the cat sat on the mat", "a dog barked at the moon", "it rains today"] * 3]
SYSTEMS = [
    ("good", ["the cat sat on the mat", "a dog barked at the moon", "it rains today"] * 3),
    ("fair", ["the cat sat on a mat", "the dog barked at a moon", "it rained today"] * 3),
    ("poor", ["cat mat", "dog moon", "rain"] * 3),
]


def test_chrf_variants_take_part():
    variants = [bleukit.load_metric(n) for n in ("BLEUw4", "chrF", "chrF++")]
    m = matrix.build(variants, SYSTEMS, REFS)
    for v, variant in enumerate(variants):
        for s, (_, hyps) in enumerate(SYSTEMS):
            assert m.scores[v][s] == variant.corpus_score(hyps, REFS).score
    assert m.signatures[1].startswith("bleukit|metric:chrf.v1|nc:6|nw:0|")
    assert m.ranks()[1] == [1, 2, 3]


@pytest.fixture
def variants():
    return [bleukit.load_variant(n) for n in ("BLEUw4", "sacrebleu", "BLEUc18")]


@pytest.mark.parametrize("engine", ["c", "python"])
def test_scores_equal_corpus_score_and_work_is_shared(engine, monkeypatch):
    if engine == "c" and accelerator() is None:
        pytest.skip("bleukit._accel is not built")
    names = ("BLEUw4", "sacrebleu", "BLEUc18", "BLEUw2", "BLEUw4[ref_length=shortest]")
    variants = [bleukit.load_variant(n, engine=engine) for n in names]
    calls = []
    for method in ("segment_stats", "tables"):
        original = getattr(Variant, method)

        def counting(self, *args, _original=original, **kwargs):
            calls.append(self.name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Variant, method, counting)
    m = matrix.build(variants, SYSTEMS, REFS)
    monkeypatch.undo()
    # on every engine, one tokenization and count per tokenizer and system:
    # 13a (the first variant asking, BLEUw4, at order 4 for all four) and char
    assert sorted(calls) == ["BLEUc18"] * 3 + ["BLEUw4"] * 3
    for v, variant in enumerate(variants):
        for s, (_, hyps) in enumerate(SYSTEMS):
            assert m.scores[v][s] == variant.corpus_score(hyps, REFS).score


def test_ranks_tau_and_flips(variants):
    m = matrix.build(variants, SYSTEMS, REFS)
    assert m.ranks()[0] == [1, 2, 3]
    pairs = m.pairs()
    assert [(p["a"], p["b"]) for p in pairs] == [
        ("BLEUw4", "sacrebleu"),
        ("BLEUw4", "BLEUc18"),
        ("sacrebleu", "BLEUc18"),
    ]
    assert pairs[0]["kendall_tau"] == pytest.approx(1.0) and pairs[0]["rank_flips"] == []
    # segments under 18 characters have no 18-grams: BLEUc18 ties fair and poor
    # at 0, and a tie in one ranking only is a flip; tau-b = 2 / sqrt(3 * 2)
    assert m.scores[2][1] == m.scores[2][2] == 0.0
    assert pairs[1]["rank_flips"] == [["fair", "poor"]]
    assert pairs[1]["kendall_tau"] == pytest.approx(2 / 6**0.5)


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "latex"])
def test_formats_carry_scores_and_signatures(variants, fmt):
    m = matrix.build(variants, SYSTEMS, REFS)
    out = matrix_formats.FORMATS[fmt](m, 2)
    if fmt == "json":
        data = json.loads(out)
        assert data["systems"][0]["ranks"] == {"BLEUw4": 1, "sacrebleu": 1, "BLEUc18": 1}
        assert len(data["agreement"]) == 3 and data["variants"][2]["variant"] == "BLEUc18"
        return
    assert f"{m.scores[0][1]:.2f} (2)" in out
    # LaTeX's signatures may break after "|", ":" and inside long runs
    plain = out.replace("\\allowbreak{}", "").replace("\\textbar{}", "|")
    assert "tok:char.v1" in plain
    if fmt == "markdown":
        rows = [r for r in out.splitlines() if r.startswith("|")]
        assert len({len(re.split(r"(?<!\\)\|", r)) for r in rows}) == 1
    if fmt == "latex":
        assert out.count("\\toprule") == out.count("\\bottomrule") == 1
        for line in out.splitlines():
            if line.endswith("\\\\") and " & " in line:
                assert len(re.split(r"(?<!\\)&", line)) == 4


def test_split_variant_list():
    assert split_variant_list("BLEUw4, BLEUw4[max_order=2,lowercase=true],BLEUc18") == [
        "BLEUw4",
        "BLEUw4[max_order=2,lowercase=true]",
        "BLEUc18",
    ]
    with pytest.raises(bleukit.ConfigError):
        split_variant_list(" , ")


def test_a_metric_where_lower_is_better_ranks_the_other_way():
    """An error rate (TER, say: ``Metric.higher_is_better`` False) ranks the
    lowest score first, and agrees with BLEU when it orders systems alike."""
    m = matrix.Matrix(["a", "b", "c"], ["BLEU", "errors"], ["s1", "s2"],
                      [[30.0, 20.0, 10.0], [0.4, 0.5, 0.6]], [True, False])  # fmt: skip
    assert m.ranks() == [[1, 2, 3], [1, 2, 3]]
    (pair,) = m.pairs()
    assert pair["kendall_tau"] == pytest.approx(1.0) and pair["rank_flips"] == []
    flipped = matrix.Matrix(m.systems, m.variants, m.signatures, m.scores, [True, True])
    assert flipped.pairs()[0]["kendall_tau"] == pytest.approx(-1.0)
