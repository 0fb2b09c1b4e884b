"""Other libraries' BLEU, recorded by tests/golden/make_library_bleu_golden.py
from their own source on the WMT data: torchtext's ``bleu_score`` (the
``torchtext`` variant and ``bleukit.compat.torchtext``), tensor2tensor's
``bleu_hook.bleu_wrapper`` (``t2t-bleu``) and NLTK's ``auto_reweigh``
(``nltk-auto-reweigh``).

torchtext computes in float32 and tensor2tensor returns a float32, so those
two agree to float32 precision: torchtext to a relative 1e-6 (its float32
logarithms are not reproducible bit for bit), tensor2tensor exactly once
bleukit's float64 score is rounded to float32."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

import bleukit
from bleukit.compat import torchtext

GOLDEN = Path(__file__).parent / "golden"
TORCHTEXT = json.loads((GOLDEN / "torchtext_bleu.json").read_text("utf-8"))
T2T = json.loads((GOLDEN / "t2t_bleu.json").read_text("utf-8"))
NLTK = json.loads((GOLDEN / "nltk_auto_reweigh.json").read_text("utf-8"))
#: torchtext's float32 arithmetic: the largest relative difference seen is 3.3e-7
FLOAT32_REL = 1e-6
TOL = 1e-9


def float32(x: float) -> float:
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _id(case: dict) -> str:
    extra = case.get("weights", case.get("case_sensitive"))
    return f"{case['set']}|{case['system']}|{'+'.join(case['refs'])}|{extra}"


def _torchtext_variant(weights: list[float], **overrides) -> bleukit.Variant:
    uniform = len(set(weights)) == 1
    return bleukit.load_variant(
        "torchtext",
        max_order=len(weights),
        weights="uniform" if uniform else tuple(weights),
        **overrides,
    )


@pytest.mark.golden
@pytest.mark.parametrize("case", TORCHTEXT["cases"], ids=_id)
def test_torchtext_variant_equals_torchtext(case, wmt):
    variant = _torchtext_variant(case["weights"])
    refs = wmt.prepared(variant, case["set"], case["refs"])
    score = variant.corpus_score(wmt.hyps(case["set"], case["system"]), refs).score / 100
    if case["bleu"] == 0:
        assert score == 0
    else:
        assert score == pytest.approx(case["bleu"], rel=FLOAT32_REL, abs=0)


def test_torchtext_tie_rule_is_needed(wmt):
    """With two references the first-listed tie rule changes the score by
    far more than float32 error: closest.v1 (ties to the shorter) fails."""
    differ = 0
    for case in TORCHTEXT["cases"]:
        if len(case["refs"]) < 2 or case["bleu"] == 0:
            continue
        variant = _torchtext_variant(case["weights"], ref_length="closest.v1")
        refs = wmt.prepared(variant, case["set"], case["refs"])
        score = variant.corpus_score(wmt.hyps(case["set"], case["system"]), refs).score / 100
        differ += abs(score - case["bleu"]) > 100 * FLOAT32_REL * case["bleu"]
    assert differ >= 30


@pytest.mark.golden
@pytest.mark.parametrize("example", TORCHTEXT["examples"], ids=lambda e: f"{e['hyp']}|{e['refs']}")
def test_torchtext_examples(example):
    tokens = [[r.split() for r in example["refs"]]]
    ours = torchtext.bleu_score([example["hyp"].split()], tokens)
    assert ours == pytest.approx(example["bleu"], rel=FLOAT32_REL, abs=0)


@pytest.mark.golden
@pytest.mark.parametrize(
    "case", [c for c in TORCHTEXT["cases"] if c["system"] == "Facebook-AI"], ids=_id
)
def test_torchtext_compat_on_token_lists(case, wmt):
    hyps = [h.split() for h in wmt.hyps(case["set"], case["system"])]
    refs = [[r.split() for r in seg] for seg in zip(*wmt.refs(case["set"], case["refs"]))]
    ours = torchtext.bleu_score(hyps, refs, len(case["weights"]), case["weights"])
    assert ours == pytest.approx(case["bleu"], rel=FLOAT32_REL, abs=0)


def test_torchtext_docstring_example():
    candidates = [["My", "full", "pytorch", "test"], ["Another", "Sentence"]]
    references = [
        [["My", "full", "pytorch", "test"], ["Completely", "Different"]],
        [["No", "Match"]],
    ]
    # torchtext's docstring prints 0.8408964276313782 (float32 of 2 ** -0.25)
    assert torchtext.bleu_score(candidates, references) == pytest.approx(2**-0.25, abs=1e-15)


def test_torchtext_tokens_match_as_wholes():
    """A token is one symbol whatever it holds (torchtext splits one with a
    space into two); tokens are not lowercased or split further."""
    # 1 up to sacrebleu's arithmetic: exp(mean(log 100)) / 100
    one = pytest.approx(1.0, abs=1e-12)
    assert torchtext.bleu_score([["a b", "c", "d", "e"]], [[["a b", "c", "d", "e"]]]) == one
    assert torchtext.bleu_score([["a", "b", "c", "d"]], [[["A", "b", "c", "d"]]]) == 0.0
    assert torchtext.bleu_score([["a", "b"]], [[["a", "b"]]], 2, [0.5, 0.5]) == one


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: torchtext.bleu_score([["a"]], [[["a"]]], 3), "max_n is 3 but there are 4 weights"),
        (lambda: torchtext.bleu_score([["a"]], []), "1 candidates but 0 reference lists"),
        (lambda: torchtext.bleu_score([], []), "no candidates"),
        (lambda: torchtext.bleu_score([["a", 1]], [[["a"]]]), r"candidate_corpus\[0\] holds a int"),
        (lambda: torchtext.bleu_score(["a b"], [[["a"]]]), r"candidate_corpus\[0\] is str"),
        (lambda: torchtext.bleu_score([["a"]], [[]]), r"references_corpus\[0\] must be"),
    ],
)
def test_torchtext_errors_are_one_line(call, message):
    with pytest.raises(bleukit.BleukitError, match=message):
        call()


@pytest.mark.golden
@pytest.mark.parametrize("case", T2T["cases"], ids=_id)
def test_t2t_bleu_equals_tensor2tensor(case, wmt):
    variant = bleukit.load_variant("t2t-bleu", lowercase=not case["case_sensitive"])
    refs = wmt.prepared(variant, case["set"], case["refs"])
    score = variant.corpus_score(wmt.hyps(case["set"], case["system"]), refs).score
    assert float32(score / 100) == case["bleu"]


@pytest.mark.golden
@pytest.mark.parametrize("example", T2T["examples"], ids=lambda e: f"{e['hyp']}|{e['refs']}")
def test_t2t_examples(example):
    score = bleukit.load_variant("t2t-bleu").sentence_score(example["hyp"], example["refs"]).score
    assert float32(score / 100) == example["bleu"]


@pytest.mark.parametrize("case", T2T["tokens"], ids=lambda c: c["text"])
def test_t2t_tokens_are_tensor2tensors_quirks_included(case):
    """tensor2tensor's bleu_tokenize is not sacrebleu's intl: a backslash
    is never split off (its punctuation class is pasted raw, so "\\" escapes
    the "]" after it), "not a digit" is \\d (½ and ² are no digits), and
    the line is not stripped. t2t-bleu used intl.v1, and missed
    tensor2tensor's score on 6 of 37 WMT22/23 systems."""
    assert (
        bleukit.load_variant("t2t-bleu[lowercase=false]").tokenize(case["text"]) == case["tokens"]
    )
    intl = bleukit.load_variant("BLEUw4", tokenizer="intl").tokenize(case["text"])
    if "\\" in case["text"] or "½" in case["text"] or case["text"].endswith(" "):
        assert intl != case["tokens"]


def test_t2t_smoothing_differs_from_exp_only_where_an_order_is_empty():
    """bleu_hook smooths an unmatched order as mteval does (sacrebleu exp), but
    skips an order with no n-gram, and smooths a hypothesis with no match."""
    t2t = bleukit.load_variant("t2t-bleu")
    exp = bleukit.load_variant("t2t-bleu", smoothing="exp.v1")
    full = ("the cat sat on a mat", ["the cat sat on the mat"])
    assert t2t.sentence_score(*full).score == exp.sentence_score(*full).score
    short = ("a b c", ["a b c d e"])
    assert exp.sentence_score(*short).score == 0
    assert t2t.sentence_score(*short).score == pytest.approx(100 * 0.513417119032592, abs=TOL)
    assert t2t.sentence_score("x y", ["a b"]).score == pytest.approx(50.0, abs=TOL)


@pytest.mark.golden
@pytest.mark.parametrize(
    "example", NLTK["examples"], ids=lambda e: f"{e['hyp']}|{e['refs']}|{e['method']}"
)
def test_nltk_auto_reweigh_examples(example):
    variant = bleukit.load_variant(
        "nltk-auto-reweigh", smoothing=f"nltk-method{example['method']}.v1"
    )
    score = variant.corpus_score([example["hyp"]], [[r] for r in example["refs"]]).score
    assert score == pytest.approx(100 * example["bleu"], abs=TOL, rel=0)


def test_auto_reweigh_changes_only_short_hypotheses(wmt):
    auto, plain = bleukit.load_variant("nltk-auto-reweigh"), bleukit.load_variant("nltk")
    refs = wmt.refs("newstest2021.en-de", ["A"])
    hyps = wmt.hyps("newstest2021.en-de", "UEdin")
    assert auto.corpus_score(hyps, refs).score == plain.corpus_score(hyps, refs).score
    auto_s = auto.sentence_scores(hyps[:200], [r[:200] for r in refs])
    plain_s = plain.sentence_scores(hyps[:200], [r[:200] for r in refs])
    for hyp, a, p in zip(hyps, auto_s, plain_s):
        if len(hyp.split()) >= 4:
            assert a.score == p.score
    # "a b" against "a b c": 1e-152 without reweighing (method0's float_info.min)
    assert auto.sentence_score("a b", ["a b c"]).score == pytest.approx(100 * 0.60653066, rel=1e-8)
    assert plain.sentence_score("a b", ["a b c"]).score < 1e-150
    assert "weights:auto-reweigh" in auto.signature(1).long
