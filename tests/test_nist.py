"""NIST (bleukit.metrics.nist) equals mteval-v13a.pl's on every NIST row of
the WMT oracle (tests/golden/wmt_oracle.json, from tests/golden/make_golden.py:
-c, the default ASCII lowercasing, and --international-tokenization), keeps
mteval's quirks, and holds the properties its statistics must
(tests_oracle/test_live_nist.py compares it with NLTK's corpus_nist)."""

from __future__ import annotations

import functools
import json
import math
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import InputError
from bleukit.engines import ENGINES
from bleukit.metrics import parse_any_signature
from bleukit.metrics.nist.core import (
    INFO_SCALE,
    NistSignature,
    information,
    length_penalty,
    nist_score,
    segment_stats,
)
from bleukit.metrics.nist.variant import WeighedSegments
from bleukit.metrics.registry import validate_any

GOLDEN = json.loads((Path(__file__).parent / "golden" / "wmt_oracle.json").read_text("utf-8"))
CASES = [c for c in GOLDEN["cases"] if "nist" in c]
TOL = 1e-9


@cache
def _variant(overrides: str):
    return bleukit.load_metric("NIST", **json.loads(overrides))


@pytest.mark.golden
@pytest.mark.parametrize(
    "case",
    CASES,
    ids=lambda c: f"{c['set']}|{c['system']}|{'+'.join(c['refs'])}|{c['overrides']}",
)
def test_corpus_nist_equals_mteval(case, wmt):
    nist = _variant(json.dumps(case["overrides"], sort_keys=True))
    prepared = wmt.prepared(nist, case["set"], case["refs"])
    result = nist.corpus_score(wmt.hyps(case["set"], case["system"]), prepared)
    assert result.score == pytest.approx(case["nist"], abs=TOL, rel=0)
    assert result.sys_len == case["sys_len"]


def test_every_mteval_option_and_reference_set_is_covered():
    assert len(CASES) >= 100
    assert {json.dumps(c["overrides"]) for c in CASES} == {
        '{"lowercase": false}',
        '{"lowercase": "ascii"}',
        '{"tokenizer": "mteval-intl.v1"}',
    }
    assert any(len(c["refs"]) == 3 for c in CASES)


def test_information_is_bits_of_the_prefix_continuing():
    refs = [["a", "b", "a", "c"], ["a", "b"]]
    info = information(refs, 2)
    # "a" is 3 of 6 words: 1 bit; "a b" continues 2 of 3 "a": log2(3/2)
    assert info[("a",)] == INFO_SCALE
    assert info[("a", "b")] == round(math.log2(3 / 2) * INFO_SCALE)
    assert info[("b", "a")] == INFO_SCALE  # one "b" of two goes on to "a"
    assert info[("c",)] == round(math.log2(6) * INFO_SCALE)


def test_perl_falsy_zero_prefix_quirk():
    """mteval tests the prefix string for truth: after the word "0" an
    n-gram is weighed by its share of all reference words."""
    info = information([["0", "x", "1", "x"]], 2)
    assert info[("0", "x")] == round(math.log2(4) * INFO_SCALE)  # 1 of 4 words
    assert info[("1", "x")] == 0  # "1" always continues into "1 x"


def test_length_penalty_halves_at_two_thirds():
    assert length_penalty(1.0) == 1.0 and length_penalty(1.7) == 1.0
    assert length_penalty(2 / 3) == pytest.approx(0.5, abs=1e-12)
    assert length_penalty(0.0) == 0.0


def test_scores_and_results():
    nist = bleukit.load_metric("NIST")
    assert nist.higher_is_better and nist.score_name == "NIST" and nist.order == 5
    perfect = nist.corpus_score(["a b c d"], [["a b c d"]])
    # every word once in 4: 2 bits per unigram; bigrams and more: 0 bits
    assert perfect.score == pytest.approx(2.0, abs=1e-12)
    assert perfect.totals == (4, 3, 2, 1, 0) and perfect.sys_len == 4
    assert nist.corpus_score(["x y"], [["a b c d"]]).score == 0.0
    assert str(perfect) == "NIST = 2.0000"
    assert perfect.to_dict()["metric"] == "NIST"
    assert nist.with_order(3).order == 3
    short = nist.corpus_score(["a b"], [["a b c d"]])  # half the length
    assert short.score == pytest.approx(2.0 * length_penalty(0.5), abs=1e-12)


def test_mean_reference_length_with_several_references():
    nist = bleukit.load_metric("NIST")
    stats, nrefs = nist.corpus_stats(["a b"], [["a b c"], ["a b c d"]])
    assert stats[0] == Fraction(7, 2) and nrefs == 2


def test_sentence_scores_use_the_corpus_weights():
    nist = bleukit.load_metric("NIST")
    hyps = ["a b", "c d"]
    refs = [["a b", "c d e f"]]
    sentences = nist.sentence_scores(hyps, refs)
    # "a" is 1 of 6 reference words in the corpus, not 1 of 2
    assert sentences[0].information[0] == pytest.approx(2 * math.log2(6), abs=1e-9)


def test_signature_round_trips_and_names_everything():
    nist = bleukit.load_metric("NIST", lowercase="ascii")
    sig = nist.signature(2)
    assert sig.long.startswith("bleukit|metric:nist.v1|tok:13a.v1|split:unicode.v1|case:lc-ascii|")
    assert "order:5" in sig.long and "nrefs:2" in sig.long
    for text in (sig.long, sig.short):
        assert NistSignature.parse(text, validate_any).long == sig.long
        assert parse_any_signature(text).long == sig.long
    assert sig.sacrebleu is None and not sig.sacrebleu_compatible


def test_partials_of_parts_are_refused():
    nist = bleukit.load_metric("NIST")
    with pytest.raises(InputError, match="cannot be scored in parts"):
        nist.partial(["a b"], [["a b"]])


WORDS = st.lists(st.sampled_from(["a", "b", "c", "0", "."]), max_size=8)


@given(st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=6))
def test_segment_statistics_sum_to_the_corpus_and_order_does_not_matter(pairs):
    nist = bleukit.load_metric("NIST")
    hyps = [" ".join(h) for h, _ in pairs]
    refs = [[" ".join(r) for _, r in pairs]]
    prepared = nist.prepare_references(refs)
    segments, _ = nist.segment_stats(hyps, prepared)
    total, _ = nist.corpus_stats(hyps, prepared)
    assert nist.sum_stats(reversed(segments)) == total
    assert nist.score_value(total) >= 0
    # the same corpus in another order: the same statistics
    order = list(reversed(range(len(pairs))))
    again, _ = nist.corpus_stats([hyps[i] for i in order], [[refs[0][i] for i in order]])
    assert again == total


def test_score_of_zero_statistics():
    assert nist_score((0,) * 11, 5) == 0.0


ENGINE_NAMES = [n for n in ("python", "c") if ENGINES.get(n).unavailable() is None]
#: words with the falsy "0", and lines that hold a newline (a block of lines
#: cannot carry one: the tokenization's own tokens are weighed then)
LINE = st.lists(st.sampled_from(["a", "b", "c", "0", "0 a", ".", "a\nb"]), max_size=9).map(" ".join)


def _reference_stats(hyps, streams, order, tokenizer):
    """The Python reference (core.information, core.segment_stats) on the
    tokenizer's own tokens."""
    tokens = bleukit.load_metric("NIST", engine="python", tokenizer=tokenizer).tokens
    words = [tuple(tuple(tokens([r])[0]) for r in refs if r is not None) for refs in zip(*streams)]
    info = information((ref for refs in words for ref in refs), order)
    return [segment_stats(tuple(tokens([h])[0]), ws, info, order) for h, ws in zip(hyps, words)]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@given(
    st.lists(st.tuples(LINE, LINE, LINE, st.integers(0, 3)), min_size=1, max_size=8),
    st.integers(1, 6),
    st.sampled_from(["13a", "none"]),
)
def test_every_engine_gives_the_python_reference(engine, rows, order, tokenizer):
    """The engine's weighed references (the C kernel's InfoTable) give, segment
    by segment and summed, what core.information and core.segment_stats give:
    with the falsy "0", segments missing a reference (mean lengths over the
    others), empty lines and lines that hold a newline."""
    nist = bleukit.load_metric("NIST", engine=engine, tokenizer=tokenizer, max_order=order)
    hyps = [h for h, _, _, _ in rows]
    # a segment keeps the first reference, the second where its bit 1 is
    # clear, the third where its bit 2 is
    streams = [
        [a for _, a, _, _ in rows],
        [None if m & 1 and m != 3 else b for _, _, b, m in rows],
        [c if m & 2 else None for _, _, c, m in rows],
    ]
    prepared = nist.prepare_references(streams)
    assert (prepared.weighed is not None) == (engine == "c")
    segments, _ = nist.segment_stats(hyps, prepared)
    assert segments == _reference_stats(hyps, streams, order, tokenizer)
    total, _ = nist.corpus_stats(hyps, prepared)
    assert total == functools.reduce(nist.add_stats, segments, nist.zero_stats())
    assert nist.sum_stats(segments) == total


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@given(
    st.lists(st.tuples(LINE, LINE, LINE, st.booleans()), min_size=1, max_size=9),
    st.integers(1, 4),
)
def test_a_store_counts_its_packed_chunks_as_one_call(engine, rows, size):
    """Chunks of ``size`` segments of two systems kept in a store (counted
    once asked for) give the statistics of one call, segment by segment
    (read in order, by index, negative indices and slices too) and summed;
    a store pickled after each chunk and extended (an executor's path)
    too; a chunk added after counting is counted with the rest."""
    import pickle

    from bleukit.corpus.systems import SystemStatistics

    nist = bleukit.load_metric("NIST", engine=engine)
    systems = {"a": [h for h, _, _, _ in rows], "b": [a for _, a, _, _ in rows][::-1]}
    streams = [[a for _, a, _, _ in rows], [None if m else b for _, _, b, m in rows]]
    chunks = [
        ([s[lo : lo + size] for s in streams], [h[lo : lo + size] for h in systems.values()])
        for lo in range(0, len(rows), size)
    ]
    kept = SystemStatistics([nist], list(systems))
    merged = SystemStatistics([nist], list(systems))
    for refs, hyps in chunks:
        kept.add(refs, hyps)
        one = SystemStatistics([nist], list(systems))
        one.add(refs, hyps)
        merged.extend(pickle.loads(pickle.dumps(one)))
    for stats in (kept, merged):
        for name, hyps in systems.items():
            expected, _ = nist.segment_stats(hyps, streams)
            segments = stats.segment_stats(nist, name)
            n = len(expected)
            assert list(segments) == expected and len(segments) == n
            assert [segments[i] for i in range(-n, n)] == expected * 2
            assert segments[1:-1] == expected[1:-1] and segments[::2] == expected[::2]
            with pytest.raises(IndexError):
                segments[n]
            assert stats.total(nist, name) == nist.sum_stats(expected)
            assert stats.score(nist, name) == nist.corpus_score(hyps, streams)
    refs, hyps = chunks[0]
    earlier = kept.segment_stats(nist, "a")
    kept.add(refs, hyps)
    more = [s + c for s, c in zip(streams, refs)]
    for (name, whole), hyp in zip(systems.items(), hyps):
        again, _ = nist.segment_stats(whole + hyp, more)
        assert list(kept.segment_stats(nist, name)) == again
    # segments handed out before keep their own segments and sums
    expected, _ = nist.segment_stats(systems["a"], streams)
    assert list(earlier) == expected
    if isinstance(earlier, WeighedSegments):
        assert earlier.total() == nist.sum_stats(expected)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_store_pickles_while_its_chunks_wait(engine):
    """An executor's store (one chunk, waiting packed) pickles. Once the
    engine's table holds its references (a second chunk counts the first),
    pickling is refused with a TypeError; the reference path keeps every
    chunk packed and pickles with any number."""
    import pickle

    from bleukit.corpus.systems import SystemStatistics

    nist = bleukit.load_metric("NIST", engine=engine)
    stats = SystemStatistics([nist], ["a"])
    stats.add([["a b c"]], [["a b"]])
    again = pickle.loads(pickle.dumps(stats))
    stats.add([["b c"]], [["c"]])
    if engine == "c":
        with pytest.raises(TypeError, match="does not pickle"):
            pickle.dumps(stats)
        with pytest.raises(InputError, match="extends only stores whose chunks wait"):
            SystemStatistics([nist], ["a"]).extend(stats)
    else:
        again = pickle.loads(pickle.dumps(stats))
    assert again.score(nist, "a") == nist.corpus_score(
        ["a b", "c"][: again.segments], [["a b c", "b c"][: again.segments]]
    )


@pytest.mark.skipif("c" not in ENGINE_NAMES, reason="the compiled engine is not built")
def test_the_compiled_engine_weighs_block_by_block(monkeypatch):
    """References added and hypotheses weighed (or held, then weighed) in
    blocks of 8 lines, each tokenized a line at a time (CHUNK made 1), give
    the statistics of one block."""
    from bleukit.engines import compiled

    rng = random.Random(7)
    vocab = ["a", "b", "c", "d", "0", "e", "."]

    def line():
        return " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 12)))

    hyps = [line() for _ in range(300)]
    streams = [[line() for _ in range(300)], [line() for _ in range(300)]]
    whole, _ = bleukit.load_metric("NIST", engine="c").segment_stats(hyps, streams)
    monkeypatch.setattr(compiled, "CHUNK", 1)
    monkeypatch.setattr(compiled, "_WEIGH_LINES", 8)
    nist = bleukit.load_metric("NIST", engine="c")
    blocks, _ = nist.segment_stats(hyps, streams)
    assert blocks == whole == _reference_stats(hyps, streams, 5, "13a")
    # held as ids, a store's chunks of 50 lines in blocks of 8, weighed in threads
    from bleukit.corpus.systems import collect_chunks

    chunks = [
        ([s[lo : lo + 50] for s in streams], [hyps[lo : lo + 50]]) for lo in range(0, 300, 50)
    ]
    assert list(collect_chunks([nist], ["a"], chunks).segment_stats(nist, "a")) == whole


def test_a_tokenization_the_kernel_cannot_weigh_is_counted_in_python():
    nist = bleukit.load_metric("NIST", tokenizer="char")
    prepared = nist.prepare_references([["ab c"]])
    assert prepared.weighed is None and prepared.words == ((tuple("abc"),),)
    assert nist.corpus_score(["ab c"], prepared).score > 0


@given(
    st.integers(1, 6),
    st.integers(0, 200),
    st.lists(st.integers(0, 2**70), min_size=6, max_size=6),
    st.one_of(st.integers(0, 500), st.fractions(0, 500)),
)
def test_a_resampling_row_keeps_the_information_as_32_bit_limbs(order, grams, info, ref):
    """``row`` cuts each order's fixed-point information into a low and a
    high 32-bit limb (a row of uint32 while the information is below 2**64,
    so the compiled resamplers sum it exactly), and ``from_row`` of any
    sum of rows is the sum of the statistics."""
    from bleukit.core.resampling import Columns

    variant = bleukit.load_metric("NIST", max_order=order)
    stats = (ref, *[grams] * order, *info[:order])
    row = variant.row(stats)
    assert len(row) == 1 + 3 * order and variant.from_row(row, 1, stats) == stats
    both = variant.from_row([a + b for a, b in zip(row, row)], 2, stats)
    assert both == variant.add_stats(stats, stats)
    cols = Columns([stats, stats], variant)
    fits = isinstance(ref, int) and all(v < 2**64 for v in info[:order])
    assert cols.packable == fits
    assert cols.to_stats(cols.total()) == both


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_resampling_limb_rows_gives_what_whole_information_gave(test, monkeypatch):
    """The paired test and intervals on the limb rows (summed in C where
    the engine is compiled) equal those of rows that keep each order's
    information whole (summed in Python, as before the limbs)."""
    from bleukit.corpus.systems import collect
    from bleukit.metrics.nist.variant import NistVariant
    from bleukit.significance.paired import SignificanceSpec, paired_test

    refs = ["the cat sat on the mat today", "a dog barked at the moon", "it rains in spain"] * 7
    a = ["the cat sat on a mat today", "a dog barks at a moon", "it rained in spain"] * 7
    b = ["cat sat mat", "the dog barked at the moon", "rain in spain it is"] * 7
    spec = SignificanceSpec(test, samples=40, seed=3, confidence_samples=40)

    def results() -> list[object]:
        out = []
        for engine in ENGINE_NAMES:
            v = bleukit.load_metric("NIST", engine=engine)
            stats = collect([v], [("a", a), ("b", b)], [refs])
            systems = [(n, stats.segment_stats(v, n)) for n in "ab"]
            out.append(paired_test(v, systems, stats.nrefs, spec))
        return out

    limbs = results()
    monkeypatch.setattr(NistVariant, "row", lambda self, stats: stats)
    monkeypatch.setattr(NistVariant, "from_row", lambda self, sums, n, last: tuple(sums))
    whole = results()
    assert all(r == whole[0] for r in [*limbs, *whole])


@given(
    st.integers(1, 6),
    st.lists(
        st.tuples(
            st.one_of(st.integers(0, 500), st.fractions(0, 500)),
            st.integers(0, 300),
            st.lists(st.integers(0, 2**70), min_size=6, max_size=6),
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_scores_of_summed_rows_are_those_of_their_statistics(order, segments, two_sides):
    """``score_sums`` (a field at a time in Python; in C, each information
    over its n-grams correctly rounded from 128-bit integers) gives the
    floats of each summed row's statistics scored one by one
    (``Metric.score_sums``: big-integer divisions), on every engine, for
    rows alone and for a trial's two sides, Fraction lengths included (the
    compiled engine leaves those to Python), information past 2**64."""
    from bleukit.core.resampling import Columns
    from bleukit.metrics.base import Metric
    from bleukit.metrics.nist.core import INFO_BITS, PENALTY_BETA

    for engine in ENGINE_NAMES:
        variant = bleukit.load_metric("NIST", max_order=order, engine=engine)
        stats = [(ref, *[max(grams - k, 0) for k in range(order)], *info[:order])
                 for ref, grams, info in segments]  # fmt: skip
        cols = Columns(stats, variant)
        rows = [x for s in stats for x in variant.row(s)]
        # the other side: the same rows, the last first
        w = cols.width
        other = rows[-w:] + rows[:-w] if two_sides else None
        expected = Metric.score_sums(variant, cols, rows, other)
        assert variant.score_sums(cols, rows, other) == expected
        assert len(expected) == len(stats)
        kernel = variant.engine.nist_values(rows, other, order, INFO_BITS, PENALTY_BETA)
        whole = all(isinstance(x, int) for x in rows)
        assert kernel == (expected if engine == "c" and whole else None)


@pytest.mark.skipif("c" not in ENGINE_NAMES, reason="the compiled engine is not built")
def test_compiled_information_quotients_round_half_to_even():
    """The compiled quotients are Python's ``int / int``, ties included:
    2**53 + 1 lies halfway between two doubles (rounded down to the even
    one), 2**53 + 3 too (rounded up to the even one), 2**54 + 6 over 2 as
    well; 2**90 + 1 over 3 and no n-grams (divided by 1) besides."""
    from bleukit.metrics.nist.core import INFO_BITS, INFO_SCALE, PENALTY_BETA

    cases = [(2**53 + 1, 1), (2**53 + 3, 1), (2**54 + 6, 2), (2**90 + 1, 3), (2**64 - 1, 7), (5, 0),
             (0, 4)]  # fmt: skip
    rows = []
    for info, grams in cases:
        # no reference words: no length penalty, the quotient alone
        rows += [0, grams, info & (2**32 - 1), info >> 32]
    expected = [info / (INFO_SCALE * max(grams, 1)) for info, grams in cases]
    engine = ENGINES.get("c")
    assert engine.nist_values(rows, None, 1, INFO_BITS, PENALTY_BETA) == expected
    assert engine.nist_values([0, -1, 0, 0], None, 1, INFO_BITS, PENALTY_BETA) is None
