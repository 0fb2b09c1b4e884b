"""Significance tests and intervals: properties, both summation paths, errors."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import BleukitError
from bleukit.core.resampling import Columns
from bleukit.engines.compiled import accelerator
from bleukit.significance.paired import SignificanceSpec, confidence, paired_test

#: a codec for Columns of 2-order statistics (what resampling sums, Metric.row)
BLEU2 = bleukit.load_variant("BLEUw4", max_order=2)

WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "dog", ".", ",", "barked"])
SEGMENT = st.lists(WORDS, min_size=1, max_size=10).map(" ".join)


@st.composite
def two_systems(draw):
    n = draw(st.integers(2, 12))
    refs = draw(st.lists(SEGMENT, min_size=n, max_size=n))
    a = draw(st.lists(SEGMENT, min_size=n, max_size=n))
    b = draw(st.lists(SEGMENT, min_size=n, max_size=n))
    return refs, a, b


def stats_for(variant, refs, *systems):
    prepared = variant.prepare_references([refs])
    return [(f"s{i}", variant.segment_stats(s, prepared)[0]) for i, s in enumerate(systems)]


VARIANT = bleukit.load_variant("sacrebleu", max_order=2)
SMALL = {
    "bs": SignificanceSpec("bs", samples=60),
    "ar": SignificanceSpec("ar", samples=80, confidence_samples=40),
}


@settings(max_examples=25, deadline=None)
@given(two_systems(), st.sampled_from(["bs", "ar"]))
def test_a_system_compared_with_itself_is_never_significant(data, test):
    refs, a, _ = data
    rows = paired_test(VARIANT, stats_for(VARIANT, refs, a, a), 1, SMALL[test])
    assert rows[1].p_value == 1.0 and not rows[1].significant


@settings(max_examples=25, deadline=None)
@given(two_systems(), st.sampled_from(["bs", "ar"]))
def test_p_values_lie_in_0_1_and_intervals_are_ordered(data, test):
    refs, a, b = data
    rows = paired_test(VARIANT, stats_for(VARIANT, refs, a, b), 1, SMALL[test])
    assert rows[0].p_value is None and rows[0].baseline
    assert 0 < rows[1].p_value <= 1
    for row in rows:
        iv = row.interval
        # a percentile interval: ordered, within the resampled scores (the
        # mean of a skewed distribution may lie outside it)
        assert min(row.scores) <= iv.low <= iv.high <= max(row.scores) and iv.level == 0.95
        assert min(row.scores) <= iv.mean <= max(row.scores)


@settings(max_examples=10, deadline=None)
@given(two_systems(), st.sampled_from(["bs", "ar"]), st.integers(0, 2**32))
def test_fixed_seed_gives_identical_output(data, test, seed):
    refs, a, b = data
    spec = SignificanceSpec(test, samples=50, seed=seed, confidence_samples=30)
    one = paired_test(VARIANT, stats_for(VARIANT, refs, a, b), 1, spec)
    two = paired_test(VARIANT, stats_for(VARIANT, refs, a, b), 1, spec)
    assert [(r.p_value, r.interval, r.scores) for r in one] == [
        (r.p_value, r.interval, r.scores) for r in two
    ]


def test_different_seeds_resample_differently():
    refs = ["the cat sat on the mat", "a dog barked", "the mat", "on a cat"] * 3
    a = ["the cat sat on a mat", "the dog barked", "a mat", "on the cat"] * 3
    s = stats_for(VARIANT, refs, a)[0][1]
    one = confidence(VARIANT, s, 1, SignificanceSpec(None, samples=50, seed=1))
    two = confidence(VARIANT, s, 1, SignificanceSpec(None, samples=50, seed=2))
    assert one.scores != two.scores


def test_fractional_reference_lengths_use_exact_column_sums():
    v = bleukit.load_variant("sacrebleu", ref_length="average", max_order=2)
    prepared = v.prepare_references([["the cat sat", "a dog"], ["the cat", "a dog barked"]])
    segs, _ = v.segment_stats(["the cat sat", "dog"], prepared)
    assert Columns(segs, BLEU2).packed is None
    assert confidence(v, segs, 2, SignificanceSpec(None, samples=20)).interval is not None


def test_interval_level_is_honoured():
    refs = ["the cat sat on the mat", "a dog barked", "the mat", "on a cat"] * 5
    a = ["the cat sat on a mat", "the dog barked", "a mat", "on the cat"] * 5
    s = stats_for(VARIANT, refs, a)[0][1]
    wide = confidence(VARIANT, s, 1, SignificanceSpec(None, samples=200, level=0.99)).interval
    narrow = confidence(VARIANT, s, 1, SignificanceSpec(None, samples=200, level=0.5)).interval
    assert wide.low <= narrow.low <= narrow.high <= wide.high


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"samples": 0}, "at least 1"),
        ({"level": 1.5}, "between 0 and 1"),
        ({"compat": "sacrebleu", "level": 0.9}, "95% intervals only"),
        ({"compat": "sacrebleu", "seed": 0}, "unseeded"),
    ],
)
def test_test_spec_validation(kwargs, message):
    with pytest.raises(BleukitError, match=message):
        SignificanceSpec(**kwargs)


def test_paired_test_input_errors():
    ((_, s),) = stats_for(VARIANT, ["a b"], ["a b"])
    with pytest.raises(BleukitError, match="at least one more system"):
        paired_test(VARIANT, [("a", s)], 1, SMALL["bs"])
    ((_, t),) = stats_for(VARIANT, ["a b", "c d"], ["a b", "c"])
    with pytest.raises(BleukitError, match="same number of segments"):
        paired_test(VARIANT, [("a", s), ("b", t)], 1, SMALL["bs"])


def test_compat_needs_a_sacrebleu_variant_and_no_numpy(monkeypatch):
    """--compat sacrebleu reproduces NumPy's draws and float32 arithmetic
    itself: it runs where NumPy cannot be imported (it asked for the numpy
    extra before)."""
    nltk = bleukit.load_variant("nltk")
    (_, s), (_, t) = stats_for(nltk, ["a b c d"], ["a b c d"], ["a b c"])
    with pytest.raises(BleukitError, match="components sacrebleu does not have"):
        paired_test(nltk, [("a", s), ("b", t)], 1, SignificanceSpec("bs", compat="sacrebleu"))
    monkeypatch.setitem(sys.modules, "numpy", None)
    (_, s), (_, t) = stats_for(VARIANT, ["a b c d"], ["a b c d"], ["a b c"])
    for test in ("bs", "ar"):
        spec = SignificanceSpec(test, samples=50, compat="sacrebleu", confidence_samples=20)
        _, other = paired_test(VARIANT, [("a", s), ("b", t)], 1, spec)
        assert 0 < other.p_value <= 1 and other.interval is not None


def test_signature_records_the_test_and_parses_back():
    spec = SignificanceSpec("ar", samples=10000, seed=7, level=0.9, confidence_samples=500)
    sig = VARIANT.signature(2).with_test(spec)
    assert "|test:ar|samples:10000|cisamples:500|seed:7|level:0.9|compat:none|" in sig.long
    for text in (sig.long, sig.short):
        parsed = bleukit.parse_signature(text)
        assert parsed.test == spec and parsed.digest == sig.digest
    assert sig.digest != VARIANT.signature(2).with_test(SignificanceSpec("ar", seed=8)).digest
    assert sig.sacrebleu is None  # not compat: sacrebleu would draw other resamples


def test_sacrebleu_signature_with_compat_tests():
    v = bleukit.load_variant("sacrebleu")
    bs = v.signature(1).with_test(SignificanceSpec("bs", compat="sacrebleu"))
    ar = v.signature(1).with_test(SignificanceSpec("ar", samples=10000, compat="sacrebleu"))
    assert (
        bs.sacrebleu
        == "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    )
    assert ar.sacrebleu.startswith("nrefs:1|bs:1000|ar:10000|seed:12345|case:mixed")
    with pytest.raises(bleukit.ConfigError, match="test fields incomplete"):
        bleukit.parse_signature(bs.long.replace("|seed:12345", ""))


@pytest.mark.skipif(accelerator() is None, reason="bleukit._accel is not built")
@pytest.mark.parametrize("test", ["bs", "ar"])
# NLTK's method 5 reads each system's own last segment (the systems' differ)
@pytest.mark.parametrize("name", ["sacrebleu", "nltk[smoothing=nltk-method5.v1]"])
def test_paired_results_do_not_depend_on_the_engine(test, name):
    refs = ["the cat sat on the mat", "a dog barked", "it rains", "the sun is out"] * 5
    a = ["the cat sat on a mat", "a dog barks", "it rained", "sun is out"] * 5
    b = ["cat sat mat", "the dog barked", "it rains", "the sun"] * 5
    # last segments long enough for 5-grams, matched by one system only
    refs[-1] = a[-1] = "and then the sun is out again"
    b[-1] = "again the sun and then is out"
    out = []
    for engine in ("c", "python"):
        v = bleukit.load_variant(name, engine=engine)
        out.append(paired_test(v, stats_for(v, refs, a, b), 1, SMALL[test]))
    assert out[0] == out[1]


def test_interval_mean_of_equal_scores_is_that_score():
    from bleukit.significance.paired import percentile_interval

    # fsum of 11 copies of x is 11x rounded, and that divided by 11 rounds
    # to an ulp above x (found by Hypothesis): the mean stays within range
    x = 7.123954745345436
    interval = percentile_interval([x] * 11, 0.95)
    assert interval.mean == interval.low == interval.high == x


@pytest.mark.parametrize("compat", ["none", "sacrebleu"])
def test_randomization_without_intervals(compat):
    """confidence_samples=0: approximate randomization alone (sacrebleu's
    command line runs it so), the same p-values, no interval anywhere."""
    refs = ["the cat sat on the mat", "a dog barked", "it rains", "the sun is out"] * 5
    a = ["the cat sat on a mat", "a dog barks", "it rained", "sun is out"] * 5
    b = ["cat sat mat", "the dog barked", "it rains", "the sun"] * 5
    systems = stats_for(VARIANT, refs, a, b)
    plain = SignificanceSpec("ar", samples=80, confidence_samples=0, compat=compat)
    with_ci = SignificanceSpec("ar", samples=80, confidence_samples=40, compat=compat)
    bare, full = paired_test(VARIANT, systems, 1, plain), paired_test(VARIANT, systems, 1, with_ci)
    assert [r.p_value for r in bare] == [r.p_value for r in full]
    assert all(r.interval is None and r.scores == () for r in bare)
    assert all(r.interval is not None for r in full)
    assert "|cisamples:0|" in VARIANT.signature(1).with_test(plain).long


def test_zero_resamples_only_for_randomization():
    with pytest.raises(BleukitError, match="at least 1"):
        SignificanceSpec("bs", samples=10, confidence_samples=0)
    with pytest.raises(BleukitError, match="at least 1"):
        SignificanceSpec(None, samples=10, confidence_samples=0)
    with pytest.raises(BleukitError, match="at least 1"):
        SignificanceSpec("ar", samples=10, confidence_samples=-1)


def test_compare_and_intervals_read_collected_statistics_as_the_tests_do():
    """``compare`` (every system against the first, per metric) and
    ``intervals`` (each system's) give what ``paired_test`` and
    ``confidence`` give on the same segments."""
    from bleukit.corpus.systems import collect
    from bleukit.significance.paired import compare, intervals

    refs = ["the cat sat on the mat", "a dog barked", "the mat is red"] * 5
    named = [("a", ["the cat sat", "a dog barked", "a red mat"] * 5),
             ("b", ["the cat sat on a mat", "dog barked", "the mat is red"] * 5)]  # fmt: skip
    # metrics of two engines, resampled together (one pass of draws an
    # engine: ``bootstrap_together``), each as it is alone
    metrics = [VARIANT, bleukit.load_metric("chrF"), bleukit.load_metric("NIST"),
               bleukit.load_variant("BLEUw4", engine="python")]  # fmt: skip
    stats = collect(metrics, named, [refs])
    spec = SMALL["bs"]
    for metric, comparison in zip(metrics, compare(metrics, stats, spec)):
        systems = stats_for(metric, refs, *(h for _, h in named))
        expected = paired_test(metric, [(n, s) for (n, _), (_, s) in zip(named, systems)], 1, spec)
        assert comparison.variant == metric.name
        assert comparison.signature.long == metric.signature(1).with_test(spec).long
        assert list(comparison.rows) == expected
        (one,) = intervals(metric, stats, [("b", "system B")], spec)
        alone = confidence(metric, stats_for(metric, refs, named[1][1])[0][1], 1, spec)
        assert (one.system, one.interval) == ("system B", alone.interval)


def test_all_pairs_of_metrics_resampled_together_are_each_metrics_own():
    """``rank_all`` resamples every metric's systems over one pass of the
    draws (an engine's): each ranking is the one ``rank`` gives alone."""
    from bleukit.corpus.systems import collect
    from bleukit.significance.ranking import rank, rank_all

    refs = ["the cat sat on the mat", "a dog barked", "the mat is red"] * 4
    named = [("a", ["the cat sat", "a dog barked", "a red mat"] * 4),
             ("b", ["the cat sat on a mat", "dog barked", "the mat is red"] * 4),
             ("c", ["a cat", "the dog barked", "mat red"] * 4)]  # fmt: skip
    metrics = [VARIANT, bleukit.load_metric("chrF"), bleukit.load_metric("TER")]
    stats = collect(metrics, named, [refs])
    for metric, ranking in zip(metrics, rank_all(metrics, stats, SMALL["bs"])):
        systems = stats_for(metric, refs, *(h for _, h in named))
        alone = rank(metric, [(n, s) for (n, _), (_, s) in zip(named, systems)], 1, SMALL["bs"])
        assert ranking == alone
