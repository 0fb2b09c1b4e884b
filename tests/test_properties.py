"""Property-based tests (Hypothesis): additivity, order invariance, bounds,
identity, signature sensitivity. BLEUKIT_TOK selects the tokenizer (tox
``tok`` factor); by default every built-in tokenizer is drawn."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.stats import corpus_sum
from bleukit.metrics.bleu.signature import Signature
from bleukit.metrics.bleu.variant import load_config

TOKENIZERS = (
    [os.environ["BLEUKIT_TOK"]]
    if os.environ.get("BLEUKIT_TOK")
    else ["13a", "intl", "char", "zh", "zh.v2", "none"]
)
# smoothing methods whose precisions stay within [0, 1] at their defaults;
# nltk-method5/7 average with p1 + 1 and can exceed 1 (an NLTK quirk)
BOUNDED = ["none", "floor", "add-k", "exp", *(f"nltk-method{m}" for m in (0, 1, 2, 3, 4))]

WORDS = st.sampled_from(
    [
        "the",
        "cat",
        "sat",
        "mat",
        "a",
        ",",
        ".",
        "don't",
        "3.5",
        "1,000",
        "&amp;",
        "„quoted“",
        "猫",
        "在",
        "垫子",
        "上",
        "ねこ",
        "…",
        "→",
        "😀",
        "e\u0301",
        "\u00a0",
        "Straße",
        "İ",
        "-",
    ]
)
SEGMENT = st.lists(WORDS, max_size=12).map(" ".join)
settings.register_profile("bleukit", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("bleukit")


@st.composite
def corpora(draw, min_size=1):
    n = draw(st.integers(min_size, 6))
    nrefs = draw(st.integers(1, 3))
    hyps = draw(st.lists(SEGMENT, min_size=n, max_size=n))
    refs = [draw(st.lists(SEGMENT, min_size=n, max_size=n)) for _ in range(nrefs)]
    return hyps, refs


@st.composite
def variants(draw, smoothings=BOUNDED):
    over = {
        "tokenizer": draw(st.sampled_from(TOKENIZERS)),
        "lowercase": draw(st.sampled_from([False, True, "ascii"])),
        "max_order": draw(st.integers(1, 8)),
        "ref_length": draw(st.sampled_from(["closest", "shortest", "average"])),
        "smoothing": draw(st.sampled_from(smoothings)),
        "effective_order": draw(st.booleans()),
        "totals": draw(st.sampled_from(["exact", "at-least-one"])),
        "split": draw(st.sampled_from(["unicode", "ascii"])),
    }
    if over["smoothing"] == "nltk-method6":
        over["max_order"] = max(3, over["max_order"])
    return bleukit.load_variant("BLEUw4", **over)


@given(variants(), corpora(), corpora())
def test_statistics_are_additive(variant, a, b):
    sa, _ = variant.segment_stats(*a)
    sb, _ = variant.segment_stats(*b)
    joined = (
        [a[0] + b[0], [ra + rb for ra, rb in zip(a[1], b[1])]] if len(a[1]) == len(b[1]) else None
    )
    if joined is None:
        return
    sj, _ = variant.segment_stats(*joined)
    order = variant.stat_order
    assert corpus_sum(sj, order) == corpus_sum(sa, order) + corpus_sum(sb, order)


@given(variants(), corpora(), st.randoms(use_true_random=False))
def test_corpus_score_is_order_invariant(variant, corpus, rnd):
    hyps, refs = corpus
    perm = list(range(len(hyps)))
    rnd.shuffle(perm)
    # keep the last segment in place: NLTK methods 5-7 read it (an NLTK quirk)
    perm.remove(len(hyps) - 1)
    perm.append(len(hyps) - 1)
    shuffled = ([hyps[i] for i in perm], [[r[i] for i in perm] for r in refs])
    assert variant.corpus_score(*shuffled).score == variant.corpus_score(hyps, refs).score


@given(variants(), corpora())
def test_scores_stay_between_0_and_100(variant, corpus):
    r = variant.corpus_score(*corpus)
    assert 0.0 <= r.score <= 100.0 + 1e-9
    assert all(0.0 <= p <= 100.0 + 1e-9 for p in r.precisions)
    assert 0.0 <= r.bp <= 1.0


@given(variants(smoothings=["none", "exp", "floor", "nltk-method0"]), corpora())
def test_identical_hypothesis_and_reference_score_100(variant, corpus):
    # with NLTK's at-least-one totals a segment shorter than an order adds an
    # unmatched n-gram, so only exact totals guarantee 100 (an NLTK quirk)
    variant = variant.with_overrides(totals="exact")
    hyps = corpus[0]
    r = variant.corpus_score(hyps, [hyps])
    if all(t > 0 for t in r.totals) or variant.config.effective_order:
        if r.sys_len > 0:
            assert abs(r.score - 100.0) < 1e-9


FIELD_VALUES = {
    "tokenizer": ["intl.v1", "char.v1", "zh.v1", "zh.v2", "none.v1"],
    "split": ["ascii.v1"],
    "lowercase": [True, "ascii"],
    "max_order": [1, 2, 3, 5, 18, 30],
    "weights": [(0.1, 0.2, 0.3, 0.4), (0.25, 0.25, 0.5, 0.0), "auto-reweigh"],
    "ref_length": ["shortest.v1", "average.v1", "closest-first.v1"],
    "smoothing": ["exp.v1", "floor.v1", "add-k.v1", "nltk-method1.v1", "t2t-exp.v1"],
    "effective_order": [True],
    "totals": ["at-least-one"],
}


def test_every_scoring_field_is_varied_here():
    """A new scoring field must join FIELD_VALUES (smoothing_value and
    tokenizer_model have their own tests; the latter in test_tokenizers_spm.py)."""
    from bleukit.metrics.bleu.config import SCORING_FIELDS

    assert set(FIELD_VALUES) | {"smoothing_value", "tokenizer_model"} == set(SCORING_FIELDS)


@given(st.sampled_from(sorted(FIELD_VALUES)), st.data())
def test_changing_any_field_changes_the_signature(field, data):
    base = load_config("BLEUw4")
    value = data.draw(st.sampled_from(FIELD_VALUES[field]))
    changed = load_config("BLEUw4", {field: value})
    a, b = Signature(base, 1), Signature(changed, 1)
    assert a.long != b.long and a.short != b.short and a.digest != b.digest


@given(st.floats(0.001, 5.0), st.floats(0.001, 5.0))
def test_changing_a_smoothing_value_changes_the_signature(x, y):
    a = Signature(load_config("BLEUw4", {"smoothing": "add-k", "smoothing_value": x}), 1)
    b = Signature(load_config("BLEUw4", {"smoothing": "add-k", "smoothing_value": y}), 1)
    assert (a.long == b.long) == (x == y)
