"""The hf-bleu and hf-bleu-smooth variants equal HF evaluate's ``bleu``
(tensorflow/nmt's compute_bleu on evaluate's 13a tokens) on the WMT data
and on small examples (tests/golden/hf_bleu.json, from
tests/golden/make_hf_bleu_golden.py run on evaluate's own nmt_bleu.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bleukit

GOLDEN = json.loads((Path(__file__).parent / "golden" / "hf_bleu.json").read_text("utf-8"))
TOL = 1e-9


def _id(case: dict) -> str:
    refs = "+".join(case["refs"])
    return f"{case['set']}|{case['system']}|{refs}|{case['variant']}|{case['max_order']}"


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=_id)
def test_corpus_bleu_equals_hf_evaluate(case, wmt):
    variant = bleukit.load_variant(case["variant"], max_order=case["max_order"])
    refs = wmt.prepared(variant, case["set"], case["refs"])
    result = variant.corpus_score(wmt.hyps(case["set"], case["system"]), refs)
    assert result.score == pytest.approx(100 * case["bleu"], abs=TOL, rel=0)
    assert (result.sys_len, result.ref_len) == (case["sys_len"], case["ref_len"])


@pytest.mark.golden
@pytest.mark.parametrize("example", GOLDEN["examples"], ids=lambda e: f"{e['hyp']}|{e['smooth']}")
def test_examples_equal_hf_evaluate(example):
    variant = bleukit.load_variant("hf-bleu-smooth" if example["smooth"] else "hf-bleu")
    score = variant.sentence_score(example["hyp"], example["refs"]).score
    assert score == pytest.approx(100 * example["bleu"], abs=TOL, rel=0)


def test_add_one_on_every_order_is_a_new_smoothing():
    """The issue's case: no smoothing sacrebleu or NLTK has gives 70.7107."""
    smooth = bleukit.load_variant("hf-bleu-smooth")
    assert smooth.sentence_score("a b c", ["a b d"]).score == pytest.approx(70.7107, abs=5e-5)
    others = [
        bleukit.load_variant("hf-bleu", smoothing=s).sentence_score("a b c", ["a b d"]).score
        for s in ("add-k.v1", "exp.v1", "floor.v1", "nltk-method2.v1")
    ]
    assert all(abs(o - 70.7107) > 1 for o in others)
    assert "add-one-all.v1" in smooth.signature(1).long
