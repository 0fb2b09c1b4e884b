"""sacrebleu 2.6.0's own signatures, live, read back by bleukit: for BLEU,
chrF and TER objects under generated options, the signature sacrebleu
formats (long and short, with its score's name) reads as a variant whose
score equals sacrebleu's on generated corpora."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF, TER
from test_live import TOL, corpora

from bleukit.metrics import metric_for, read_signature

BLEU_OPTIONS = st.fixed_dictionaries({
    "lowercase": st.booleans(),
    "tokenize": st.sampled_from(["13a", "intl", "zh", "char", "none"]),
    "smooth_method": st.sampled_from(["exp", "none", "floor", "add-k"]),
    "effective_order": st.booleans(),
})  # fmt: skip
CHRF_OPTIONS = st.fixed_dictionaries({
    "char_order": st.integers(1, 8), "word_order": st.integers(0, 3), "beta": st.integers(1, 4),
    "lowercase": st.booleans(), "whitespace": st.booleans(), "eps_smoothing": st.booleans(),
})  # fmt: skip
TER_OPTIONS = st.fixed_dictionaries({
    "normalized": st.booleans(), "no_punct": st.booleans(), "asian_support": st.booleans(),
    "case_sensitive": st.booleans(),
})  # fmt: skip
METRICS = st.one_of(
    st.tuples(st.just(BLEU), BLEU_OPTIONS),
    st.tuples(st.just(CHRF), CHRF_OPTIONS),
    st.tuples(st.just(TER), TER_OPTIONS),
)


@settings(max_examples=60)
@given(corpora(allow_missing=False), METRICS, st.booleans(), st.booleans())
def test_sacrebleu_signatures_read_as_a_variant_that_scores_the_same(corpus, metric, short, named):
    cls, options = metric
    hyps, refs = corpus
    if cls is CHRF and not named:
        options = {**options, "beta": 2}  # only chrF's name states beta: 2 is assumed
    theirs = cls(**options)
    score = theirs.corpus_score(hyps, refs)
    signature = theirs.get_signature().format(short=short)
    if named:
        signature = f"{score.name}|{signature}"
    read = read_signature(signature)
    ours = metric_for(read.config).corpus_score(hyps, refs)
    assert ours.score == pytest.approx(score.score, abs=TOL, rel=0)
