"""system_stats: several systems under several variants collected a chunk
at a time give the statistics of the whole corpus in memory, whatever the
chunk boundaries; names must differ; only collected variants are read."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import InputError
from bleukit.corpus.systems import SystemStatistics, collect, collect_chunks

WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ".", "猫", "dog", "ran"])
LINE = st.lists(WORDS, max_size=8).map(" ".join)
NAMES = [
    "sacrebleu", "BLEUw4", "BLEUc18", "BLEUw2", "BLEUw4[ref_length=average]",
    "nltk[smoothing=nltk-method7]", "chrF", "chrF++",
]  # fmt: skip
VARIANTS = [bleukit.load_metric(n) for n in NAMES]
BLEU = [v for v in VARIANTS if isinstance(v, bleukit.Variant)]
CHRF = [v for v in VARIANTS if not isinstance(v, bleukit.Variant)]


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 12))
    systems = [draw(st.lists(LINE, min_size=n, max_size=n)) for _ in range(draw(st.integers(1, 3)))]
    refs = [draw(st.lists(LINE, min_size=n, max_size=n)) for _ in range(draw(st.integers(1, 2)))]
    cuts = sorted(set(draw(st.lists(st.integers(1, n - 1), max_size=5)))) if n > 1 else []
    return systems, refs, list(zip([0, *cuts], [*cuts, n]))


def _chunks(systems, refs, bounds):
    return (([r[a:b] for r in refs], [s[a:b] for s in systems]) for a, b in bounds)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_chunk_boundaries_never_change_a_statistic(corpus):
    systems, refs, bounds = corpus
    names = [f"s{i}" for i in range(len(systems))]
    stats = collect_chunks(VARIANTS, names, _chunks(systems, refs, bounds))
    assert stats.segments == len(refs[0]) and stats.nrefs == len(refs)
    for variant in BLEU:
        for name, hyps in zip(names, systems):
            expected, _ = variant.segment_stats(hyps, refs)
            assert list(stats.segment_stats(variant, name)) == expected
            whole = variant.corpus_score(hyps, refs)
            assert variant.score_value(stats.total(variant, name)) == whole.score
            sentences = [r.score for r in variant.sentence_scores(hyps, refs)]
            assert stats.sentence_values(variant, name) == sentences
    for variant in CHRF:
        for name, hyps in zip(names, systems):
            # each chunk's rows made a column at a time (one reference) or
            # from the best reference's triples (two)
            expected, _ = variant.segment_stats(hyps, refs)
            assert list(stats.segment_stats(variant, name)) == expected
            assert stats.total(variant, name) == variant.corpus_stats(hyps, refs)[0]
            result = stats.score(variant, name)
            whole = variant.corpus_score(hyps, refs)
            assert result.score == whole.score
            assert result.signature.long == whole.signature.long


def test_reference_counts_that_differ_between_chunks_say_var():
    w4 = bleukit.load_variant("BLEUw4")
    refs = [["a cat", "the dog"], ["a cat .", None]]
    stats = collect_chunks([w4], ["s"], _chunks([["a cat", "a dog"]], refs, [(0, 1), (1, 2)]))
    assert stats.nrefs == "var" == w4.signature("var").nrefs
    assert collect([w4], [("s", ["a cat"])], [["a cat"], ["the cat"]]).nrefs == 2


def test_system_names_must_differ_and_chunks_match_them():
    w4 = bleukit.load_variant("BLEUw4")
    with pytest.raises(InputError, match="system names must differ: A, A"):
        SystemStatistics([w4], ["A", "A"])
    stats = SystemStatistics([w4], ["A", "B"])
    with pytest.raises(InputError, match="1 hypothesis chunks for 2 systems"):
        stats.add([["a cat"]], [["a cat"]])
    with pytest.raises(InputError, match="references have 1 segments but there are 2"):
        stats.add([["a cat"]], [["a cat"], ["a", "b"]])


def test_only_collected_variants_are_read_and_empty_is_an_error():
    w4, c18 = bleukit.load_variant("BLEUw4"), bleukit.load_variant("BLEUc18")
    chrf = bleukit.load_metric("chrF")
    stats = SystemStatistics([w4], ["A"])
    with pytest.raises(InputError, match="no segments to score"):
        stats.total(w4, "A")
    with pytest.raises(InputError, match="no segments to score"):
        _ = stats.nrefs
    stats.add([["a cat sat"]], [["a cat sat"]])
    # the same tokenization at a higher order was not counted
    with pytest.raises(InputError, match="variant BLEUw5 was not collected"):
        stats.total(w4.with_overrides(max_order=5, name="BLEUw5"), "A")
    with pytest.raises(InputError, match="variant BLEUc18 was not collected"):
        stats.segment_stats(c18, "A")
    with pytest.raises(InputError, match="variant chrF was not collected"):
        stats.score(chrf, "A")
    # a lower order of a collected tokenization reads the same tables
    w2 = w4.with_overrides(max_order=2)
    assert (
        w2.score_value(stats.total(w2, "A"))
        == w2.corpus_score(["a cat sat"], [["a cat sat"]]).score
    )


def test_statistics_pickle_and_extend_in_chunk_order():
    """What an executor's worker sends back: a chunk's statistics, tables
    from the compiled kernel's buffers included, extended in order."""
    import pickle

    systems = [["the cat sat", "a dog", "it rains", "ok"], ["a cat", "the dog ran", "rain", "ok"]]
    refs = [["the cat sat on", "a dog ran", "it rains today", "ok"]]
    names = ["A", "B"]
    whole = collect(VARIANTS, list(zip(names, systems)), refs)
    merged = SystemStatistics(VARIANTS, names)
    for a, b in ((0, 1), (1, 3), (3, 4)):
        chunk = collect(VARIANTS, [(n, s[a:b]) for n, s in zip(names, systems)], [refs[0][a:b]])
        merged.extend(pickle.loads(pickle.dumps(chunk)))
    assert merged.segments == 4 and merged.nrefs == 1
    for variant in BLEU:
        for name in names:
            assert list(merged.segment_stats(variant, name)) == list(
                whole.segment_stats(variant, name)
            )
    for variant in CHRF:
        assert merged.score(variant, "B").score == whole.score(variant, "B").score
    with pytest.raises(InputError, match="collected for other variants or systems"):
        merged.extend(collect(BLEU, [("A", ["x"]), ("B", ["y"])], [["x"]]))
    with pytest.raises(InputError, match="collected for other variants or systems"):
        merged.extend(collect(VARIANTS, [("A", ["x"]), ("C", ["y"])], [["x"]]))


def test_segment_stats_are_a_sequence_read_from_the_tables():
    w4 = bleukit.load_variant("BLEUw4")
    hyps = [f"the cat {i} sat" for i in range(10)]
    refs = [[f"the cat {i % 3} sat on" for i in range(10)]]
    expected, _ = w4.segment_stats(hyps, refs)
    chunks = [(([r[a:b] for r in refs]), [hyps[a:b]]) for a, b in ((0, 3), (3, 4), (4, 10))]
    segments = collect_chunks([w4], ["s"], chunks).segment_stats(w4, "s")
    assert len(segments) == 10 and list(segments) == expected
    assert [segments[i] for i in (0, 3, 4, 9, -1, -10)] == [
        expected[i] for i in (0, 3, 4, 9, -1, -10)
    ]
    assert segments[2:5] == expected[2:5]
    for bad in (10, -11):
        with pytest.raises(IndexError):
            segments[bad]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_sums_alone_give_the_totals_of_per_segment_statistics(corpus):
    """matrix and score keep running sums (per_segment=False), not tables:
    the same totals, the last segment's fields included (NLTK method 7 reads
    them), whatever the chunk boundaries."""
    systems, refs, bounds = corpus
    names = [f"s{i}" for i in range(len(systems))]
    full = collect_chunks(VARIANTS, names, _chunks(systems, refs, bounds))
    sums = collect_chunks(VARIANTS, names, _chunks(systems, refs, bounds), per_segment=False)
    assert (sums.segments, sums.nrefs) == (full.segments, full.nrefs)
    for variant in BLEU:
        for name in names:
            assert sums.total(variant, name) == full.total(variant, name)
    for variant in CHRF:
        assert sums.score(variant, names[0]).score == full.score(variant, names[0]).score


def test_sums_alone_extend_in_order_and_refuse_per_segment_questions():
    import pickle

    systems = [["the cat sat", "a dog", "it rains", "ok"], ["a cat", "the dog ran", "rain", "ok"]]
    refs = [["the cat sat on", "a dog ran", "it rains today", "ok"]]
    names = ["A", "B"]
    whole = collect(VARIANTS, list(zip(names, systems)), refs)
    merged = SystemStatistics(VARIANTS, names, per_segment=False)
    for a, b in ((0, 1), (1, 3), (3, 4)):
        chunk = SystemStatistics(VARIANTS, names, per_segment=False)
        chunk.add([refs[0][a:b]], [s[a:b] for s in systems])
        merged.extend(pickle.loads(pickle.dumps(chunk)))
    for variant in BLEU:
        assert merged.total(variant, "B") == whole.total(variant, "B")
    with pytest.raises(ValueError, match="collected as sums"):
        merged.segment_stats(BLEU[0], "A")
    with pytest.raises(ValueError, match="collected as sums"):
        merged.sentence_values(BLEU[0], "A")
    with pytest.raises(InputError, match="other variants or systems"):
        merged.extend(collect(VARIANTS, list(zip(names, systems)), refs))  # per segment
    with pytest.raises(InputError, match="was not collected"):
        merged.total(bleukit.load_variant("BLEUw3"), "A")


def test_columns_are_made_once_until_released_or_more_segments_come():
    bleu, chrf = bleukit.load_metric("BLEUw4"), bleukit.load_metric("chrF")
    stats = collect([bleu, chrf], [("a", ["the cat sat"]), ("b", ["a cat"])], [["the cat sat"]])
    cols = stats.columns(bleu, "a")
    assert stats.columns(bleu, "a") is cols and stats.columns(chrf, "a") is not cols
    assert cols.n == 1 and list(cols.total()) == list(bleu.row(stats.total(bleu, "a")))
    stats.release_columns(bleu)
    assert stats.columns(bleu, "a") is not cols
    kept = stats.columns(chrf, "b")
    stats.add([["a dog"]], [["a dog"], ["dog"]])
    # new segments: every column is made again, over both
    assert stats.columns(chrf, "b") is not kept and stats.columns(chrf, "b").n == 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.data())
def test_a_subtotal_sums_the_chosen_segments_as_their_columns_do(corpus, data):
    """``subtotal`` (BLEU: one table of the chosen rows; chrF: the store's
    segments) equals the resampling columns of those segments, in any order,
    and the total where every segment is chosen; chunks, systems and
    variants sharing one selection do not mix."""
    from bleukit.core.resampling import Columns

    systems, refs, bounds = corpus
    names = [f"s{i}" for i in range(len(systems))]
    stats = collect_chunks(VARIANTS, names, _chunks(systems, refs, bounds))
    n = len(refs[0])
    rows = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n))
    for v in VARIANTS:
        for name in names:
            segments = list(stats.segment_stats(v, name))
            cols = Columns([segments[i] for i in rows], v)
            assert stats.subtotal(v, name, rows) == cols.to_stats(cols.total()), (v.name, rows)
            assert stats.subtotal(v, name, range(n)) == stats.total(v, name)
    # each system its own segments (a study's systems rated apart), variant
    # after variant: every system keeps its own selection
    own = {name: data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n))
           for name in names}  # fmt: skip
    for v in VARIANTS:
        for name in names:
            segments = list(stats.segment_stats(v, name))
            cols = Columns([segments[i] for i in own[name]], v)
            assert stats.subtotal(v, name, own[name]) == cols.to_stats(cols.total())


CHRF_GRID = [
    bleukit.load_metric("chrF", char_order=o, word_order=w, beta=b, eps_smoothing=e)
    for o, w, b, e in [(6, 0, 2, False), (3, 2, 1, False), (4, 1, 3, True), (1, 0, 2, False)]
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_chrf_variants_of_one_tokenization_share_one_count(corpus):
    """chrF variants that differ in their orders, beta and smoothing share
    one store, counted once at the highest orders: each variant's triples
    (its best reference chosen by its own F) and sums are its own."""
    systems, refs, bounds = corpus
    names = [f"s{i}" for i in range(len(systems))]
    assert len({v.store_key() for v in CHRF_GRID}) == 1
    stats = collect_chunks(CHRF_GRID, names, _chunks(systems, refs, bounds))
    sums = collect_chunks(CHRF_GRID, names, _chunks(systems, refs, bounds), per_segment=False)
    for v in CHRF_GRID:
        for name, hyps in zip(names, systems):
            own, _ = v.segment_stats(hyps, refs)
            assert list(stats.segment_stats(v, name)) == own, v.name
            assert stats.total(v, name) == sums.total(v, name) == v.corpus_stats(hyps, refs)[0]


#: BLEU variants, some of equal statistics (``Metric.statistics_key``)
KEYED = [bleukit.load_metric(n) for n in (
    "BLEUw4", "BLEUw4[smoothing=exp.v1]", "BLEUw4[smoothing=add-k.v1,effective_order=true]",
    "BLEUw4[max_order=3]", "BLEUw4[ref_length=shortest.v1]", "BLEUw4[totals=at-least-one]",
    "BLEUw4[lowercase=true]",
)]  # fmt: skip


def test_statistics_keys_part_bleu_variants_by_what_their_statistics_read():
    keys = [v.statistics_key() for v in KEYED]
    assert keys[0] == keys[1] == keys[2]
    assert len(set(keys)) == len(KEYED) - 2
    chrf = bleukit.load_metric("chrF")
    assert chrf.statistics_key() == chrf.fingerprint  # the default: the whole variant


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_variants_of_equal_statistics_keys_have_equal_columns(corpus):
    """What a study makes once for variants of one key (their columns, and
    so every sum of them) is what each would make itself."""
    systems, refs, bounds = corpus
    names = [f"s{i}" for i in range(len(systems))]
    stats = collect_chunks(KEYED, names, _chunks(systems, refs, bounds))
    for v in KEYED:
        for w in KEYED:
            if v.statistics_key() != w.statistics_key():
                continue
            for name in names:
                a, b = stats.columns(v, name), stats.columns(w, name)
                assert a.width == b.width and list(a.cols) == list(b.cols)
                assert a.to_stats(a.total()) == b.to_stats(b.total()) == stats.total(w, name)


#: sentence variants of one tokenization and smoothing at several orders:
#: one ``sentence_batch_key``
BATCH = [bleukit.load_metric(f"BLEUw4[max_order={o},smoothing=exp.v1]") for o in (2, 4, 3, 4)]


def test_sentence_batch_keys_join_orders_of_one_rule():
    keys = {v.sentence_batch_key() for v in BATCH}
    assert len(keys) == 1
    for other in ("BLEUw4[smoothing=exp.v1,effective_order=true]", "BLEUw4[smoothing=none.v1]",
                  "BLEUw4[smoothing=exp.v1,ref_length=shortest.v1]",
                  "BLEUw4[smoothing=exp.v1,lowercase=true]"):  # fmt: skip
        assert bleukit.load_metric(other).sentence_batch_key() not in keys, other
    weighed = bleukit.load_metric("BLEUw4", weights=[0.4, 0.3, 0.2, 0.1])
    assert weighed.sentence_batch_key() == weighed.fingerprint  # no kernel: alone
    chrf = bleukit.load_metric("chrF")
    assert chrf.sentence_batch_key() == chrf.fingerprint


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_sentence_values_of_a_batch_are_each_variants_own(corpus):
    systems, refs, bounds = corpus
    names = [f"s{i}" for i in range(len(systems))]
    stats = collect_chunks(BATCH, names, _chunks(systems, refs, bounds))
    for name in names:
        together = stats.sentence_values_many(BATCH, name)
        assert list(map(list, together)) == [stats.sentence_values(v, name) for v in BATCH]
    chrf = bleukit.load_metric("chrF")
    with pytest.raises(InputError, match="2 sentence batch keys"):
        stats.sentence_values_many([BATCH[0], chrf], names[0])
