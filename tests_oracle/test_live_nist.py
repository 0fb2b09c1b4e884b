"""NIST against NLTK 3.10.4's ``corpus_nist``, live, on generated token
sequences: with one reference and without the word "0" they agree (to
1e-9; bleukit rounds each n-gram's information to 2**-40 bits, NLTK sums
floats). Where they part (docs/nist.md): with several references NLTK
takes, per order, the one reference with the best precision and its
length, where mteval (and bleukit) clips against the most any reference
holds and uses the mean reference length; and mteval's Perl weighs an
n-gram after the word "0" by the unigram rule, NLTK does not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.nist_score import corpus_nist

import bleukit

WORD = st.sampled_from(["a", "b", "c", "d", "the", "of", ".", "x1"])
SEGMENT = st.lists(WORD, min_size=1, max_size=12)
NIST = bleukit.load_metric("NIST", tokenizer="none")


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 8))
    return draw(st.lists(st.tuples(SEGMENT, SEGMENT), min_size=n, max_size=n))


@given(corpora(), st.integers(1, 6))
def test_one_reference_equals_nltk(pairs, order):
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    # NLTK divides by zero where no hypothesis is long enough for an order
    if max(len(h) for h in hyps) < order:
        return
    theirs = corpus_nist([[r] for r in refs], hyps, order)
    ours = NIST.with_order(order).corpus_score([" ".join(h) for h in hyps],
                                                [[" ".join(r) for r in refs]])  # fmt: skip
    assert ours.score == pytest.approx(theirs, abs=1e-9, rel=0)


def test_several_references_differ_from_nltk_as_documented():
    hyp = "a b c d".split()
    refs = ["a b x y".split(), "x y c d".split()]
    theirs = corpus_nist([refs], [hyp], 2)
    ours = NIST.with_order(2).corpus_score([" ".join(hyp)], [[" ".join(r)] for r in refs])
    # mteval clips against both references (a b and c d match); NLTK takes
    # one reference per order (half the words)
    assert ours.score > theirs


def test_the_word_zero_differs_from_nltk_as_documented():
    hyp = ref = "0 a b 0 a".split()
    theirs = corpus_nist([[ref]], [hyp], 2)
    ours = NIST.with_order(2).corpus_score([" ".join(hyp)], [[" ".join(ref)]])
    assert ours.score != pytest.approx(theirs, abs=1e-9, rel=0)
