import math

import pytest

import bleukit
from bleukit.metrics.bleu.score import brevity_penalty

REF = "The NASA Opportunity rover is battling a massive dust storm on planet Mars."


def test_brevity_penalty():
    assert brevity_penalty(10, 10) == 1.0
    assert brevity_penalty(12, 10) == 1.0
    assert brevity_penalty(8, 10) == math.exp(1 - 10 / 8)
    assert brevity_penalty(0, 10) == 0.0


def test_published_tutorial_numbers():
    v = bleukit.load_variant("sacrebleu")
    a = v.sentence_score(
        "The Opportunity rover is combating a big sandstorm on planet Mars.", [REF]
    )
    b = v.sentence_score("A NASA rover is fighting a massive storm on planet Mars.", [REF])
    assert round(a.score, 1) == 27.6
    assert round(b.score, 1) == 35.3


def test_papineni_the_the_the_example():
    v = bleukit.load_variant("BLEUw4", max_order=1)
    r = v.sentence_score(
        "the the the the the the the", ["the cat is on the mat", "there is a cat on the mat"]
    )
    assert r.counts == (2,) and r.totals == (7,)
    assert r.precisions[0] == pytest.approx(100 * 2 / 7)


def test_average_reference_length_formats_as_a_number():
    v = bleukit.load_variant("BLEUw4", ref_length="average")
    r = v.sentence_score("a b c", ["a b c d", "a b c"])
    assert r.ref_len == pytest.approx(3.5)
    assert "ref_len = 3.50" in str(r)
    assert r.to_dict()["ref_len"] == 3.5


def test_auto_reweigh_in_a_batch_equals_one_segment_at_a_time():
    """``smoothed`` smooths the short segments of a batch again, by length:
    the batch gives what each segment alone gives."""
    variant = bleukit.load_variant("nltk-auto-reweigh", smoothing="nltk-method1.v1")
    hyps = ["a b", "a b c d e", "", "a", "b c a", "c d"]
    refs = ["a b c", "a b c d e f", "a", "a", "a b c", "c d e"]
    batch = [r.score for r in variant.sentence_scores(hyps, [refs])]
    assert batch == [variant.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
    assert batch[0] == batch[5] > 0 and batch[3] == 100.0
