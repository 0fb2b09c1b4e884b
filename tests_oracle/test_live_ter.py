"""TER's building blocks against sacrebleu 2.6.0's, live, on generated
input: Tercom's normalization under every combination of its four flags,
and the edit count with shifts on word sequences short and long (long
enough to reach the beam's edge, the shift limits and the bound on shift
candidates)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from test_live import PIECES, TEXT, corpora

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
