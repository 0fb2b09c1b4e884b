"""``mteval-bleu``: NIST's mteval-v13a.pl BLEU, smoothing included, on
small corpora where its smoothing shows (tests/golden/mteval_bleu.json, from
tests/golden/make_mteval_bleu_golden.py running the script itself; the WMT
cases of tests/golden/wmt_oracle.json check it on real data). BLEUw4 was
documented as mteval's BLEU, which holds only where every order has a match:
mteval gives an order without a match 1/2^k and an order without n-grams
precision 1 (``t2t-exp.v1``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bleukit

GOLDEN = json.loads((Path(__file__).parent / "golden" / "mteval_bleu.json").read_text("utf-8"))
TOL = 1e-9


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['name']}|{c['cased']}")
def test_mteval_bleu_equals_mteval_v13a(case):
    variant = bleukit.load_variant(
        "mteval-bleu", **({} if case["cased"] else {"lowercase": "ascii"})
    )
    score = variant.corpus_score(case["hyps"], case["refs"]).score
    assert score == pytest.approx(100 * case["bleu"], abs=TOL, rel=0)


def test_bleuw4_is_mteval_only_where_every_order_has_a_match():
    """The doc's old claim, and where it fails (mteval prints 0.2141 where
    BLEUw4 gives 0)."""
    differ = []
    for case in GOLDEN["cases"]:
        kw = {} if case["cased"] else {"lowercase": "ascii"}
        w4 = bleukit.load_variant("BLEUw4", **kw).corpus_score(case["hyps"], case["refs"])
        if abs(w4.score - 100 * case["bleu"]) > TOL:
            differ.append(case["name"])
            assert min(w4.counts) == 0 or min(w4.totals) == 0
    assert "no 3-gram or 4-gram match" in differ and "every order matched" not in differ


def test_mteval_bleu_is_bleuw4_with_mtevals_smoothing():
    mteval, w4 = bleukit.load_variant("mteval-bleu"), bleukit.load_variant("BLEUw4")
    fields = mteval.config.scoring_dict()
    assert fields == {**w4.config.scoring_dict(), "smoothing": "t2t-exp.v1"}
    assert mteval.signature(1).sacrebleu is None  # sacrebleu has no such smoothing
