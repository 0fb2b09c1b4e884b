"""bleukit.compat.sacrebleu's chrF: a port (same calls, same expected
numbers) of sacrebleu 2.6.0's test/test_chrf.py, then what a drop-in must
also keep: names, signatures, cached references, the JSON form."""

from __future__ import annotations

import json

import pytest

from bleukit.compat import sacrebleu
from bleukit.compat.sacrebleu import CHRF
from bleukit.core.errors import BleukitError

EPSILON = 1e-4

SENTENCE_LEVEL = [
    (
        "Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
        ["Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře."],
        39.14078509,
    ),
    (
        "Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
        ["A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři."],
        31.22557079,
    ),
    (
        "Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
        ["Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli."],
        57.15704367,
    ),
]

# eps smoothing (chrF++.py, NLTK): some orders are not fulfilled
EPS_CASES = [
    (["abcdefg"], ["hijklmnop"], 0.0),
    (["a"], ["b"], 0.0),
    ([""], ["b"], 0.0),
    ([""], ["ref"], 0.0),
    ([""], ["reference"], 0.0),
    (["aa"], ["ab"], 8.3333),
    (["a", "b"], ["a", "c"], 8.3333),
    (["a"], ["a"], 16.6667),
    (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    (
        [" risk assessment must be made of those who are qualified and expertise in the "
         "sector - these are the scientists ."],
        ["risk assessment has to be undertaken by those who are qualified and expert in that "
         "area - that is the scientists ."],
        63.361730,
    ),
    (
        [" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
        ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
        64.1302698,
    ),
    (
        ["Niemand hat die Absicht, eine Mauer zu errichten"],
        ["Niemand hat die Absicht, eine Mauer zu errichten"],
        100.0,
    ),
]  # fmt: skip

# sacreBLEU < 2.0.0's effective order
EFFECTIVE_ORDER_CASES = [
    (["a"], ["a"], 100.0),
    ([""], ["reference"], 0.0),
    (["a b c"], ["a b c"], 100.0),
    (["a b c"], ["abc"], 100.0),
    ([""], ["c"], 0.0),
    (["a", "b"], ["a", "c"], 50.0),
    (["aa"], ["ab"], 25.0),
]

KEEP_WHITESPACE_CASES = [
    (
        ["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."],
        ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
        67.3481606,
    ),
    (
        ["risk assessment must be made of those who are qualified and expertise in the sector "
         "- these are the scientists ."],
        ["risk assessment has to be undertaken by those who are qualified and expert in that "
         "area - that is the scientists ."],
        65.2414427,
    ),
]  # fmt: skip


@pytest.mark.parametrize(("hyps", "refs", "expected"), EPS_CASES)
def test_chrf(hyps, refs, expected):
    score = sacrebleu.corpus_chrf(
        hyps, [refs], char_order=6, word_order=0, beta=3, eps_smoothing=True
    ).score
    assert abs(score - expected) < EPSILON


@pytest.mark.parametrize(("hyps", "refs", "expected"), EFFECTIVE_ORDER_CASES)
def test_chrf_eff_order(hyps, refs, expected):
    score = sacrebleu.corpus_chrf(
        hyps, [refs], char_order=6, word_order=0, beta=3, eps_smoothing=False
    ).score
    assert abs(score - expected) < EPSILON


@pytest.mark.parametrize(("hyps", "refs", "expected"), KEEP_WHITESPACE_CASES)
def test_chrf_keep_whitespace(hyps, refs, expected):
    score = sacrebleu.corpus_chrf(
        hyps, [refs], char_order=6, word_order=0, beta=3, remove_whitespace=False
    ).score
    assert abs(score - expected) < EPSILON


@pytest.mark.parametrize(("hyp", "refs", "expected"), SENTENCE_LEVEL)
def test_chrf_sentence_level(hyp, refs, expected):
    score = sacrebleu.sentence_chrf(hyp, refs, eps_smoothing=True).score
    assert abs(score - expected) < EPSILON


# ------------------------------------------------ beyond sacrebleu's tests


def test_names_and_signatures():
    metric = CHRF(word_order=2, beta=1, lowercase=True, whitespace=True, eps_smoothing=True)
    score = metric.corpus_score(["a b"], [["a b"], ["a c"]])
    assert score.name == "chrF1++"
    assert str(metric.get_signature()) == (
        "nrefs:2|case:lc|eff:no|nc:6|nw:2|space:yes|version:2.6.0"
    )
    assert metric.get_signature().format(short=True) == "#:2|c:lc|e:no|nc:6|nw:2|s:yes|v:2.6.0"
    # the complete signature states beta, which sacrebleu's leaves to the name
    assert "|beta:1|" in metric.bleukit_signature.long
    with pytest.raises(ValueError, match="evaluate the metric first"):
        CHRF().get_signature()


def test_cached_references_serve_many_systems():
    metric = CHRF(references=[["the cat sat", "a dog"]])
    assert metric.corpus_score(["the cat sat", "a dog"], None).score == 100.0
    assert metric.corpus_score(["the cat", "a dog"], None).score < 100.0
    with pytest.raises(BleukitError, match="cache is empty"):
        CHRF().corpus_score(["a"], None)


def test_json_form_and_bad_arguments():
    metric = CHRF()
    score = metric.corpus_score(["the cat sat"], [["the cat sat down"]])
    data = json.loads(score.format(2, signature=str(metric.get_signature()), is_json=True))
    assert data["name"] == "chrF2" and data["nc"] == "6" and data["version"] == "2.6.0"
    with pytest.raises(BleukitError, match="key 'beta'"):
        CHRF(beta=-1)
    with pytest.raises(BleukitError, match="both 0"):
        CHRF(char_order=0)


def test_interval_where_sacrebleu_cannot_average_its_resamples():
    """Resamples of only empty segments score a Python 0.0, the others a
    NumPy float32: sacrebleu 2.6.0's statistics.mean fails on the mix; the
    mean here is taken over floats."""
    hyps, refs = ["", "the", ""], [["", "the", ""]]
    score = CHRF(char_order=0, word_order=1).corpus_score(hyps, refs, n_bootstrap=50)
    assert 0.0 < score._mean < 100.0 and score._ci >= 0.0
    assert score.format(1).startswith("chrF2+ = 100.0 (μ = ")
