"""Result values: a BLEU score with what checks it, intervals, a system's
row in a significance test."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.core.results import ALPHA, Interval, SystemResult
from bleukit.metrics.bleu.result import BleuResult


def test_format_reads_like_sacrebleu():
    r = BleuResult(31.258, (61.9, 37.0, 24.6, 16.9), 1.0, 28186, 27970, (1, 1, 1, 1), (1, 1, 1, 1))
    assert str(r) == (
        "BLEU = 31.26 61.9/37.0/24.6/16.9 "
        "(BP = 1.000 ratio = 1.008 hyp_len = 28186 ref_len = 27970)"
    )
    d = r.to_dict()
    assert d["score"] == 31.258 and d["ratio"] == pytest.approx(28186 / 27970)


@given(
    st.floats(0, 100),
    st.lists(st.floats(0, 100), min_size=1, max_size=6),
    st.floats(0, 1),
    st.integers(0, 10**6),
    st.integers(0, 10**6) | st.fractions(0, 10**6),
    st.integers(0, 16),
)
def test_format_writes_what_sacrebleus_f_strings_write(score, precisions, bp, hyp, ref, width):
    r = BleuResult(score, tuple(precisions), bp, hyp, ref, (), ())
    ratio = float(hyp / ref) if ref else 0.0
    ref_text = f"{ref:d}" if isinstance(ref, int) else f"{float(ref):.2f}"
    prec = "/".join(f"{p:.1f}" for p in precisions)
    assert r.format(width) == (
        f"BLEU = {score:.{width}f} {prec} (BP = {bp:.3f} "
        f"ratio = {ratio:.3f} hyp_len = {hyp:d} ref_len = {ref_text})"
    )


def test_a_fractional_reference_length_prints_and_serialises_as_a_number():
    r = BleuResult(10.0, (50.0,), 0.5, 3, Fraction(7, 2), (1,), (3,))
    assert r.format().endswith("hyp_len = 3 ref_len = 3.50)")
    assert r.to_dict()["ref_len"] == 3.5 and r.ratio == pytest.approx(3 / 3.5)


def test_the_signature_goes_into_the_dict_but_not_into_equality():
    r = bleukit.load_variant("BLEUw4").sentence_score("a b", ["a b"])
    assert r.to_dict()["signature"] == r.signature.long
    assert r == BleuResult(r.score, r.precisions, r.bp, r.sys_len, r.ref_len, r.counts, r.totals)


def test_interval_and_significance():
    iv = Interval(10.0, 14.0, 12.1, 0.95)
    assert iv.half_width == 2.0
    r = BleuResult(12.0, (50.0,), 1.0, 3, 3, (1,), (3,))
    assert SystemResult("a", r, iv, p_value=ALPHA / 2).significant
    assert not SystemResult("a", r, iv, p_value=ALPHA).significant
    assert not SystemResult("base", r, iv, baseline=True).significant


def test_make_is_the_same_result_as_the_constructor():
    from bleukit.core.record import FrozenInstanceError, fields
    from bleukit.metrics.bleu.result import BleuResult

    args = (12.5, (50.0, 25.0), 0.9, 10, 11, (5, 2), (10, 8), None)
    made, built = BleuResult.make(*args), BleuResult(*args)
    assert made == built and repr(made) == repr(built)
    assert [f.name for f in fields(BleuResult)] == list(vars(made))
    with pytest.raises(FrozenInstanceError):
        made.score = 1.0  # type: ignore[misc]
