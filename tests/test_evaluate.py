"""The HF evaluate module shipped in bleukit (bleukit/integrations/
evaluate/bleukit_bleu.py), loaded offline with evaluate.load, returns what
evaluate's own sacrebleu module returns: that module transposes the
references and calls sacrebleu.corpus_bleu with its arguments, so the
oracle here is sacrebleu 2.6.0 called the same way, live. tox -e evaluate
installs evaluate and sacrebleu and sets BLEUKIT_REQUIRE_EVALUATE=1, which
makes their absence a failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import bleukit
from bleukit.integrations import evaluate_path
from bleukit.metrics import parse_any_signature

if not os.environ.get("BLEUKIT_REQUIRE_EVALUATE"):
    pytest.importorskip("evaluate", reason="evaluate not installed (tox -e evaluate)")
    pytest.importorskip("sacrebleu", reason="sacrebleu not installed (tox -e evaluate)")

import evaluate
import sacrebleu

DATA = Path(__file__).parent / "data" / "wmt"


def lines(name: str, n: int = 300) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").split("\n")[:n]


HYP = lines("newstest2021.en-de.hyp.Online-W.txt")
REFS = [list(r) for r in zip(lines("newstest2021.en-de.ref.A.txt"),
                             lines("newstest2021.en-de.ref.C.txt"))]  # fmt: skip


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(evaluate_path())


def transposed(references):
    """References per prediction as sacrebleu's streams, as evaluate's
    sacrebleu and chrf modules transpose them."""
    if isinstance(references[0], str):
        references = [[r] for r in references]
    return [[refs[i] for refs in references] for i in range(len(references[0]))]


def sacrebleu_dict(predictions, references, **kwargs):
    """What evaluate's sacrebleu module computes (its documented steps)."""
    streams = transposed(references)
    tokenize = kwargs.pop("tokenize", None)
    out = sacrebleu.corpus_bleu(predictions, streams, **kwargs,
                                **({"tokenize": tokenize} if tokenize else {}))  # fmt: skip
    return {"score": out.score, "counts": out.counts, "totals": out.totals,
            "precisions": out.precisions, "bp": out.bp, "sys_len": out.sys_len,
            "ref_len": out.ref_len}  # fmt: skip


CASES = [
    ({}, "WMT21 en-de, two references"),
    ({"lowercase": True}, "lowercase"),
    ({"tokenize": "intl"}, "intl"),
    ({"tokenize": "char"}, "char"),
    ({"tokenize": "none", "smooth_method": "floor", "smooth_value": 0.2}, "floor"),
    ({"smooth_method": "add-k", "use_effective_order": True}, "add-k"),
]


@pytest.mark.parametrize(("kwargs", "what"), CASES, ids=[c[1] for c in CASES])
def test_compute_equals_evaluates_sacrebleu_module(metric, kwargs, what):
    got = metric.compute(predictions=HYP, references=REFS, **kwargs)
    expected = sacrebleu_dict(HYP, REFS, **dict(kwargs))
    assert got.pop("signature").startswith("bleukit|")
    assert got == expected


def test_edge_cases(metric):
    # one reference per prediction as strings, an empty prediction, and an
    # empty reference
    predictions = ["hello there general kenobi", "", "foo bar foobar"]
    references = ["hello there general kenobi", "nothing here", ""]
    got = metric.compute(predictions=predictions, references=references)
    got.pop("signature")
    assert got == sacrebleu_dict(predictions, references)
    with pytest.raises(ValueError, match="same number of references"):
        metric.compute(predictions=["a", "b"], references=[["a", "b"], ["c"]])


def test_any_bleukit_variant_and_its_signature(metric):
    got = metric.compute(predictions=HYP, references=REFS, variant="BLEUc18")
    expected = bleukit.load_variant("BLEUc18").corpus_score(HYP, [list(s) for s in zip(*REFS)])
    assert got["score"] == expected.score and got["signature"] == expected.signature.long
    parsed = bleukit.parse_signature(got["signature"])
    assert parsed.config.max_order == 18
    with pytest.raises(bleukit.InputError, match="drop lowercase"):
        metric.compute(predictions=HYP, references=REFS, variant="BLEUc18", lowercase=True)


def test_the_documented_example_runs():
    import subprocess
    import sys

    script = (
        Path(__file__).parents[1] / "docs" / "examples" / "integrations" / "evaluate_offline.py"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    predictions = ["hello there general kenobi", "on our way to ankh morpork"]
    references = [["hello there general kenobi", "hello there !"],
                  ["goodbye ankh morpork", "ankh morpork"]]  # fmt: skip
    words = sacrebleu_dict(predictions, references)
    streams = [list(s) for s in zip(*references)]
    chars = bleukit.load_variant("BLEUc18").corpus_score(predictions, streams)
    first, second, third = out.stdout.splitlines()
    assert first.startswith(f"{round(words['score'], 1)} bleukit|tok:13a.v1|")
    assert second == str(round(chars.score, 2))
    # evaluate's chrf module documents 82.87 for the example's chrF++ (its example 2)
    assert third == "82.87"


@pytest.fixture(scope="module")
def chrf_metric():
    return evaluate.load(evaluate_path("chrf"))


def sacrebleu_chrf_dict(predictions, references, **kwargs):
    """What evaluate's chrf module computes (its documented steps)."""
    out = sacrebleu.CHRF(**kwargs).corpus_score(predictions, transposed(references))
    return {"score": out.score, "char_order": out.char_order, "word_order": out.word_order,
            "beta": out.beta}  # fmt: skip


CHRF_CASES = [
    ({}, "chrF"),
    ({"word_order": 2}, "chrF++"),
    ({"word_order": 2, "lowercase": True}, "lowercase"),
    ({"whitespace": True, "beta": 1}, "whitespace beta 1"),
    ({"eps_smoothing": True, "char_order": 4}, "eps order 4"),
]


@pytest.mark.parametrize(("kwargs", "what"), CHRF_CASES, ids=[c[1] for c in CHRF_CASES])
def test_chrf_compute_equals_evaluates_chrf_module(chrf_metric, kwargs, what):
    got = chrf_metric.compute(predictions=HYP, references=REFS, **kwargs)
    signature = got.pop("signature")
    assert got == sacrebleu_chrf_dict(HYP, REFS, **kwargs)
    config = parse_any_signature(signature).config
    assert (config.char_order, config.word_order, config.beta) == (
        got["char_order"], got["word_order"], got["beta"])  # fmt: skip


def test_chrf_edge_cases_and_variants(chrf_metric, metric):
    predictions = ["hello there general kenobi", "", "foo bar foobar"]
    references = ["hello there general kenobi", "nothing here", ""]
    got = chrf_metric.compute(predictions=predictions, references=references)
    got.pop("signature")
    assert got == sacrebleu_chrf_dict(predictions, references)
    with pytest.raises(ValueError, match="same number of references"):
        chrf_metric.compute(predictions=["a", "b"], references=[["a", "b"], ["c"]])
    got = chrf_metric.compute(predictions=HYP, references=REFS, variant="chrF++")
    expected = bleukit.load_metric("chrF++").corpus_score(HYP, [list(s) for s in zip(*REFS)])
    assert got["score"] == expected.score and got["signature"] == expected.signature.long
    with pytest.raises(bleukit.InputError, match="drop beta"):
        chrf_metric.compute(predictions=HYP, references=REFS, variant="chrF", beta=1)
    with pytest.raises(bleukit.InputError, match="scored as BLEU, not chrF"):
        chrf_metric.compute(predictions=HYP, references=REFS, variant="sacrebleu")
    with pytest.raises(bleukit.InputError, match="scored as chrF2, not BLEU"):
        metric.compute(predictions=HYP, references=REFS, variant="chrF")
    with pytest.raises(bleukit.InputError, match="unknown argument"):
        chrf_metric.compute(predictions=HYP, references=REFS, smooth_method="exp")
