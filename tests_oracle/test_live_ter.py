"""TER's building blocks against sacrebleu 2.6.0's, live, on generated
input: Tercom's normalization under every combination of its four flags,
and the edit count with shifts on word sequences short and long (long
enough to reach the beam's edge, the shift limits and the bound on shift
candidates)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from test_live import PIECES, TEXT, corpora, sacrebleu_bootstrap

from bleukit.core.edits import edit_count
from bleukit.metrics.ter.normalize import TercomNormalizer

FLAGS = list(itertools.product([False, True], repeat=4))
# few word types, so that runs repeat and shifts compete
FEW = st.sampled_from(["a", "b", "c", "the", "of", "."])
MULTILINE = st.lists(st.one_of(PIECES, st.just("\n"), st.just("\n-")), max_size=12).map("".join)


@given(st.sampled_from(FLAGS), st.one_of(TEXT, MULTILINE))
def test_normalization_equals_sacrebleu(flags, text):
    assert TercomNormalizer(*flags)(text) == TercomTokenizer(*flags)(text)


@given(st.lists(FEW, max_size=40), st.lists(FEW, max_size=40))
def test_edit_counts_equal_sacrebleu(hyp, ref):
    assert edit_count(hyp, ref) == translation_edit_rate(hyp, ref)[0]


@given(st.lists(FEW, min_size=60, max_size=140), st.lists(FEW, max_size=140))
def test_long_and_unequal_segments_equal_sacrebleu(hyp, ref):
    """Lengths far apart widen the beam; long segments exhaust the shift
    candidates before the shifts stop helping."""
    assert edit_count(hyp, ref) == translation_edit_rate(hyp, ref)[0]


@given(st.lists(st.sampled_from(["a", "b"]), max_size=6), st.lists(FEW, min_size=50, max_size=200))
def test_a_short_hypothesis_against_a_long_reference(hyp, ref):
    assert edit_count(hyp, ref) == translation_edit_rate(hyp, ref)[0]


@given(corpora(), st.sampled_from(FLAGS))
def test_the_compat_ter_api_equals_sacrebleus(corpus, flags):
    """bleukit.compat.sacrebleu.TER against sacrebleu's TER on generated
    corpora (1-3 references, missing ones): score, edits, reference length,
    signature; and a sentence score."""
    from sacrebleu.metrics import TER

    from bleukit.compat.sacrebleu import TER as CompatTER

    hyps, refs = corpus
    theirs_metric, ours_metric = TER(*flags), CompatTER(*flags)
    theirs, ours = theirs_metric.corpus_score(hyps, refs), ours_metric.corpus_score(hyps, refs)
    assert abs(ours.score - theirs.score) <= 1e-9
    assert ours.num_edits == theirs.num_edits
    assert abs(ours.ref_length - theirs.ref_length) <= 1e-9
    assert str(ours_metric.get_signature()) == str(theirs_metric.get_signature())
    present = [r for r in (s[0] for s in refs) if r is not None]
    assert ours_metric.sentence_score(hyps[0], present).score == pytest.approx(
        theirs_metric.sentence_score(hyps[0], present).score, abs=1e-9, rel=0
    )


@settings(max_examples=12, deadline=None)
@given(st.integers(3, 10), st.integers(1, 3), st.sampled_from(["bs", "ar"]),
       st.integers(1, 2**31), st.sampled_from(FLAGS), st.data())  # fmt: skip
def test_paired_tests_equal_sacrebleu(n, nrefs, test, seed, flags, data):
    """--compat sacrebleu's TER p-values and intervals against sacrebleu's
    PairedTest, with several references (mean reference lengths that are
    not whole: float rows)."""
    import os

    from sacrebleu.metrics import TER
    from sacrebleu.significance import PairedTest

    from bleukit.compat.sacrebleu import TER as CompatTER
    from bleukit.significance import paired_test
    from bleukit.significance.paired import SignificanceSpec

    lines = st.lists(st.lists(FEW, max_size=12).map(" ".join), min_size=n, max_size=n)
    refs = [data.draw(lines) for _ in range(nrefs)]
    systems = [(f"s{k}", data.draw(lines)) for k in range(3)]
    samples = 120 if test == "bs" else 300
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        ps = PairedTest(systems, {"TER": TER(*flags)}, refs, test_type=test,
                        n_samples=samples, n_ar_confidence=0)  # fmt: skip
        _, theirs = ps()
    finally:
        del os.environ["SACREBLEU_SEED"]
    metric = CompatTER(*flags, references=refs)
    variant, prepared = metric.variant, metric.references()
    stats = [(name, variant.segment_stats(h, prepared)[0]) for name, h in systems]
    spec = SignificanceSpec(test, samples=samples, seed=seed, compat="sacrebleu",
                            confidence_samples=samples if test == "bs" else 1000)  # fmt: skip
    rows = paired_test(variant, stats, prepared.nrefs, spec)
    for row, expected in zip(rows, theirs["TER"]):
        assert row.result.score == pytest.approx(expected.score, abs=1e-9, rel=0)
        # what bleukit sacrebleu's JSON prints: sacrebleu's float, to the bit
        assert row.sacrebleu_score == expected.score
        assert row.p_value == expected.p_value
        assert row.interval.mean == pytest.approx(expected.mean, abs=1e-9, rel=0)
        assert row.interval.half_width == pytest.approx(expected.ci, abs=1e-9, rel=0)


@settings(max_examples=10, deadline=None)
@given(corpora(allow_missing=False), st.sampled_from(FLAGS), st.integers(1, 2**31))
# CI's find: resamples without the one non-empty reference score a Python 0.0
@example(corpus=([""] * 5, [["", "", "", "", "the"]]), flags=FLAGS[0], seed=1)
def test_bootstrap_interval_equals_sacrebleu(corpus, flags, seed):
    import os

    from sacrebleu.metrics import TER

    from bleukit.compat.sacrebleu import TER as CompatTER

    hyps, refs = corpus
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        theirs = sacrebleu_bootstrap(lambda: TER(*flags).corpus_score(hyps, refs, n_bootstrap=80))
        ours = CompatTER(*flags).corpus_score(hyps, refs, n_bootstrap=80)
    finally:
        del os.environ["SACREBLEU_SEED"]
    assert ours.score == pytest.approx(theirs.score, abs=1e-9, rel=0)
    assert (ours._mean, ours._ci) == (theirs._mean, theirs._ci)
