"""``bleukit analyze --words compare-mt`` against compare-mt 0.2.10's
default report tables, recorded in tests/golden/compare_mt.json by
tests/golden/make_compare_mt_golden.py (tox -e comparemt checks the same
live): the aggregate BLEU and length ratio, BLEU and counts by reference
length, counts by length difference and by sentence BLEU, word F-measure
by frequency, and the sentence examples (generaltest2022 en-ja repeats
segments, which compare-mt's examples skip), on four language pairs of
tests/data/wmt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleukit.cli import main

HERE = Path(__file__).resolve().parent
GOLDEN = json.loads((HERE / "golden" / "compare_mt.json").read_text("utf-8"))
DATA = HERE / "data" / "wmt"


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["set"])
def test_analyze_gives_compare_mts_tables(case, capsys):
    name = case["set"]
    paths = [str(DATA / f"{name}.ref.A.txt"),
             *(str(DATA / f"{name}.hyp.{s}.txt") for s in case["systems"])]  # fmt: skip
    assert main(["analyze", "-r", paths[0], "-i", *paths[1:], "--words", "compare-mt",
                 "-f", "json"]) == 0  # fmt: skip
    a = json.loads(capsys.readouterr().out)
    for k, row in enumerate(a["aggregate"]):
        assert row["scores"]["compare-mt"] == pytest.approx(case["bleu"][k], abs=1e-12, rel=0)
        assert row["length_ratio"] == case["length_ratio"][k]
    tables = {"length": a["by_reference_length"][0], "lengthdiff": a["by_length_difference"],
              "sentbleu": a["by_sentence_score"]}  # fmt: skip
    for kind, theirs in case["buckets"].items():
        mine = tables[kind]
        assert mine["buckets"] == theirs["labels"], kind
        for system, expected in zip(mine["systems"], theirs["systems"]):
            assert system["counts"] == expected["counts"], kind
            if kind == "length":
                for score, bleu in zip(system["scores"], expected["bleu"]):
                    assert (score is None) == (bleu is None)
                    assert score is None or score == pytest.approx(bleu, abs=1e-12, rel=0)
    for mine, theirs in zip(a["word_accuracy"]["systems"], case["word_f_measure"]):
        assert mine["f_measure"] == theirs
    assert a["sentence_scores"]["variant"] == "compare-mt[smoothing=nltk-method2.v1]"
    # the sentence examples (--examples compare-mt, implied by --words
    # compare-mt): repeated segments dropped, compare-mt's order of ties
    (pair,) = a["pairs"]
    for side in ("ahead", "behind"):
        assert [row["segment"] - 1 for row in pair[side]] == case["examples"][side], side
