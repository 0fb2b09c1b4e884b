"""bleukit.core.partial: partial statistics merge exactly, in any grouping and
order (for variants that do not read the last segment), empty partitions
are neutral, and variants and partials pickle; threads= limits the engine."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import BleukitError, ConfigError, InputError
from bleukit.engines import threads

WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ".", "猫", "dog", "ran"])
LINE = st.lists(WORDS, max_size=8).map(" ".join)
NAMES = [
    "sacrebleu", "BLEUw4", "BLEUc18", "nltk", "BLEUw4[ref_length=average]",
    "sacrebleu[smoothing=floor]", "chrF", "chrF++",
]  # fmt: skip
UNORDERED = {n: bleukit.load_metric(n) for n in NAMES}
ORDERED = bleukit.load_variant("nltk[smoothing=nltk-method5]")


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 12))
    hyps = draw(st.lists(LINE, min_size=n, max_size=n))
    refs = [draw(st.lists(LINE, min_size=n, max_size=n)) for _ in range(draw(st.integers(1, 2)))]
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
    bounds = list(zip([0, *cuts], [*cuts, n]))  # empty partitions included
    return hyps, refs, bounds


def parts(variant, hyps, refs, bounds, start=False):
    return [
        variant.partial(hyps[a:b], [r[a:b] for r in refs], start=a if start else None)
        for a, b in bounds
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), corpora(), st.randoms(use_true_random=False))
def test_partitions_never_change_a_score_or_a_signature(name, corpus, rnd):
    hyps, refs, bounds = corpus
    v = UNORDERED[name]
    whole = v.corpus_score(hyps, refs)
    pieces = parts(v, hyps, refs, bounds)
    rnd.shuffle(pieces)
    merged = v.score(sum(pieces))
    assert merged.score == whole.score
    assert merged.signature.long == whole.signature.long


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(NAMES), corpora(), corpora())
def test_merge_is_associative_and_commutative(name, first, second):
    v = UNORDERED[name]
    a, b = (v.partial(h, r) for h, r, _ in (first, second))
    c = v.partial([], [[]])
    assert (a + b).stats == (b + a).stats
    assert ((a + b) + c).stats == (a + (b + c)).stats == (a + b).stats
    assert (a + c) == a and (c + a) == a  # the empty partial is neutral


def test_an_empty_partition_keeps_nrefs():
    v = bleukit.load_variant("sacrebleu")
    merged = v.partial(["a b"], [["a b"], ["a c"]]) + v.partial([], [[], []])
    assert v.score(merged).signature.nrefs == 2
    var = v.partial(["a b"], [["a b"], ["a c"]]) + v.partial(["a"], [["a"], [None]])
    assert v.score(var).signature.nrefs == "var"


def test_order_dependent_smoothing_needs_start():
    hyps = ["the cat sat on the mat", "a dog", "the cat ran", "on a mat"] * 3
    refs = [["the cat sat on a mat", "a dog ran", "the cat sat", "on the mat"] * 3]
    bounds = [(0, 5), (5, 9), (9, 12)]
    with pytest.raises(BleukitError, match="start="):
        sum(parts(ORDERED, hyps, refs, bounds))
    pieces = parts(ORDERED, hyps, refs, bounds, start=True)
    expected = ORDERED.corpus_score(hyps, refs).score
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        assert ORDERED.score(sum(pieces[i] for i in order)).score == expected
    with pytest.raises(BleukitError, match="overlap"):
        pieces[0] + ORDERED.partial(hyps[2:5], [r[2:5] for r in refs], start=2)


def test_partials_of_different_variants_do_not_merge_or_score():
    a = bleukit.load_variant("sacrebleu").partial(["a"], [["a"]])
    b = bleukit.load_variant("BLEUw4").partial(["a"], [["a"]])
    with pytest.raises(BleukitError, match="different variants"):
        a + b
    with pytest.raises(InputError, match="another variant's"):
        bleukit.load_variant("BLEUw4").score(a)
    with pytest.raises(InputError, match="every partition was empty"):
        bleukit.load_variant("sacrebleu").score(bleukit.load_variant("sacrebleu").partial([], [[]]))
    with pytest.raises(InputError, match="takes a Partial"):
        bleukit.load_variant("sacrebleu").score(0)


@pytest.mark.parametrize("name", ["sacrebleu", "BLEUc18", "chrF++", "BLEUw4[lowercase=true]"])
def test_variants_and_partials_pickle(name):
    v = bleukit.load_metric(name, threads=1)
    again = pickle.loads(pickle.dumps(v))
    assert type(again) is type(v) and again.config == v.config and again.threads == 1
    hyps, refs = ["the cat sat", "a dog"], [["the cat sat down", "a dog"]]
    p = pickle.loads(pickle.dumps(v.partial(hyps, refs)))
    assert again.score(p).score == v.corpus_score(hyps, refs).score


def test_threads_limit_the_engine(monkeypatch):
    monkeypatch.setenv("BLEUKIT_THREADS", "7")
    assert threads.workers() == 7
    with threads.limited(1):
        assert threads.workers() == 1
        with threads.limited(3):
            assert threads.workers() == 3
        assert threads.workers() == 1
    assert threads.workers() == 7
    seen = []
    original = threads.ordered_map

    def spy(fn, items, n):
        seen.append(n)
        return original(fn, items, n)

    monkeypatch.setattr("bleukit.engines.compiled.ordered_map", spy)
    v = bleukit.load_variant("sacrebleu", engine="auto", threads=2)
    v.corpus_score(["a b"], [["a b"]])
    v.partial(["a b"], [["a b"]], threads=1)
    if v.engine.name == "c":
        assert seen == [2, 1]
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ConfigError, match="positive integer"), threads.limited(bad):
            pass


def _tampered(partial, **changes):
    """The partial with fields replaced as a worker or a corrupt pickle
    could (object.__setattr__ bypasses the frozen dataclass)."""
    import copy

    out = copy.copy(partial)
    for key, value in changes.items():
        object.__setattr__(out, key, value)
    return out


BLEU_PARTIAL = bleukit.load_variant("sacrebleu").partial(
    ["the cat sat", "a dog"], [["the cat", "a dog"]]
)
CHRF_PARTIAL = bleukit.load_metric("chrF").partial(["the cat sat", "a dog"], [["the cat", "a dog"]])


@pytest.mark.parametrize(
    ("stats_changes", "message"),
    [
        ({"sys_len": -1}, "sys_len is -1"),
        ({"sys_len": float("nan")}, "sys_len is nan"),
        ({"ref_len": -3}, "ref_len is -3"),
        ({"counts": (5.0, 1, 0, 0)}, "counts is"),
        ({"counts": (-1, 1, 0, 0)}, "counts is"),
        ({"counts": (99, 1, 0, 0)}, "99 matched 1-grams of 5"),
        ({"totals": (5, 3, 1)}, "4 counts and 3 totals"),
        ({"segments": -2}, "2 segments, but statistics of -2"),
    ],
)
def test_a_tampered_bleu_partial_is_one_clear_error(stats_changes, message):
    v = bleukit.load_variant("sacrebleu")
    assert v.score(BLEU_PARTIAL).score >= 0  # the untampered one scores
    bad = _tampered(BLEU_PARTIAL, stats=BLEU_PARTIAL.stats._replace(**stats_changes))
    with pytest.raises(InputError, match="invalid partial statistics: .*" + message):
        v.score(bad)
    # the same statistics cannot be built, nor unpickled
    with pytest.raises(InputError, match="invalid partial statistics"):
        pickle.loads(pickle.dumps(bad))


@pytest.mark.parametrize("order", [1, 3, 5])
def test_statistics_of_another_order_are_refused(order):
    # a valid partial in itself, but not of this variant's shape: refused
    # when scored (the wrong number of orders was an IndexError)
    stats = BLEU_PARTIAL.stats._replace(counts=(1,) * order, totals=(2,) * order)
    bad = _tampered(BLEU_PARTIAL, stats=stats)
    with pytest.raises(InputError, match=f"counts 4 n-gram orders, these statistics have {order}"):
        bleukit.load_variant("sacrebleu").score(pickle.loads(pickle.dumps(bad)))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"segments": -1}, "segments is -1"),
        ({"segments": 1.5}, "segments is 1.5"),
        ({"nrefs": frozenset({0})}, "nrefs is"),
        ({"nrefs": frozenset()}, "2 segments with reference counts"),
        ({"start": 0}, "give both or neither"),
        ({"start": 1, "end": 2}, "cannot hold 2 segments"),
        ({"fingerprint": None}, "fingerprint is NoneType"),
        ({"ordered": "no"}, "ordered is 'no'"),
    ],
)
def test_a_tampered_partial_of_either_metric_is_refused(changes, message):
    for partial, name in ((BLEU_PARTIAL, "sacrebleu"), (CHRF_PARTIAL, "chrF")):
        bad = _tampered(partial, **changes)
        with pytest.raises(InputError, match=message):
            bleukit.load_metric(name).score(bad)
        with pytest.raises(InputError, match=message):
            pickle.loads(pickle.dumps(bad))


@pytest.mark.parametrize(
    ("stats", "message"),
    [
        ((1, 2, 3) * 6, "order 1: 3 matches of 1 hypothesis and 2 reference n-grams"),
        ((-1, 2, 0) * 6, "not BLEU's Stats or a row of non-negative integers"),
        ((1.0, 2, 0) * 6, "not BLEU's Stats or a row of non-negative integers"),
        ((Fraction(1, 2), 2, 0) * 6, "chrF counts integers"),
        ((1, 2), "these statistics have 0"),
        ((1, 2, 0) * 5, "counts 6 n-gram orders .a triple each., these statistics have 5"),
    ],
)
def test_a_tampered_chrf_partial_is_refused(stats, message):
    v = bleukit.load_metric("chrF")
    with pytest.raises(InputError, match="invalid partial statistics: .*" + message):
        v.score(_tampered(CHRF_PARTIAL, stats=stats))


def test_bleu_statistics_do_not_score_as_chrf_nor_the_reverse():
    with pytest.raises(InputError, match="invalid partial statistics"):
        bleukit.load_metric("chrF").score(
            _tampered(BLEU_PARTIAL, fingerprint=CHRF_PARTIAL.fingerprint)
        )
    with pytest.raises(InputError, match="invalid partial statistics"):
        bleukit.load_variant("sacrebleu").score(
            _tampered(CHRF_PARTIAL, fingerprint=BLEU_PARTIAL.fingerprint)
        )


def test_a_pickle_that_is_not_a_partials_state_is_refused():
    from bleukit.core.record import fields

    state = {f.name: getattr(BLEU_PARTIAL, f.name) for f in fields(BLEU_PARTIAL)}
    del state["ordered"]
    blank = object.__new__(type(BLEU_PARTIAL))
    with pytest.raises(InputError, match="not a Partial's"):
        blank.__setstate__(state)
