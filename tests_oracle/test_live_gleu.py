"""GLEU against NLTK 3.10.4's ``corpus_gleu`` and ``sentence_gleu``, live, on
generated token sequences: few word types, so that references tie and the
first of equal ratios must win, one to three references, any orders."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu

import bleukit

SEGMENT = st.lists(st.sampled_from(["a", "b", "c", "the"]), max_size=9)


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 6))
    nrefs = draw(st.integers(1, 3))
    hyps = draw(st.lists(SEGMENT, min_size=n, max_size=n))
    refs = [draw(st.lists(SEGMENT, min_size=nrefs, max_size=nrefs)) for _ in range(n)]
    return hyps, refs


@settings(deadline=None)
@given(corpora(), st.integers(1, 4), st.integers(0, 3))
def test_corpus_and_sentence_gleu_equal_nltk(corpus, low, extra):
    hyps, refs = corpus
    high = low + extra
    gleu = bleukit.load_metric("GLEU-nltk", min_order=low, max_order=high)
    streams = [[" ".join(seg[k]) for seg in refs] for k in range(len(refs[0]))]
    lines = [" ".join(h) for h in hyps]
    ours = gleu.corpus_score(lines, streams).score
    assert ours == pytest.approx(100 * corpus_gleu(refs, hyps, low, high), abs=1e-9, rel=0)
    theirs = [sentence_gleu(r, h, low, high) for r, h in zip(refs, hyps)]
    for result, expected in zip(gleu.sentence_scores(lines, streams), theirs):
        assert result.score == pytest.approx(100 * expected, abs=1e-9, rel=0)
