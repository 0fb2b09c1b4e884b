"""compare-mt's analyses in bleukit/analysis/buckets.py on hand-worked
cases, and properties: bucket scores are the corpus scores of their
segments, counts add up, wins are symmetric. (tests_comparemt checks them
against compare-mt 0.2.10 itself: tox -e comparemt.)"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.analysis import buckets as b
from bleukit.core.errors import InputError


def test_labels_are_compare_mt_s():
    assert b.bucket_labels(b.LENGTH_CUTOFFS) == (
        "<10", "[10,20)", "[20,30)", "[30,40)", "[40,50)", "[50,60)", ">=60")  # fmt: skip
    assert b.bucket_labels(b.FREQUENCY_CUTOFFS) == (
        "<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000")  # fmt: skip
    assert b.bucket_labels((0.5, 1.0), integer=False) == ("<0.5", "[0.5,1.0)", ">=1.0")
    assert [b.bucket_index(v, (10, 20)) for v in (0, 9, 10, 19, 20, 99)] == [0, 0, 1, 1, 2, 2]


def test_compare_mt_words_keep_its_quirks():
    assert b.compare_mt_words(" a  b \n") == ["a", "", "b"]
    assert b.compare_mt_words("") == [""]


def test_bad_cutoffs_are_one_error():
    with pytest.raises(InputError, match="reference length: cutoffs must be increasing"):
        b.check_cutoffs((10, 10), "reference length")
    with pytest.raises(InputError, match="cutoffs must be increasing"):
        b.check_cutoffs((), "x")


def test_word_accuracy_by_hand():
    refs = [["the", "cat", "the", "mat"]]
    hyps = [["the", "the", "the", "dog"]]
    freq = Counter({"the": 5, "cat": 1, "mat": 1})
    wa = b.word_accuracy(refs, [("s", hyps)], freq, cutoffs=(1, 2, 5))
    # buckets <1 (dog), 1 (cat, mat), [2,5), >=5 (the)
    assert wa.labels == ("<1", "1", "[2,5)", ">=5")
    assert wa.ref_totals == (0, 2, 0, 2)
    # two "the" match the reference's two; the third and "dog" do not
    assert wa.matches == ((0, 0, 0, 2),) and wa.hyp_totals == ((1, 0, 0, 3),)
    rec, prec, f = wa.measures(0, 3)
    assert (rec, prec) == (1.0, 2 / 3) and f == pytest.approx(0.8)
    assert wa.measures(0, 0) == (0.0, 0.0, 0.0)
    d = wa.to_dict()
    assert d["ref_words"] == [0, 2, 0, 2] and d["systems"][0]["f_measure"][3] == f


def test_ngram_wins_by_hand():
    refs = [["a", "b", "c"]]
    wins = b.ngram_wins(refs, [["a", "b", "x"]], [["a", "y", "c"]], max_order=2)
    by = {w.ngram: (w.matches_a, w.matches_b, w.salience) for w in wins}
    assert by == {("a",): (1, 1, 0.5), ("b",): (1, 0, 2 / 3), ("a", "b"): (1, 0, 2 / 3),
                  ("c",): (0, 1, 1 / 3)}  # fmt: skip
    assert [w.ngram for w in wins] == [("a", "b"), ("b",), ("a",), ("c",)]
    assert [w.ngram for w in b.losses(wins)] == [("c",), ("a",), ("a", "b"), ("b",)]


def test_largest_differences_and_histogram():
    a, c = [0.5, 0.2, 0.9, 0.4], [0.5, 0.6, 0.1, 0.3]
    assert b.largest_differences(a, c, 2) == ([2, 3], [1])
    assert b.histogram([-1.0, 0.0, 0.2, 5.0], (0.0, 1.0)) == [1, 2, 1]


WORDS = st.lists(st.sampled_from("a b c d e".split()), max_size=12)


@given(st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=20))
def test_bucket_scores_are_corpus_scores_of_their_segments(pairs):
    metric = bleukit.load_metric("BLEUw4")
    refs = [" ".join(r) for r, _ in pairs]
    hyps = [" ".join(h) for _, h in pairs]
    segs, nrefs = metric.segment_stats(hyps, metric.prepare_references([refs]))
    lengths = b.reference_lengths([r for r, _ in pairs])
    cutoffs = (3, 6, 9)
    sb = b.sentence_buckets(metric, [("s", segs)], nrefs, [lengths], cutoffs, "reference length")
    assert sum(sb.counts[0]) == len(pairs)
    for k, score in enumerate(sb.scores[0]):
        members = [i for i, n in enumerate(lengths) if b.bucket_index(n, cutoffs) == k]
        if not members:
            assert score is None
            continue
        expected = metric.corpus_score([hyps[i] for i in members], [[refs[i] for i in members]])
        assert score == expected.score


@given(st.lists(st.tuples(WORDS, WORDS, WORDS), max_size=15))
def test_wins_are_symmetric_and_count_matches(triples):
    refs = [r for r, _, _ in triples]
    a = [x for _, x, _ in triples]
    c = [y for _, _, y in triples]
    ab = {w.ngram: w for w in b.ngram_wins(refs, a, c)}
    ba = {w.ngram: w for w in b.ngram_wins(refs, c, a)}
    assert ab.keys() == ba.keys()
    for g, w in ab.items():
        assert (w.matches_a, w.matches_b) == (ba[g].matches_b, ba[g].matches_a)
        assert w.salience + ba[g].salience == pytest.approx(1.0)
    # a system never matches an n-gram more often than the references hold it
    for g, m in b.matched_ngrams(refs, a).items():
        assert m <= sum(Counter(zip(*(r[k:] for k in range(len(g)))))[g] for r in refs)


def test_length_values():
    hyps, refs = [["a"] * 3, []], [["a"] * 2, []]
    assert b.length_differences(hyps, refs) == [1, 0]
    assert b.length_ratios(hyps, refs) == [1.5, 0.0]
    with pytest.raises(InputError, match="2 values for 1 segments"):
        metric = bleukit.load_metric("BLEUw4")
        segs, _ = metric.segment_stats(["a"], metric.prepare_references([["a"]]))
        b.sentence_buckets(metric, [("s", segs)], 1, [[1, 2]], (1,), "x")
