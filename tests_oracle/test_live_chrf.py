"""bleukit's chrF and chrF++ against sacrebleu 2.6.0's CHRF, live, on
generated input (every option, 1-3 references with missing ones, Unicode
whitespace, case pairs, punctuation at word edges): corpus and sentence
scores, bootstrap intervals and paired tests through the compat layer."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF
from test_live import TEXT, corpora, sacrebleu_bootstrap

import bleukit
from bleukit.compat.sacrebleu import CHRF as CompatCHRF

options = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 8),
        "word_order": st.integers(0, 3),
        "beta": st.integers(0, 4),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
).filter(lambda o: o["char_order"] + o["word_order"] > 0)


@given(corpora(), options)
def test_corpus_scores_equal_sacrebleu(corpus, opts):
    hyps, refs = corpus
    ours = bleukit.load_chrf("chrF", **opts).corpus_score(hyps, refs)
    theirs = CHRF(**opts).corpus_score(hyps, refs)
    assert ours.score == theirs.score  # the same operations: bit-identical
    assert ours.name == theirs.name


@given(corpora(allow_missing=False), options)
def test_sentence_scores_equal_sacrebleu(corpus, opts):
    hyps, refs = corpus
    ours = bleukit.load_chrf("chrF", **opts).sentence_scores(hyps, refs)
    metric = CHRF(**opts)
    for i, hyp in enumerate(hyps):
        assert ours[i].score == metric.sentence_score(hyp, [r[i] for r in refs]).score


@settings(max_examples=40)
@given(corpora(allow_missing=False), options, st.integers(1, 2**31))
def test_bootstrap_intervals_equal_sacrebleu(corpus, opts, seed):
    hyps, refs = corpus
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        ours = CompatCHRF(**opts).corpus_score(hyps, refs, n_bootstrap=50)
        theirs = sacrebleu_bootstrap(lambda: CHRF(**opts).corpus_score(hyps, refs, n_bootstrap=50))
    finally:
        del os.environ["SACREBLEU_SEED"]
    assert (ours.score, ours._mean, ours._ci) == (theirs.score, theirs._mean, theirs._ci)


@settings(max_examples=8)  # each example runs sacrebleu's PairedTest: CI time
@given(st.integers(3, 12), st.sampled_from(["bs", "ar"]), st.integers(1, 2**31), options,
       st.data())  # fmt: skip
def test_paired_tests_equal_sacrebleu(n, test, seed, opts, data):
    from sacrebleu.significance import PairedTest

    from bleukit.significance import paired_test
    from bleukit.significance.paired import SignificanceSpec

    lines = st.lists(TEXT, min_size=n, max_size=n)
    refs = [data.draw(lines)]
    systems = [(f"s{k}", data.draw(lines)) for k in range(3)]
    samples = 120 if test == "bs" else 300
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        ps = PairedTest(systems, {"chrF": CHRF(**opts)}, refs, test_type=test,
                        n_samples=samples, n_ar_confidence=0)  # fmt: skip
        _, theirs = ps()
    finally:
        del os.environ["SACREBLEU_SEED"]
    metric = CompatCHRF(**opts, references=refs)
    variant, prepared = metric.variant, metric.references()
    stats = [(name, variant.segment_stats(h, prepared)[0]) for name, h in systems]
    # sacrebleu's API bootstraps 1000 resamples for AR's intervals
    spec = SignificanceSpec(test, samples=samples, seed=seed, compat="sacrebleu",
                            confidence_samples=samples if test == "bs" else 1000)  # fmt: skip
    rows = paired_test(variant, stats, prepared.nrefs, spec)
    (name,) = [k for k in theirs if k != "System"]
    for row, expected in zip(rows, theirs[name]):
        assert row.result.score == expected.score and row.p_value == expected.p_value
        assert row.interval is not None
        assert row.interval.mean == pytest.approx(expected.mean, abs=1e-9, rel=0)
        assert row.interval.half_width == pytest.approx(expected.ci, abs=1e-9, rel=0)
