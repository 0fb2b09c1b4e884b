"""bleukit.compat.sacrebleu: sacrebleu 2.6.0's BLEU API. A port (same
calls, same expected numbers) of sacrebleu's own test/test_bleu.py and
test/test_sentence_bleu.py, then what a drop-in must also keep: signatures,
score formats, cached references, intervals."""

from __future__ import annotations

import json
import math

import pytest

from bleukit.compat import sacrebleu
from bleukit.compat.sacrebleu import BLEU
from bleukit.core.errors import BleukitError, InputError

EPSILON = 1e-8

# sacrebleu's README example, with an empty-hypothesis variant (#141)
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]


@pytest.mark.parametrize(
    ("hyps", "refs", "expected"),
    [
        (["this is a test", "another test"], [["ref1", "ref2"]], 0.0),
        (["this is a test"], [["this is a test"]], 1.0),
        (["this is a fest"], [["this is a test"]], 0.223606797749979),
    ],
)
def test_raw_corpus_bleu(hyps, refs, expected):
    assert abs(sacrebleu.raw_corpus_bleu(hyps, refs, 0.01).score / 100 - expected) < EPSILON


@pytest.mark.parametrize(
    ("hyps", "kwargs", "expected"),
    [
        (HYPS, {}, 48.530827),
        (("", "", ""), {}, 0.0),
        (HYPS, {"tokenize": "none"}, 49.1919566),
        (HYPS, {"tokenize": "13a"}, 48.530827),
        (HYPS, {"tokenize": "intl"}, 43.91623493),
        (HYPS, {"smooth_method": "none"}, 48.530827),
    ],
)
def test_corpus_bleu(hyps, kwargs, expected):
    assert abs(sacrebleu.corpus_bleu(hyps, REFS, **kwargs).score - expected) < EPSILON


@pytest.mark.parametrize(
    ("hyp", "ref", "expected"),
    [("test", "a test", 0.3678794411714425), ("a test", "a test", 1.0),
     ("a little test", "a test", 0.03218297948685433)],
)  # fmt: skip
def test_effective_order(hyp, ref, expected):
    assert abs(sacrebleu.raw_corpus_bleu([hyp], [[ref]], 0.01).score / 100 - expected) < EPSILON


def test_statistics():
    r = sacrebleu.raw_corpus_bleu(["am I am a character sequence"],
                                  [["I am a symbol string sequence a a"]], 0.01)  # fmt: skip
    assert (r.counts, r.totals) == ([4, 2, 1, 0], [6, 5, 4, 3])


def test_scoring_from_statistics():
    score = BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).score / 100
    assert abs(score - 0.8375922397) < EPSILON


def test_offset():
    hyp, ref = ["am I am a character sequence"], [["I am a symbol string sequence a a"]]
    assert abs(sacrebleu.raw_corpus_bleu(hyp, ref, 0.0).score) < EPSILON
    for with_default in (sacrebleu.raw_corpus_bleu(hyp, ref, None),
                         sacrebleu.raw_corpus_bleu(hyp, ref)):  # fmt: skip
        assert abs(with_default.score / 100 - 0.1555722182) < EPSILON


@pytest.mark.parametrize(
    ("correct", "total", "sys_len", "ref_len", "offset"),
    [
        ([0, 0, 0, 0], [4, 4, 2, 1], 0, 1, 0.0),
        ([0, 0, 0, 0], [10, 11, 12, 0], 14, 10, 0.0),
        ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.0),
        ([6, 5, 4, 0], [6, 5, 4, 3], 6, 6, 0.0),
        ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.1),
        ([0, 0, 0, 0], [0, 0, 0, 0], 1, 5, 0.01),
    ],
)
def test_degenerate_statistics(correct, total, sys_len, ref_len, offset):
    score = BLEU.compute_bleu(
        correct, total, sys_len, ref_len, smooth_method="floor", smooth_value=offset
    )
    assert score.score / 100 == 0.0


@pytest.mark.parametrize(
    ("order", "expected"),
    [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")],
)
def test_max_ngram_order(order, expected):
    assert f"{BLEU(max_ngram_order=order).corpus_score(HYPS, REFS).score:.2f}" == expected


# test_sentence_bleu.py: a Romanian example (#98) and a zero-match one (#141)
REF_RO = "producţia de zahăr brut se exprimă în zahăr alb;"
SYS_RO = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
SENTENCE_CASES = [
    ("exp", None, False, "13a", 8.493),
    ("none", None, False, "13a", 0.0),
    ("floor", None, False, "13a", 4.51688),
    ("floor", 0.1, False, "13a", 4.51688),
    ("floor", 0.5, False, "13a", 10.10),
    ("add-k", None, False, "13a", 14.882),
    ("add-k", 1, False, "13a", 14.882),
    ("add-k", 2, False, "13a", 21.389),
    ("exp", None, False, "none", 7.347),
    ("exp", None, False, "intl", 8.493),
    ("exp", None, False, "char", 40.8759),
    ("exp", None, True, "char", 42.0267),
]


@pytest.mark.parametrize(("method", "value", "lowercase", "tok", "expected"), SENTENCE_CASES)
def test_compat_sentence_bleu(method, value, lowercase, tok, expected):
    score = sacrebleu.compat.sentence_bleu(
        SYS_RO, [REF_RO], smooth_method=method, smooth_value=value, tokenize=tok,
        lowercase=lowercase, use_effective_order=True,
    )  # fmt: skip
    assert abs(score.score - expected) < 1e-3


@pytest.mark.parametrize(("method", "value", "lowercase", "tok", "expected"), SENTENCE_CASES)
def test_api_sentence_bleu(method, value, lowercase, tok, expected):
    metric = sacrebleu.metrics.BLEU(
        lowercase=lowercase, force=False, tokenize=tok, smooth_method=method,
        smooth_value=value, effective_order=True,
    )  # fmt: skip
    assert abs(metric.sentence_score(SYS_RO, [REF_RO]).score - expected) < 1e-3


@pytest.mark.parametrize(
    ("method", "value"),
    [("exp", None), ("none", None), ("floor", None), ("floor", 0.1), ("add-k", None), ("add-k", 1)],
)
def test_api_sentence_bleu_zero(method, value):
    metric = BLEU(smooth_method=method, smooth_value=value, effective_order=True)
    assert metric.sentence_score("this is a cat", ["okay thanks"]).score == 0.0


# ----------------------------------------------------- beyond sacrebleu's tests


def test_signatures_are_sacrebleus_and_bleukits_is_complete():
    metric = BLEU(smooth_method="floor", lowercase=True, max_ngram_order=2)
    with pytest.raises(ValueError, match="Number of references unknown"):
        metric.get_signature()
    metric.corpus_score(HYPS, REFS)
    sig = metric.get_signature()
    assert sig.format() == "nrefs:2|case:lc|eff:no|tok:13a|smooth:floor[0.10]|version:2.6.0"
    assert sig.format(short=True) == "#:2|c:lc|e:no|tok:13a|s:floor[0.10]|v:2.6.0"
    # sacrebleu's signature cannot say order 2; bleukit's does
    assert "|order:2|" in metric.bleukit_signature.long


def test_variable_references_and_the_cache():
    refs = [["a b c", "d e f"], ["a b c", None]]
    metric = BLEU(references=refs)
    first = metric.corpus_score(["a b c", "d e"], None)
    assert str(metric.get_signature()).startswith("nrefs:var|")
    assert metric.corpus_score(["a b c", "d e"], refs).score == first.score
    with pytest.raises(BleukitError, match="cache is empty"):
        BLEU().corpus_score(["a"], None)


def test_sentence_scores_against_given_references_or_the_cache():
    """sentence_scores takes references for its hypotheses (the drop-in's
    -sl, a chunk at a time) or uses those cached at construction, with the
    same scores and the signature's count of them."""
    hyps = ["a b c d", "the cat sat"]
    refs = [["a b c x", "the cat sat"], ["a b c d", "a cat sat"]]
    cached = BLEU(effective_order=True, references=refs).sentence_scores(hyps)
    given = BLEU(effective_order=True)
    assert [s.score for s in given.sentence_scores(hyps, refs)] == [s.score for s in cached]
    assert str(given.get_signature()).startswith("nrefs:2|")
    assert [s.score for s in cached] != [s.score for s in given.sentence_scores(hyps, refs[:1])]
    with pytest.raises(BleukitError, match="cache is empty"):
        BLEU().sentence_scores(hyps)


@pytest.mark.parametrize("smooth", ["exp", "none", "floor", "add-k"])
@pytest.mark.parametrize("effective", [True, False])
def test_sentence_scores_are_each_segment_scored_alone(smooth, effective):
    """sentence_scores' batch path (the engine's sentence results) gives
    each segment the score object, bit for bit and as printed, that the
    segment scored alone as a corpus gets."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "wmt"
    hyps = (data / "newstest2021.en-de.hyp.UEdin.txt").read_text("utf-8").splitlines()[:150]
    refs = [(data / f"newstest2021.en-de.ref.{r}.txt").read_text("utf-8").splitlines()[:150]
            for r in "AC"]  # fmt: skip
    hyps[3], refs[1][5] = "", ""
    bleu = BLEU(smooth_method=smooth, effective_order=effective)
    batch = bleu.sentence_scores(hyps, refs)
    alone = [bleu.corpus_score([h], [[a], [c]]) for h, a, c in zip(hyps, *refs)]
    assert [vars(s) for s in batch] == [vars(s) for s in alone]
    assert [str(s) for s in batch] == [str(s) for s in alone]


def test_add_k_leaves_k_in_the_counts_as_sacrebleu_does():
    r = BLEU(smooth_method="add-k").corpus_score(["a b c d"], [["a b c x"]])
    assert r.counts == [3, 3, 2, 1] and r.totals == [4, 4, 3, 2]
    zero = BLEU(smooth_method="add-k").corpus_score(["x"], [["a"]])
    assert zero.counts == [0, 0, 0, 0]


def test_score_formats():
    r = BLEU().corpus_score(HYPS, REFS)
    sig = "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert r.format(1, signature=sig).startswith(f"BLEU|{sig} = 48.5 ")
    assert r.format(3, score_only=True) == f"{r.score:.3f}"
    data = json.loads(r.format(1, signature=sig, is_json=True))
    assert data["name"] == "BLEU" and data["score"] == 48.5 and data["tok"] == "13a"
    assert list(data)[-1] == "version" and data["verbose_score"].startswith("82.4/50.0/")
    assert repr(r) == r.format() == str(r)


def test_bootstrap_interval_is_sacrebleus(monkeypatch):
    metric = BLEU()
    r = metric.corpus_score(HYPS * 10, [s * 10 for s in REFS], n_bootstrap=200)
    assert r._mean > 0 and r._ci > 0 and "(μ = " in r.format()
    assert metric.get_signature().format().startswith("nrefs:2|bs:200|seed:12345|")
    monkeypatch.setenv("SACREBLEU_SEED", "none")
    with pytest.raises(BleukitError, match="fixed seed"):
        metric.corpus_score(HYPS, REFS, n_bootstrap=10)


def test_unknown_settings_are_errors(monkeypatch, tmp_path):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))  # an empty cache: no model
    with pytest.raises(BleukitError, match="smooth_method 'add-one'"):
        BLEU(smooth_method="add-one")
    with pytest.raises(BleukitError, match="flores200.v1: its model is not in sacrebleu's cache"):
        BLEU(tokenize="flores200")
    with pytest.raises(BleukitError, match="unknown tokenizer 'wordpiece'"):
        BLEU(tokenize="wordpiece")


def test_target_language_picks_the_tokenizer():
    assert BLEU(trg_lang="zh").variant.config.tokenizer == "zh.v1"
    assert BLEU(trg_lang="de").variant.config.tokenizer == "13a.v1"
    assert math.isclose(
        BLEU(trg_lang="zh").corpus_score(["猫在桌子上睡觉"], [["猫在桌子上睡觉"]]).score, 100.0
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda: sacrebleu.sentence_bleu("the cat sat", "the cat sat"),
        lambda: BLEU().sentence_score("the cat sat", "the cat sat"),
        lambda: BLEU(effective_order=True).sentence_score("the cat sat", b"the cat sat"),
        lambda: sacrebleu.sentence_chrf("the cat sat", "the cat sat"),
        lambda: sacrebleu.CHRF().sentence_score("the cat sat", "the cat sat"),
    ],
)
def test_a_string_as_a_sentences_references_is_a_type_error(call):
    # iterated, the string was one-character references: 0.0 or 38.46, silently
    with pytest.raises(TypeError, match="references must be a list of strings, not (str|bytes)"):
        call()
    with pytest.raises(InputError):
        call()


@pytest.mark.parametrize(("hyp", "kind"), [(None, "NoneType"), (b"a b", "bytes"), (1, "int")])
def test_a_hypothesis_that_is_not_a_string_is_named(hyp, kind):
    # the tokenized-period warning read .endswith of it first (AttributeError)
    with pytest.raises(TypeError, match=f"hypothesis 2 is {kind}, not a string"):
        BLEU().corpus_score(["the cat", hyp], [["the cat", "a b"]])


@pytest.mark.parametrize("method", ["exp", "none"])
def test_a_smoothing_value_for_a_method_without_one_is_ignored_as_sacrebleu_does(method):
    hyps, refs = ["the cat sat on a mat", "a dog"], [["the cat sat on the mat", "a dog ran"]]
    plain = BLEU(smooth_method=method)
    valued = BLEU(smooth_method=method, smooth_value=0.1)
    assert valued.corpus_score(hyps, refs).score == plain.corpus_score(hyps, refs).score
    assert str(valued.get_signature()) == str(plain.get_signature())
    assert valued.smooth_value == 0.1  # kept, as sacrebleu keeps it
    args = ([3, 1, 0, 0], [5, 4, 3, 2], 5, 6, method, 0.1)
    assert BLEU.compute_bleu(*args).score == BLEU.compute_bleu(*args[:5]).score
    # methods that take a value still use it
    hyps, refs = ["a b c d"], [["a b c e"]]  # no 4-gram matches: the floor counts
    floor = sacrebleu.corpus_bleu(hyps, refs, smooth_method="floor", smooth_value=0.5)
    assert floor.score != sacrebleu.corpus_bleu(hyps, refs, smooth_method="floor").score
