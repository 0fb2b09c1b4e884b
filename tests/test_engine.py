"""The engines: the compiled one (bleukit._accel) must give exactly the
statistics of the pure-Python reference, for every tokenizer, splitter,
case setting, order and reference pattern; and engine selection must be
explicit. BLEUKIT_REQUIRE_ACCEL=1 (set by CI) makes a missing compiled
engine an error instead of a skip."""

from __future__ import annotations

import functools
import math
import os
import random
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import ConfigError, InputError, MissingDependencyError
from bleukit.core.resampling import (
    Columns,
    Draws,
    bootstrap_rows,
    bootstrap_sums,
    randomization_sums,
    split_sums,
)
from bleukit.core.stats import Stats
from bleukit.engines import ENGINES, Engine, compiled, threads
from bleukit.engines.python import PythonEngine
from bleukit.tokenizers import TOKENIZERS, make_tokenization

#: a codec for Columns of 2-order statistics (what resampling sums, Metric.row)
BLEU2 = bleukit.load_variant("BLEUw4", max_order=2)

ACCEL = compiled.accelerator()
needs_accel = pytest.mark.skipif(
    ACCEL is None and not os.environ.get("BLEUKIT_REQUIRE_ACCEL"),
    reason="bleukit._accel is not built (no C compiler at install time)",
)

TOKENIZER_NAMES = (
    [os.environ["BLEUKIT_TOK"]]
    if os.environ.get("BLEUKIT_TOK")
    else ["13a", "intl", "char", "char-space", "zh", "zh.v2", "none", "script"]
)

# characters that the tokenizers treat specially: ASCII punctuation and
# digits (13a), Unicode punctuation, symbols and numbers (intl), CJK ranges
# (zh), every kind of whitespace (splitters), case pairs whose folding
# differs by context (final sigma) or length (İ, ß), and a newline inside
# a segment (13a turns it into a space)
ALPHABET = st.sampled_from(
    [
        *"ab.,-&;:'\"!?$%()/@[]{}~`^_+=<>|\\0123456789",
        *(" ", "\t", "\x0b", "\x0c", "\r", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "\n"),
        *("\x00", "\x01", "\x7f"),
        *"ΣσςİßẞAZé\u0301猫在上ねこ…→😀„“«»²½٣",
        *("<skipped>", "&quot;", "&amp;", "&lt;", "&gt;", "\U00020000", "\u2010"),
    ]
)
SEGMENT = st.lists(ALPHABET, max_size=30).map("".join)
# BLEUKIT_EXAMPLES=6000 for a long run (6,000 each passed when this was written)
EXAMPLES = int(os.environ.get("BLEUKIT_EXAMPLES", 300))


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 5))
    nrefs = draw(st.integers(1, 3))
    hyps = draw(st.lists(SEGMENT, min_size=n, max_size=n))
    refs = [
        draw(st.lists(st.one_of(SEGMENT, SEGMENT, st.none()), min_size=n, max_size=n))
        for _ in range(nrefs)
    ]
    for i in range(n):  # every segment keeps at least one reference
        if all(r[i] is None for r in refs):
            refs[0][i] = draw(SEGMENT)
    return hyps, refs


@st.composite
def configs(draw):
    return {
        "tokenizer": draw(st.sampled_from(TOKENIZER_NAMES)),
        "split": draw(st.sampled_from(["unicode", "ascii"])),
        "lowercase": draw(st.sampled_from([False, True, "ascii"])),
        "max_order": draw(st.integers(1, 20)),
        "ref_length": draw(st.sampled_from(["closest", "shortest", "average"])),
        "totals": draw(st.sampled_from(["exact", "at-least-one"])),
    }


def _variant(engine, **over):
    """BLEUw4 with ``over`` on ``engine``, built once per setting: validating
    a variant takes longer than scoring a few random lines."""
    return _cached_variant(engine, tuple(sorted(over.items())))


@functools.cache
def _cached_variant(engine, over):
    return bleukit.load_variant("BLEUw4", engine=engine, **dict(over))


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs(), corpora())
def test_compiled_engine_equals_python(over, corpus):
    hyps, refs = corpus
    c = _variant("c", **over)
    py = _variant("python", **over)
    assert (c.engine.name, py.engine.name) == ("c", "python")
    assert c.segment_stats(hyps, refs) == py.segment_stats(hyps, refs)
    assert c.corpus_stats(hyps, refs) == py.corpus_stats(hyps, refs)


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TOKENIZER_NAMES), st.booleans(), st.lists(SEGMENT, max_size=6))
def test_block_tokenization_equals_line_by_line(tokenizer, ascii_split, lines):
    """A block's lines give the tokens each line gives on its own (also for
    lines holding a newline, which go line by line)."""
    split = "ascii" if ascii_split else "unicode"
    variant = _variant("python", tokenizer=tokenizer, split=split)
    refs = [list(lines)]
    stats_c, _ = _variant("c", tokenizer=tokenizer, split=split).segment_stats(lines, refs)
    stats_py, _ = variant.segment_stats(lines, refs)
    # against itself every token matches: equal lengths mean equal token counts
    assert [s.sys_len for s in stats_c] == [len(variant.tokenize(x)) for x in lines]
    assert stats_c == stats_py


@needs_accel
@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(TOKENIZER_NAMES),
    st.booleans(),
    st.sampled_from([False, True, "ascii"]),
    st.lists(SEGMENT, max_size=6),
)
def test_compiled_tokens_of_many_lines_equal_each_lines_tokens(
    tokenizer, ascii_split, lower, lines
):
    """Variant.tokenize_lines (the kernel's words, for the report) gives what
    tokenizing each line gives: 13a and intl rules, splitters, case folding,
    and lines holding a newline (which go line by line)."""
    split = "ascii" if ascii_split else "unicode"
    over = {"tokenizer": tokenizer, "split": split, "lowercase": lower}
    c = _variant("c", **over)
    expected = [list(c.tokenize(line)) for line in lines]
    assert c.tokenize_lines(lines) == expected
    assert _variant("python", **over).tokenize_lines(lines) == expected


@needs_accel
def test_the_kernel_gives_words_only_in_word_modes():
    with pytest.raises(ValueError, match="no word mode"):
        ACCEL.block_words("a b", 3)
    with pytest.raises(ValueError, match="category table"):
        ACCEL.block_words("a b", 8)
    assert ACCEL.block_words(" a  b \n\nc", 0) == "a b\n\nc"


def test_repeated_ngrams_are_clipped_per_reference():
    # "the the the" against two references holding "the" twice and once:
    # the ceiling is the largest count in one reference (2), not the sum
    v = bleukit.load_variant("BLEUw4", engine="c")
    stats, _ = v.segment_stats(["the the the"], [["the the cat"], ["the dog"]])
    assert stats[0].counts[:2] == (2, 1)


@needs_accel
def test_long_and_repetitive_segments():
    # deep refinement: every position shares a 20-gram with the reference
    hyp, ref = "a" * 5000, "a" * 4000
    for name in ("BLEUc18", "BLEUw4[tokenizer=char]"):
        c = bleukit.load_variant(name, engine="c")
        py = bleukit.load_variant(name, engine="python")
        assert c.segment_stats([hyp], [[ref]]) == py.segment_stats([hyp], [[ref]])


@needs_accel
def test_many_chunks_in_threads(monkeypatch):
    monkeypatch.setattr(compiled, "CHUNK", 7)
    monkeypatch.setenv("BLEUKIT_THREADS", "3")
    hyps = [f"the cat {i} sat on the mat ." for i in range(50)]
    refs = [[f"the cat {i % 7} sat on a mat ." for i in range(50)]]
    c = bleukit.load_variant("sacrebleu", engine="c")
    py = bleukit.load_variant("sacrebleu", engine="python")
    assert c.segment_stats(hyps, refs) == py.segment_stats(hyps, refs)
    assert c.corpus_score(hyps, refs).score == py.corpus_score(hyps, refs).score


def test_kernel_rejects_bad_calls():
    if ACCEL is None:
        pytest.skip("bleukit._accel is not built")
    with pytest.raises(ValueError, match="unknown mode"):
        ACCEL.block_stats("a", ["a"], [None], 99, 4)
    with pytest.raises(ValueError, match="order must be"):
        ACCEL.block_stats("a", ["a"], [None], 0, 0)
    with pytest.raises(ValueError, match="reference 1 has 2 segments"):
        ACCEL.block_stats("a", ["a\nb"], [None], 0, 4)
    with pytest.raises(TypeError, match="present"):
        ACCEL.block_stats("a", ["a"], [b"\x01\x01"], 0, 4)
    with pytest.raises(TypeError, match="blocks must be str"):
        ACCEL.block_stats(b"a", ["a"], [None], 0, 4)


def test_accelerator_is_built_where_required():
    if os.environ.get("BLEUKIT_REQUIRE_ACCEL"):
        assert ACCEL is not None, "CI builds bleukit._accel; it is missing"
        assert bleukit.load_variant("BLEUw4", engine="auto").engine.name == "c"


def test_engine_selection(monkeypatch):
    monkeypatch.setenv("BLEUKIT_ENGINE", "python")
    assert bleukit.load_variant("BLEUw4").engine.name == "python"
    monkeypatch.setenv("BLEUKIT_ENGINE", "fast")
    with pytest.raises(ConfigError, match="BLEUKIT_ENGINE='fast'"):
        bleukit.load_variant("BLEUw4")
    monkeypatch.delenv("BLEUKIT_ENGINE")
    with pytest.raises(ConfigError, match="engine 'gpu'"):
        bleukit.load_variant("BLEUw4", engine="gpu")
    monkeypatch.setattr(compiled, "accelerator", lambda: None)
    assert bleukit.load_variant("BLEUw4").engine.name == "python"
    with pytest.raises(MissingDependencyError, match="not built"):
        bleukit.load_variant("BLEUw4", engine="c")


def test_plugin_splitters_use_the_python_engine(monkeypatch):
    from bleukit.core.registry import Entry
    from bleukit.tokenizers import SPLITTERS

    plugin = Entry("commas.v1", lambda text: text.split(","), "plugin", "test splitter")
    monkeypatch.setattr(SPLITTERS, "_plugins", {"commas.v1": plugin})
    assert make_tokenization("13a", "commas.v1", False).block is None
    if ACCEL is not None:
        with pytest.raises(ConfigError, match="built-in splitter"):
            bleukit.load_variant("BLEUw4", engine="c", split="commas.v1")


def test_workers(monkeypatch):
    monkeypatch.setenv("BLEUKIT_THREADS", "3")
    assert threads.workers() == 3
    monkeypatch.setenv("BLEUKIT_THREADS", "0")
    with pytest.raises(ConfigError, match="BLEUKIT_THREADS='0'"):
        threads.workers()


@pytest.mark.parametrize("threads_", [1, 2, 4])
def test_ordered_map_keeps_order(threads_):
    assert list(threads.ordered_map(lambda x: x * x, range(20), threads_)) == [
        x * x for x in range(20)
    ]


def test_ordered_map_raises_an_items_error_in_order_and_leaves_no_thread():
    import threading

    def fn(x):
        if x == 7:
            raise KeyError(x)
        return x

    before = threading.active_count()
    got = []
    with pytest.raises(KeyError):
        for value in threads.ordered_map(fn, range(20), 3):
            got.append(value)
    assert got == list(range(7))
    assert threading.active_count() == before


def test_ordered_map_keeps_at_most_two_items_per_thread_in_flight():
    import threading

    lock, started, peak = threading.Lock(), [0], [0]

    def items():
        for i in range(30):
            with lock:
                started[0] += 1
            yield i

    consumed = 0
    for _ in threads.ordered_map(lambda x: x, items(), 2):
        consumed += 1
        peak[0] = max(peak[0], started[0] - consumed)
    assert consumed == 30 and peak[0] <= 4


def test_abandoning_ordered_map_joins_its_threads():
    import threading

    before = threading.active_count()
    gen = threads.ordered_map(lambda x: x, range(100), 2)
    assert next(gen) == 0
    gen.close()
    assert threading.active_count() == before


def test_every_builtin_tokenizer_has_a_block_path():
    for name in ("13a", "intl", "char", "char-space", "zh", "zh.v2", "none"):
        assert hasattr(TOKENIZERS.get(name), "tokenize_block"), name


AVAILABLE = [e.name for e in ENGINES.entries() if e.component.unavailable() is None]


@pytest.mark.parametrize("engine", AVAILABLE)
def test_lower_orders_and_other_policies_read_from_shared_tables(engine):
    hyps = ["the cat sat on the mat today", "a dog"]
    refs = [["the cat sat on a mat", "a dog barks"], ["a cat sat on the mat today", None]]
    high = bleukit.load_variant("BLEUw4", engine=engine, max_order=6)
    tables = high.tables(hyps, refs)
    for over in ({}, {"max_order": 2}, {"ref_length": "shortest"}, {"totals": "at-least-one"}):
        variant = bleukit.load_variant("BLEUw4", engine=engine, **over)
        assert variant.stats_from_tables(tables) == variant.segment_stats(hyps, refs)[0]
        assert variant.sum_from_tables(tables) == variant.corpus_stats(hyps, refs)[0]


@needs_accel
@pytest.mark.parametrize("tokenizer", ["13a", "intl", "zh", "char"])
def test_segments_holding_a_newline(tokenizer):
    # only the Python API can pass one; 13a turns "-\n" into nothing and
    # "\n" into a space, after stripping trailing whitespace (found by
    # Hypothesis: a reference "\n..0")
    hyps = ["a-\nb ..0", "", "x"]
    refs = [["ab ..0", "\n..0", "x-\n"], ["a b", None, "x\n"]]
    c = bleukit.load_variant("BLEUw4", engine="c", tokenizer=tokenizer)
    py = bleukit.load_variant("BLEUw4", engine="python", tokenizer=tokenizer)
    assert c.segment_stats(hyps, refs) == py.segment_stats(hyps, refs)
    assert c.corpus_stats(hyps, refs) == py.corpus_stats(hyps, refs)


def test_overrides_keep_the_engine_asked_for(monkeypatch):
    from bleukit.core.registry import Entry
    from bleukit.tokenizers import SPLITTERS

    plugin = Entry("commas.v1", lambda text: text.split(","), "plugin", "test splitter")
    monkeypatch.setattr(SPLITTERS, "_plugins", {"commas.v1": plugin})
    # auto stays auto: a plugin splitter then runs on the Python engine
    assert bleukit.load_variant("BLEUw4").with_overrides(split="commas").engine.name == "python"
    forced = bleukit.load_variant("BLEUw4", engine="python").with_overrides(max_order=2)
    assert forced.engine.name == "python"


@needs_accel
def test_tokenizers_run_in_the_calling_thread(monkeypatch):
    """Only the kernel runs in worker threads: a plugin's tokenizer (or
    MeCab's) need not be thread-safe."""
    import threading

    from bleukit.core.registry import Entry

    seen = set()

    def recording(line):
        seen.add(threading.get_ident())
        return line

    plugin = Entry("recording.v1", recording, "plugin", "test tokenizer")
    monkeypatch.setattr(TOKENIZERS, "_plugins", {"recording.v1": plugin})
    monkeypatch.setattr(compiled, "CHUNK", 5)
    monkeypatch.setenv("BLEUKIT_THREADS", "3")
    hyps = [f"a b c {i}" for i in range(60)]
    variant = bleukit.load_variant("BLEUw4", engine="c", tokenizer="recording")
    stats = variant.corpus_stats(hyps, [hyps])[0]
    assert stats.counts[0] == stats.totals[0] == 240
    assert seen == {threading.get_ident()}


@needs_accel
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    # small cells (a resample's sums fit in 32 bits: the kernel's uint32
    # copy) or any uint32 (its int64 copy)
    st.sampled_from([9, 2**32 - 1]).flatmap(
        lambda top: st.lists(
            st.lists(st.integers(0, top), min_size=5, max_size=5), min_size=1, max_size=30
        )
    ),
    st.integers(0, 2**40) | st.none(),
    st.integers(0, 50),
    st.sampled_from([0, 1 << 30]),
)
def test_compiled_bootstrap_draws_pythons_resamples(monkeypatch, rows, seed, samples,
                                                    gather_bytes):  # fmt: skip
    """bootstrap_sums runs CPython's Mersenne Twister from the seed's state:
    the resamples are random.Random(seed).choices', summed exactly, from
    the kernel's segment-major copy (uint32 or int64) or from the rows
    themselves."""
    # (the same setting for every example: the fixture's scope is harmless)
    monkeypatch.setattr(compiled, "_GATHER_BYTES", gather_bytes)

    def segment(length: int, ref: int, counts: tuple[int, int], total: int) -> Stats:
        # a segment's own last_* fields, which NLTK's methods 5 and 6 read
        return Stats(length, ref, counts, (total, total), 1, length, counts, (total, total))

    cols = Columns([segment(r[0], r[1], (r[2], r[3]), r[4]) for r in rows], BLEU2)
    draws = Draws.from_seed(len(rows), samples, seed)  # seed None: the same draws for both
    # two systems, whose last segments differ: one draw serves both (paired
    # resamples), each keeps its own last segment
    other = Columns([segment(r[1], r[0], (r[3], r[2]), r[4]) for r in rows], BLEU2)
    c_sums = [list(it) for it in ENGINES.get("c").bootstrap_sums([cols, other], draws)]
    assert c_sums == [list(it) for it in bootstrap_sums([cols, other], draws)]
    # the same sums as flat rows
    expected = [[x for s in sums for x in BLEU2.row(s)] for sums in c_sums]
    assert [list(r) for r in ENGINES.get("c").bootstrap_rows([cols, other], draws)] == expected
    assert bootstrap_rows([cols, other], draws) == expected


@needs_accel
@pytest.mark.parametrize("gather_bytes", [0, 1 << 30])
@pytest.mark.parametrize("threads_", [1, 2, 3])
def test_compiled_bootstrap_threads_sum_ranges_of_the_same_draws(threads_, gather_bytes,
                                                                  monkeypatch):  # fmt: skip
    """With several threads each sums a range of the resamples, passing over
    the draws of the earlier ones: the sums are those of one thread."""
    monkeypatch.setattr(compiled, "_SPLIT_ROW_BYTES", 0)  # split these small rows
    monkeypatch.setattr(compiled, "_GATHER_BYTES", gather_bytes)
    rows = [Stats(i % 7, i % 5, (i % 3, i % 2), (i % 7, i % 7), 1) for i in range(40)]
    other = [Stats(i % 4, i % 6, (i % 2, 1), (i % 4, i % 4), 1) for i in range(40)]
    systems = [Columns(rows, BLEU2), Columns(other, BLEU2)]
    draws = Draws.from_seed(40, 350, 7)
    with threads.call_limited(threads_):
        c_sums = [list(it) for it in ENGINES.get("c").bootstrap_sums(systems, draws)]
    assert c_sums == [list(it) for it in bootstrap_sums(systems, draws)]


@needs_accel
@pytest.mark.parametrize("gather_bytes", [0, 1 << 30])
def test_compiled_resamplers_read_uint16_and_uint32_rows_side_by_side(gather_bytes, monkeypatch):
    """One system's rows uint16, the other's uint32 (a value past 2**16):
    every compiled resampler (bootstrap from a copy or counted, randomization,
    sums by group) gives the reference's sums."""
    monkeypatch.setattr(compiled, "_GATHER_BYTES", gather_bytes)
    narrow = Columns([Stats(i % 7, i % 5, (i % 3, i % 2), (i % 7, 9), 1) for i in range(30)], BLEU2)
    wide = Columns([Stats(70_000 + i, i % 6, (i % 2, 1), (i % 4, 5), 1) for i in range(30)], BLEU2)
    assert (narrow.rows.typecode, wide.rows.typecode) == ("H", "I")  # type: ignore[union-attr]
    c = ENGINES.get("c")
    draws = Draws.from_seed(30, 40, 5)
    expected = [list(it) for it in bootstrap_sums([narrow, wide], draws)]
    assert [list(it) for it in c.bootstrap_sums([narrow, wide], draws)] == expected
    trials = Draws.from_seed(30, 20, 5)
    assert list(c.randomization_sums(narrow, wide, trials)) == list(
        randomization_sums(narrow, wide, trials)
    )
    assert [list(x) for x in c.split_sums(narrow, trials)] == [
        list(x) for x in split_sums(narrow, trials)
    ]
    groups = bytes(i % 3 for i in range(30))
    from bleukit.core.resampling import group_sums

    for cols in (narrow, wide):
        assert c.group_sums(cols, groups, 3) == group_sums(cols, groups, 3)


@needs_accel
@pytest.mark.parametrize("gather_bytes", [0, 1 << 30])
@pytest.mark.parametrize("threads_", [1, 2])
def test_compiled_bootstrap_sums_systems_of_several_widths_in_one_pass(threads_, gather_bytes,
                                                                       monkeypatch):  # fmt: skip
    """The systems of several variants (rows of 6, 10 and 4 fields) and one
    the kernel cannot read (a Fraction length: the reference sums it) share
    one call and its draws: each system's sums are those it has alone."""
    from fractions import Fraction

    monkeypatch.setattr(compiled, "_SPLIT_ROW_BYTES", 0)
    monkeypatch.setattr(compiled, "_GATHER_BYTES", gather_bytes)
    bleu4 = bleukit.load_variant("BLEUw4")
    bleu1 = bleukit.load_variant("BLEUw4", max_order=1)

    def segments(order: int, k: int) -> list[Stats]:
        return [Stats(i % 7 + k, i % 5, tuple((i + j) % 3 for j in range(order)),
                      tuple(i % 7 + 3 for _ in range(order)), 1) for i in range(33)]  # fmt: skip

    odd = segments(2, 1)
    odd[4] = Stats(2, Fraction(7, 2), (1, 0), (2, 1), 1)
    systems = [Columns(segments(2, 0), BLEU2), Columns(segments(4, 1), bleu4),
               Columns(odd, BLEU2), Columns(segments(1, 2), bleu1)]  # fmt: skip
    assert [c.width for c in systems] == [6, 10, 6, 4] and not systems[2].packable
    draws = Draws.from_seed(33, 70, 11)
    with threads.call_limited(threads_):
        together = ENGINES.get("c").bootstrap_rows(systems, draws)
    alone = [bootstrap_rows([c], draws)[0] for c in systems]
    assert [list(r) for r in together] == alone


@needs_accel
@pytest.mark.parametrize("threads_", [1, 2])
def test_compiled_counted_bootstrap_sums_blocks_of_many_segments(threads_, monkeypatch):
    """Counted resamples of 2,600 segments (past a block of 2,048 and over
    eleven of 256, the last ones partial) with fields up to 65,535, the
    largest of uint16 rows: the reference's sums."""
    monkeypatch.setattr(compiled, "_SPLIT_ROW_BYTES", 0)
    monkeypatch.setattr(compiled, "_GATHER_BYTES", 0)
    rng = random.Random(5)

    def system() -> Columns:
        return Columns([Stats(rng.choice([0, 1, 65_535]), rng.randrange(65_536),
                              (rng.randrange(9), rng.choice([0, 65_535])), (65_535, 7), 1)
                        for _ in range(2_600)], BLEU2)  # fmt: skip

    systems = [system(), system()]
    assert all(c.rows is not None and c.rows.typecode == "H" for c in systems)
    draws = Draws.from_seed(2_600, 21, 8)
    with threads.call_limited(threads_):
        got = ENGINES.get("c").bootstrap_rows(systems, draws)
    assert [list(r) for r in got] == bootstrap_rows(systems, draws)


@needs_accel
def test_compiled_bootstrap_refuses_a_width_for_each_system_but_one():
    kernel = compiled.accelerator()
    state = Draws.from_seed(2, 5, 1).state
    rows = [array("I", [0, 0]), array("I", [0] * 4)]
    assert len(kernel.bootstrap_sums(state, rows, [1, 2], 5)) == 5 * 3 * 8
    with pytest.raises(ValueError, match="one nfields a system"):
        kernel.bootstrap_sums(state, rows, [1], 5)
    with pytest.raises(ValueError, match="n >= 1 the same for all"):
        kernel.bootstrap_sums(state, rows, [1, 1], 5)


@needs_accel
@pytest.mark.parametrize("spill", [0, 1, 2, 255])
def test_compiled_bootstrap_counts_draws_and_adds_those_past_a_byte(spill):
    """Without a copy, a resample is counted per segment in bytes; a
    segment's draws past ``spill`` (255 in use: a count a byte cannot hold)
    are added as they come. Any spill gives the reference's sums: with 0
    every draw is added as it comes, with 1 or 2 most repeated segments
    spill (12 segments, 40 resamples: blocks of 16 and a partial one)."""
    kernel = compiled.accelerator()
    rows = [Stats(i % 7, i % 5, (i % 3, i % 2), (i % 7, i % 7), 1) for i in range(12)]
    other = [Stats(i % 4, i % 6, (i % 2, 1), (i % 4, i % 4), 1) for i in range(12)]
    systems = [Columns(rows, BLEU2), Columns(other, BLEU2)]
    draws = Draws.from_seed(12, 40, 3)
    flat = kernel.bootstrap_sums(draws.state, [c.rows for c in systems], systems[0].width, 40,
                                 0, 40, False, spill)  # fmt: skip
    expected = [x for sums in bootstrap_sums(systems, draws) for s in sums for x in BLEU2.row(s)]
    assert memoryview(flat).cast("q").tolist() == expected
    with pytest.raises(ValueError, match="spill"):
        kernel.bootstrap_sums(draws.state, [c.rows for c in systems], 7, 40, 0, 40, False, 256)


@needs_accel
@pytest.mark.parametrize("first, last", [(3, 2), (-1, 2), (0, 6)])
def test_compiled_bootstrap_refuses_a_range_outside_the_resamples(first, last):
    kernel = compiled.accelerator()
    state = Draws.from_seed(2, 5, 1).state
    rows = [array("I", [0, 0])]  # one system: two segments of one uint32 field
    with pytest.raises(ValueError, match="first <= last <= samples"):
        kernel.bootstrap_sums(state, rows, 1, 5, first, last)


@needs_accel
@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([], "no system's rows"),
        ([array("I", [0] * 2), array("I", [0] * 3)], "n >= 1 the same for all"),  # 2, then 3
        ([array("H", [0] * 3)], "n x nfields uint16 or uint32"),  # not whole rows of 2 fields
        ([bytes(8)], "n x nfields uint16 or uint32"),  # bytes: no field type
        ([3], "a bytes-like object is required"),
    ],
)
def test_compiled_bootstrap_refuses_rows_of_other_shapes(rows, message):
    kernel = compiled.accelerator()
    state = Draws.from_seed(2, 5, 1).state
    with pytest.raises((ValueError, TypeError), match=message):
        kernel.bootstrap_sums(state, rows, 2 if len(rows) == 1 else 1, 5)


def test_columns_hold_the_narrowest_rows_or_lists_where_a_value_does_not_fit():
    from fractions import Fraction

    small = [Stats(3, 4, (2, 1), (3, 2), 1), Stats(5, 5, (4, 2), (5, 4), 1)]
    cols = Columns(small, BLEU2)
    assert cols.rows is not None and cols.rows.typecode == "H" and cols.rows.itemsize == 2
    assert cols.rows.tolist() == [3, 4, 2, 1, 3, 2, 5, 5, 4, 2, 5, 4]
    assert [list(c) for c in cols.cols] == [[3, 5], [4, 5], [2, 4], [1, 2], [3, 5], [2, 4]]
    # a value past uint16, whichever segment brings it: uint32, every row kept
    wide = Stats(70_000, 3, (1, 0), (5, 4), 1)
    for segments in ([wide, *small], [*small, wide]):
        got = Columns(segments, BLEU2)
        assert got.rows is not None and got.rows.typecode == "I" and got.n == 3
        assert got.total() == Columns(segments[::-1], BLEU2).total()
        assert got.total()[0] == 70_008
    # a fraction (the average reference length), a value past uint32: lists,
    # whichever segment brings it, with every segment before it kept
    for odd in (Stats(2, Fraction(7, 2), (1, 0), (2, 1), 1), Stats(2**32, 3, (1, 0), (5, 4), 1)):
        for segments in ([odd, *small], [*small, odd], [small[0], odd, small[1]]):
            got = Columns(segments, BLEU2)
            assert got.rows is None and not got.packable and got.n == 3
            assert got.total() == [sum(c) for c in zip(*(
                (s.sys_len, s.ref_len, *s.counts, *s.totals) for s in segments
            ))]  # fmt: skip


@needs_accel
@settings(max_examples=30, deadline=None)
@given(st.integers(1, 80), st.integers(0, 2**40) | st.none(), st.integers(0, 30))
def test_compiled_randomization_draws_pythons_trials(n, seed, trials):
    """ar_sums reads getrandbits(n) as format(bits, "0nb") does, for n below,
    at and above one 32-bit word."""
    base = Columns([Stats(i, i + 1, (i % 3, 1), (5, 4), 1) for i in range(n)], BLEU2)
    other = Columns([Stats(2 * i, 3, (1, i % 2), (6, 5), 1) for i in range(n)], BLEU2)
    draws = Draws.from_seed(n, trials, seed)
    compiled = ENGINES.get("c").randomization_sums(base, other, draws)
    assert list(compiled) == list(randomization_sums(base, other, draws))
    # each system's selected and other segments' sums, flat (Engine.split_sums)
    for cols in (base, other):
        zeros = Columns([Stats.zero(2)] * n, BLEU2)
        sides = list(randomization_sums(cols, zeros, draws))
        flat = ([x for a, _ in sides for x in a], [x for _, b in sides for x in b])
        assert split_sums(cols, draws) == flat
        assert tuple(list(x) for x in ENGINES.get("c").split_sums(cols, draws)) == flat


class _CountingEngine(PythonEngine):
    """A third-party engine: the reference engine, counting its tables."""

    name = "counting"
    calls = 0

    def tables(self, tokenization, hyps, prepared, order):
        type(self).calls += 1
        return super().tables(tokenization, hyps, prepared, order)


def test_a_plugin_engine_registers_and_is_chosen_by_name(monkeypatch):
    from bleukit.core import registry

    class EntryPoint:  # what an installed plugin's entry point gives the registry
        name, group, value, dist = "counting", "bleukit.engines", "tests:_CountingEngine", None

        def load(self):
            return _CountingEngine

    monkeypatch.setattr(
        registry, "_entry_points", lambda group: [EntryPoint()] if group == EntryPoint.group else []
    )
    ENGINES.reset_plugins()
    try:
        v = bleukit.load_variant("BLEUw4", engine="counting")
        assert isinstance(v.engine, Engine) and v.engine.name == "counting"
        ref = bleukit.load_variant("BLEUw4", engine="python")
        hyps, refs = ["the cat sat on the mat"], [["the cat sat on a mat"]]
        assert v.corpus_score(hyps, refs).score == ref.corpus_score(hyps, refs).score
        assert _CountingEngine.calls == 1
        # auto never picks a plugin engine: it must be asked for by name
        assert bleukit.load_variant("BLEUw4", engine="auto").engine.name in ("c", "python")
        monkeypatch.setenv("BLEUKIT_ENGINE", "counting")
        assert bleukit.load_variant("BLEUw4").engine.name == "counting"
    finally:
        ENGINES.reset_plugins()


FEW_WORDS = st.lists(st.sampled_from(["a", "b", "c", "the", "of", ".", "B", "ä"]), max_size=60)


@needs_accel
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(FEW_WORDS, st.lists(FEW_WORDS, min_size=1, max_size=3)), max_size=4))
def test_compiled_ter_edits_equal_the_reference(segments):
    """The C kernel's TER edit counts are the reference algorithm's
    (bleukit.core.edits, itself checked against sacrebleu): every limit and
    tie-break (the last, on the shifted word lists, never decides: the
    kernel's word ids have no order), each segment's words numbered apart
    from the others' in one call."""
    hyps, refs = [h for h, _ in segments], [r for _, r in segments]
    expected = PythonEngine().edit_counts(hyps, refs)
    assert ENGINES.get("c").edit_counts(hyps, refs) == expected


@needs_accel
def test_compiled_ter_edits_of_long_segments_and_bad_calls():
    # five words repeating: the shift search stops at MAX_SHIFT_CANDIDATES
    # (its cap changes this pair's edit count), and longer than MAX_SHIFT_DIST
    words = ["the", "of", "a", "b", "."]
    hyp = [words[(i * 7) % 5] for i in range(120)]
    ref = [words[(i * 3) % 5] for i in range(104)]
    assert ENGINES.get("c").edit_counts([hyp, []], [[ref], [ref]]) == PythonEngine().edit_counts(
        [hyp, []], [[ref], [ref]]
    )
    # lengths far apart: the beam widens with the ratio, and only its cells
    # are kept in either engine
    short, long = hyp[:12], ref * 2
    for pair in ((short, long), (long, short)):
        assert ENGINES.get("c").edit_counts([pair[0]], [[pair[1]]]) == (
            PythonEngine().edit_counts([pair[0]], [[pair[1]]])
        )
    with pytest.raises(ValueError, match="as many hyps as refs"):
        ACCEL.ter_edit_counts([hyp], [])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        ACCEL.ter_edit_counts([hyp, hyp], [[ref], []])
    with pytest.raises(TypeError, match="must be a sequence"):
        ACCEL.ter_edit_counts([hyp], [[ref, 3]])
    with pytest.raises(TypeError, match="unhashable"):
        ACCEL.ter_edit_counts([[["a"]]], [[["a"]]])


# words that repeat (so that n-grams match) and tell tuples apart the way
# Python orders them: a prefix ("a" < "ab"), case, a code point past the BMP
MATCH_WORDS = st.sampled_from(["a", "ab", "b", "B", "é", "猫", "\U00020000", "."])
# a block's line: words and the spaces between them, runs of spaces and
# spaces at the ends included (empty words where they count)
BLOCK_LINE = st.lists(st.one_of(MATCH_WORDS, st.just(" ")), max_size=14).map("".join)
# a token list may hold anything a tokenizer gives: spaces, newlines, nothing
LIST_LINE = st.lists(st.one_of(MATCH_WORDS, st.sampled_from(["", " ", "a b", "\n"])), max_size=10)


@st.composite
def match_chunks(draw):
    """Chunks of a reference and some systems, each side a block or token lists."""
    systems = draw(st.integers(1, 3))
    chunks = []
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 5))
        sides = []
        for _ in range(systems + 1):
            if draw(st.booleans()):
                sides.append("\n".join(draw(st.lists(BLOCK_LINE, min_size=n, max_size=n))))
            else:
                sides.append(draw(st.lists(LIST_LINE, min_size=n, max_size=n)))
        chunks.append((sides[0], sides[1:]))
    return systems, chunks


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(match_chunks(), st.integers(1, 5), st.booleans(), st.integers(0, 12))
def test_compiled_match_counts_equal_the_reference(chunks, order, keep_empty, count):
    """Every word count, matched n-gram and ranking of the kernel's
    MatchTable is the reference's (core.matches), for blocks and token lists."""
    from bleukit.core.matches import MatchCounts

    systems, parts = chunks
    ours = ENGINES.get("c").match_counts(systems, order)
    assert isinstance(ours, compiled.CompiledMatchCounts)
    ref = MatchCounts(systems, order)
    for r, hyps in parts:
        assert ours.add(r, hyps, keep_empty) == ref.add(r, hyps, keep_empty)
    for column in range(systems + 1):
        assert ours.words(column) == ref.words(column)
    for k in range(systems):
        for lo, hi in ((1, order), (1, 1), (2, order)):
            assert ours.matched(k, lo, hi) == ref.matched(k, lo, hi)
    for a in range(systems):
        for b in range(systems):
            for losses in (False, True):
                for min_order in (1, 2):
                    args = (a, b, min_order, 1.0, count, losses)
                    assert ours.ranked(*args) == ref.ranked(*args)
                assert ours.ranked(a, b, 1, 0.5, 10**9, losses) == ref.ranked(
                    a, b, 1, 0.5, 10**9, losses
                )


@needs_accel
def test_match_table_refuses_bad_calls():
    table = ACCEL.MatchTable(2, 3)
    with pytest.raises(ValueError, match="3 hypothesis blocks for 2 systems"):
        table.add("a", ["a", "a", "a"], False)
    with pytest.raises(ValueError, match="system 1 has 2 lines, the reference 1"):
        table.add("a", ["a", "a\nb"], False)
    with pytest.raises(TypeError, match="words must be str"):
        table.add([["a", 1]], ["a", "a"], False)
    with pytest.raises(IndexError):
        table.words(3)
    with pytest.raises(IndexError):
        table.ranked(0, 2, 1, 1.0, 5, False)
    with pytest.raises(ValueError, match="order in 1..8"):
        ACCEL.MatchTable(1, 9)
    # an order past the kernel's goes to the reference
    assert not isinstance(ENGINES.get("c").match_counts(1, 9), compiled.CompiledMatchCounts)


@needs_accel
def test_info_table_refuses_bad_calls():
    with pytest.raises(ValueError, match="bits in 0..52"):
        ACCEL.InfoTable(1, 2, 53)
    with pytest.raises(TypeError, match="falsy is a str"):
        ACCEL.InfoTable(1, 2, 40, 0)
    table = ACCEL.InfoTable(2, 3, 40, "0")
    with pytest.raises(ValueError, match="1 blocks for 2 references"):
        table.add(["a"])
    with pytest.raises(ValueError, match="reference 1 has 2 lines, the first 1"):
        table.add(["a", "a\nb"])
    with pytest.raises(RuntimeError, match="weigh the references first"):
        table.matches("a", 0)
    assert memoryview(table.add(["a b", "b"])).cast("q").tolist() == [2, 1]
    table.hold(0, "b b x")  # held before the weights: "x" joins the vocabulary
    table.weigh()
    with pytest.raises(RuntimeError, match="weighed already"):
        table.weigh()
    with pytest.raises(IndexError, match="lines 0..2 of 1"):
        table.matches("a\nb", 0)
    hyp_len, matched = table.matches("b b x", 0)
    # "b": 2 of the 3 reference words, -log2(2/3) bits, clipped to one occurrence
    assert memoryview(hyp_len).cast("q").tolist() == [3]
    assert memoryview(matched).cast("q").tolist() == [
        round(-math.log(2 / 3) / math.log(2) * 2**40),
        0,
        0,
    ]
    assert table.held_matches(0, 0, 1) == (hyp_len, matched)
    with pytest.raises(ValueError, match="key is >= 0"):
        table.hold(-1, "a")
    with pytest.raises(IndexError, match="no hypotheses held as 1"):
        table.held_matches(1, 0, 1)
    with pytest.raises(IndexError, match="lines 0..2 of 1 held"):
        table.held_matches(0, 0, 2)
    # references added after weighing unweigh the table, their counts kept:
    # "b" is then 2 of the 5 reference words
    table.add(["a", "a"])
    with pytest.raises(RuntimeError, match="weigh the references first"):
        table.held_matches(0, 0, 1)
    table.weigh()
    _, matched = table.held_matches(0, 0, 1)
    bits = round(-math.log(2 / 5) / math.log(2) * 2**40)
    assert memoryview(matched).cast("q").tolist() == [bits, 0, 0]


def test_only_an_engine_with_a_kernel_weighs_references():
    nist = make_tokenization("13a", "unicode", False)
    assert PythonEngine().weigh_references(nist, [["a b"]], 2, 40, None) is None


@needs_accel
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 9), st.integers(0, 4)),
                min_size=1, max_size=40), st.integers(5, 7))  # fmt: skip
def test_compiled_group_sums_equal_the_reference(rows, count):
    """Bucket sums (Engine.group_sums) in C equal the reference's, values
    up to the top of uint32 included."""
    from bleukit.core.resampling import group_sums

    cols = Columns([Stats(a, b, (c, 0), (c, 1), 1) for a, b, c in rows], BLEU2)
    groups = bytes((a + c) % count for a, _, c in rows)
    assert ENGINES.get("c").group_sums(cols, groups, count) == group_sums(cols, groups, count)


def test_group_sums_refuse_groups_out_of_range():
    from bleukit.core.resampling import group_sums

    cols = Columns([Stats(1, 1, (1, 0), (1, 1), 1)] * 3, BLEU2)
    for engine in AVAILABLE:
        with pytest.raises(InputError, match="3 groups below 3 for 3 segments"):
            ENGINES.get(engine).group_sums(cols, bytes([0, 1, 3]), 3)
    assert group_sums(cols, bytes([0, 2, 2]), 3)[2] == [2, 2, 2, 0, 2, 2]


#: a variant's settings (``configs``), sacrebleu's smoothing, effective
#: order and smoothing value, and chunks of text (``_sentence_fields``)
SENTENCE_SETTINGS = (
    configs(),
    st.sampled_from(["none.v1", "floor.v1", "add-k.v1", "exp.v1"]),
    st.booleans(),
    st.sampled_from([None, 0.0, 0.1, 1.0, 3.5]),
    st.lists(corpora(), min_size=1, max_size=3),
)


def _sentence_fields(over, smoothing, effective, value):
    fields = {**over, "smoothing": smoothing, "effective_order": effective}
    if value is not None and smoothing in ("floor.v1", "add-k.v1"):
        fields["smoothing_value"] = value
    return fields


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*SENTENCE_SETTINGS)
def test_compiled_sentence_scores_equal_the_reference_bit_for_bit(
    over, smoothing, effective, value, chunks
):
    """Engine.sentence_values in C (sacrebleu's smoothings, uniform weights)
    gives the reference's floats exactly, under every reference-length
    policy and totals rule (average: the reference's path), across tables."""
    fields = _sentence_fields(over, smoothing, effective, value)
    c, py = _variant("c", **fields), _variant("python", **fields)
    tables = [t for hyps, refs in chunks for t in c.tables(hyps, refs)]
    expected = py.score_values(py.stats_from_tables(tables))
    assert c.sentence_values_from_tables(tables) == expected
    assert py.sentence_values_from_tables(tables) == expected
    # the results made from the kernel's parts (Engine.sentence_parts) are
    # the reference's: precisions, penalty, lengths, counts, signature
    for hyps, refs in chunks:
        made, reference = c.sentence_scores(hyps, refs), py.sentence_scores(hyps, refs)
        assert [repr(r.to_dict()) for r in made] == [repr(r.to_dict()) for r in reference]


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*SENTENCE_SETTINGS, st.data())
def test_sentence_scores_at_several_orders_are_each_orders_own(
    over, smoothing, effective, value, chunks, data
):
    """Engine.sentence_values_orders (in C: one pass of sentence_bleu_orders
    for every order, the logarithms' running sum shared) gives each order's
    ``sentence_values`` bit for bit, on the tables of the highest order; a
    rule of another smoothing among them takes the reference's path."""
    fields = _sentence_fields(over, smoothing, effective, value)
    top = over["max_order"]
    orders = data.draw(st.lists(st.integers(1, top), min_size=1, max_size=6))
    made = {"c": _variant("c", **fields), "python": _variant("python", **fields)}
    tables = [t for hyps, refs in chunks for t in made["c"].tables(hyps, refs)]
    for name, variant in made.items():
        engine = ENGINES.get(name)
        rules = [(o, _variant(name, **{**fields, "max_order": o})._rule) for o in orders]
        expected = [engine.sentence_values(tables, variant._ref_length, variant._at_least_one,
                                           o, rule) for o, rule in rules]  # fmt: skip
        got = engine.sentence_values_orders(
            iter(tables), variant._ref_length, variant._at_least_one, rules
        )
        assert list(map(list, got)) == expected, name
        other = "nltk-method4.v1" if smoothing != "nltk-method4.v1" else "none.v1"
        plain = {k: v for k, v in fields.items() if k != "smoothing_value"}
        mixed = [*rules, (top, _variant(name, **{**plain, "smoothing": other})._rule)]
        some = engine.sentence_values_orders(
            tables, variant._ref_length, variant._at_least_one, mixed
        )
        assert list(map(list, some[: len(rules)])) == expected


@needs_accel
def test_sentence_bleu_orders_refuses_bad_orders():
    table = (array("q", [3]), array("q", [1, 1, 0, 0]), array("q", [3, 3]))
    for orders in (array("i"), array("i", [0]), array("i", [5]), b"\x01\x00\x00"):
        with pytest.raises(ValueError, match="int32 orders each 1..width"):
            ACCEL.sentence_bleu_orders(*table, 4, orders, 0, False, 3, 0.0, False)
    raw = ACCEL.sentence_bleu_orders(*table, 4, array("i", [2, 1]), 0, False, 3, 0.0, False)
    for j, order in enumerate((2, 1)):
        one = ACCEL.sentence_bleu(*table, 4, order, 0, False, 3, 0.0, False)
        assert raw[8 * j : 8 * (j + 1)] == one


@pytest.mark.parametrize("engine", AVAILABLE)
def test_sentence_scores_with_weights_read_the_reference(engine):
    hyps = ["the cat sat on the mat today", "a dog", "the the the"]
    refs = [["the cat sat on a mat", "a dog barks", "the cat"]]
    for over in ({"weights": [0.4, 0.3, 0.2, 0.1]}, {"weights": "auto-reweigh"},
                 {"smoothing": "nltk-method4.v1"}):  # fmt: skip
        variant = bleukit.load_variant("BLEUw4", engine=engine, **over)
        tables = variant.tables(hyps, refs)
        expected = variant.score_values(variant.stats_from_tables(tables))
        assert variant.sentence_values_from_tables(tables) == expected
        assert expected == [variant.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]


@pytest.mark.parametrize("engine", AVAILABLE)
def test_selected_rows_are_one_table_of_those_segments(engine):
    from bleukit.engines import select_rows

    hyps = ["the cat sat on the mat today", "a dog", "the the the", "cats", "a mat"]
    refs = [["the cat sat on a mat", "a dog barks", "the cat", "a cat", None],
            ["a cat", None, "the", "cats", "the mat"]]  # fmt: skip
    variant = bleukit.load_variant("BLEUw4", engine=engine)
    # two tables of the same segments, so that rows cross from one to the other
    tables = [*variant.tables(hyps[:2], [r[:2] for r in refs]),
              *variant.tables(hyps[2:], [r[2:] for r in refs])]  # fmt: skip
    stats = variant.stats_from_tables(tables)
    # runs of consecutive segments (copied at once), across the two tables
    for rows in ([4, 0, 2], [1], [3, 4], [], [0, 1, 2, 3, 4], [1, 2], [2, 3, 4, 4, 0, 1]):
        chosen = select_rows(tables, rows)
        assert variant.stats_from_tables([chosen]) == [stats[i] for i in rows]
    for rows in ([5], [3, 4, 5]):
        with pytest.raises(IndexError, match="segment 5 of 5"):
            select_rows(tables, rows)
    with pytest.raises(ValueError, match="differ in references or order"):
        select_rows([tables[0], *bleukit.load_variant("BLEUw4", max_order=5).tables(hyps, refs)],
                    [0])  # fmt: skip


@given(
    st.lists(st.tuples(st.integers(0, 9), st.integers(0, 4), st.integers(0, 4)), max_size=12),
    st.integers(1, 4),
    st.booleans(),
)
def test_a_tables_sums_are_its_segments_statistics_summed(rows, order, at_least_one):
    """``table_sum`` reads the table's cached column sums (``SegmentTable.sums``):
    at every order up to the table's, and under every policy, the sum of
    its segments' statistics."""
    from array import array

    from bleukit.core.reflen import closest, shortest
    from bleukit.engines.tables import SegmentTable, table_stats, table_sum

    width = 4
    hyp = array("q", [h for h, _, _ in rows])
    refs = array("q", [r for _, r, s in rows for r in (r, r + s)])
    matches = array("q", [min(h, r) for h, r, _ in rows for _ in range(width)])
    nearest = array("q", [x for _, r, s in rows for x in (r, r)])
    table = SegmentTable(hyp, refs, matches, nearest, 2, width)
    for policy in (closest, shortest, lambda h, lengths: max(lengths)):
        expected = sum(table_stats(table, policy, at_least_one, order), Stats.zero(order))
        assert table_sum(table, policy, at_least_one, order) == expected


@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 70_000), st.integers(0, 9), st.integers(0, 9)),
                 max_size=6),
        max_size=4,
    ),
    st.integers(1, 4),
    st.booleans(),
    st.booleans(),
)  # fmt: skip
def test_table_rows_are_each_segments_row_a_column_at_a_time(tables, order, at_least_one,
                                                             compact):  # fmt: skip
    """``table_rows`` of consecutive tables is the flat ``row`` of every
    segment's ``table_stats``, uint16 while every value fits, else uint32,
    and None for fractions (the average reference length)."""
    from array import array
    from fractions import Fraction

    from bleukit.core.reflen import closest, shortest
    from bleukit.engines.tables import SegmentTable, table_rows, table_stats

    width = 4
    made = []
    for rows in tables:
        hyp = array("q", [h % 200 if h < 60_000 else h for h, _, _ in rows])
        refs = array("q", [x for h, r, s in rows for x in (h // 2 + r, r + s)])
        matches = array("q", [max(h % 200 - k - r, 0) for h, r, _ in rows for k in range(width)])
        nearest = array("q", [x for h, r, s in rows for x in (h // 2 + r, min(h // 2 + r, r + s))])
        table = SegmentTable(hyp, refs, matches, nearest, 2, width)
        made.append(table.compact() if compact else table)
    for policy in (closest, shortest, lambda h, lengths: max(lengths)):
        expected = [
            v for t in made for stats in table_stats(t, policy, at_least_one, order)
            for v in (stats.sys_len, stats.ref_len, *stats.counts, *stats.totals)
        ]  # fmt: skip
        got = table_rows(made, policy, at_least_one, order)
        assert got is not None and got.tolist() == expected
        assert got.typecode == ("H" if max(expected, default=0) < 65_536 else "I")
        # each engine's (the compiled one's kernel for closest and shortest)
        for engine in AVAILABLE:
            mine = ENGINES.get(engine).table_rows(made, policy, at_least_one, order)
            assert mine is not None and mine.typecode == got.typecode
            assert mine.tolist() == expected
    if any(len(t.hyp_len) for t in made):
        average = table_rows(made, lambda h, lengths: Fraction(sum(lengths), 3), False, order)
        assert average is None
        # a value past uint32 (or a negative one) fits no row type
        big = SegmentTable(array("q", [2**32]), array("q", [1, 1]), array("q", [0] * width),
                           array("q", [1, 1]), 2, width)  # fmt: skip
        for engine in AVAILABLE:
            assert ENGINES.get(engine).table_rows([*made, big], closest, False, order) is None


@pytest.mark.parametrize("engine", AVAILABLE)
def test_a_compact_table_holds_the_same_numbers_in_less_memory(engine):
    """A store keeps its tables int16, or int32 where a number passes int16
    (``SegmentTable.compact``): every statistic, sentence score and selection
    is the int64 table's, and it pickles (to an executor's client); a number
    past int32 keeps the table as it is."""
    import pickle
    from array import array

    from bleukit.engines import SegmentTable, select_rows

    hyps = ["the cat sat on the mat today", "a dog", "the the the", "cats", "a mat"]
    refs = [["the cat sat on a mat", "a dog barks", "the cat", "a cat", None],
            ["a cat", None, "the", "cats", "the mat"]]  # fmt: skip
    variant = bleukit.load_variant("BLEUw4", engine=engine)
    (table,) = variant.tables(hyps, refs)
    small = table.compact()
    assert small.hyp_len.itemsize == 2 and small.matches.itemsize == 2  # type: ignore[union-attr]
    long = SegmentTable(array("q", [40_000]), array("q", [-1]), array("q", [0] * 4),
                        array("q", [1, 1]), 1, 4).compact()  # fmt: skip
    assert long.hyp_len.itemsize == 4 and long.ref_len.tolist() == [-1]  # type: ignore[union-attr]
    assert variant.stats_from_tables([small]) == variant.stats_from_tables([table])
    assert variant.sentence_values_from_tables([small]) == variant.sentence_values_from_tables(
        [table]
    )
    assert variant.stats_from_tables([select_rows([small, table], [6, 0])]) == [
        variant.stats_from_tables([table])[i] for i in (1, 0)
    ]
    again = pickle.loads(pickle.dumps(small))
    assert variant.stats_from_tables([again]) == variant.stats_from_tables([table])
    huge = SegmentTable(array("q", [2**40]), array("q", [1]), array("q", [0] * 4),
                        array("q", [1, 1]), 1, 4)  # fmt: skip
    assert huge.compact() is huge
    # the int32 table's sentence scores (the kernel reads each width as it is)
    wide = SegmentTable(array("q", [40_000]), array("q", [-1]), array("q", [39_000, 3, 2, 1]),
                        array("q", [40_001, 40_001]), 1, 4)  # fmt: skip
    assert wide.compact().hyp_len.itemsize == 4  # type: ignore[union-attr]
    assert variant.sentence_values_from_tables([wide.compact()]) == (
        variant.sentence_values_from_tables([wide])
    )
    # the engine's compaction (the compiled one's kernel) is the table's
    made = variant.engine
    for before in (table, long, huge, wide, SegmentTable(*(array("h") for _ in range(4)), 1, 4)):
        after, expected = made.compact(before), before.compact()
        if expected is before:
            assert after is before
            continue
        for mine, theirs in zip((after.hyp_len, after.ref_len, after.matches, after.nearest),
                                (expected.hyp_len, expected.ref_len, expected.matches,
                                 expected.nearest)):  # fmt: skip
            assert (mine.typecode, mine.tolist()) == (theirs.typecode, theirs.tolist())  # type: ignore[union-attr]


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 70_000), st.integers(-1, 70_000)), max_size=8),
    st.integers(1, 4),
    st.integers(0, 3),
    st.booleans(),
    st.data(),
)
def test_compiled_triple_rows_are_chrfs_stream_rows(lengths, order, lower, words, data):
    """The compiled engine's chrF rows (``triple_rows``) are ``stream_rows``'s
    triples, read to a variant's order from counts of a higher one, of the
    narrowest row type; None where a segment has no reference."""
    from bleukit.metrics.chrf.core import StreamCounts, stream_rows

    hyp = [h for h, _ in lengths]
    ref = [r for _, r in lengths]
    wide = order + lower
    matches = [data.draw(st.integers(0, max(min(h, r), 0)))
               for h, r in lengths for _ in range(wide)]  # fmt: skip
    counts = [StreamCounts(hyp, ref, matches, wide)]
    if words:  # chrF++: a second part, its word counts
        counts.append(StreamCounts([h // 5 for h in hyp], [max(r // 5, -1) for r in ref],
                                   [m // 5 for m in matches], wide))  # fmt: skip
    got = ENGINES.get("c").triple_rows([(c.hyp_len, c.ref_len, c.matches, wide, order)
                                        for c in counts])  # fmt: skip
    expected = stream_rows([c.at_order(order) for c in counts])
    if expected is None:
        assert got is None
        return
    assert got is not None and got.tolist() == expected.tolist()
    assert got.typecode == ("H" if max(expected, default=0) < 65_536 else "I")
    assert ENGINES.get("python").triple_rows([]) is None
    # the scoring kernel reads the rows as they are, alone or two summed
    scored = functools.partial(ENGINES.get("c").chrf_values, order=order * len(counts), beta=2,
                               eps_smoothing=False)  # fmt: skip
    assert scored(got, None) == scored(expected, None)
    assert scored(got, expected) == scored(expected, array("q", got))


@needs_accel
def test_the_row_kernels_refuse_bad_calls():
    from bleukit import _accel

    ints = array("q", [1, 2])
    with pytest.raises(ValueError, match="table_rows: hyp_len n"):
        _accel.table_rows(ints, ints, 2, 2, ints, 1, 1, 0)
    with pytest.raises(ValueError, match="table_rows: hyp_len n"):
        _accel.table_rows(ints, array("q", [1]), 1, 0, ints, 1, 1, 0)
    with pytest.raises(ValueError, match="table_rows: int16, int32 or int64"):
        _accel.table_rows(array("d", [1.0]), ints, 2, 0, ints, 1, 1, 0)
    with pytest.raises(TypeError):
        _accel.table_rows([1, "2"], [1, 1, 1, 1], 2, 0, [1, 1], 1, 1, 0)
    with pytest.raises(ValueError, match="triple_rows: parts of n"):
        _accel.triple_rows([(ints, ints, ints, 1, 2)])
    with pytest.raises(TypeError, match="triple_rows: each part"):
        _accel.triple_rows([(ints, ints)])
    assert _accel.triple_rows([(ints, array("q", [1, -1]), ints, 1, 1)]) is None
    assert _accel.triple_rows([]) == ("H", b"")
    with pytest.raises(ValueError, match="narrow_ints: itemsize 2 or 4"):
        _accel.narrow_ints(ints, 3)
    edges = [-32_768, 32_767]
    assert _accel.narrow_ints(array("q", edges), 2) == array("h", edges).tobytes()
    assert _accel.narrow_ints(array("q", [32_768]), 2) is None
    assert _accel.narrow_ints(array("i", [-(2**31)]), 4) == array("i", [-(2**31)]).tobytes()
    assert _accel.narrow_ints(array("q", [2**31]), 4) is None


@needs_accel
def test_the_sentence_kernel_refuses_buffers_other_than_signed_integers():
    from array import array

    from bleukit import _accel

    ints, floats = array("q", [1]), array("d", [1.0])
    with pytest.raises(ValueError, match="int16, int32 or int64"):
        _accel.sentence_bleu(ints, array("q", [1] * 4), floats, 4, 4, 0, False, 0, 0.0, False)
    with pytest.raises(ValueError, match="int16, int32 or int64"):
        _accel.sentence_bleu(array("H", [1]), array("q", [1] * 4), ints, 4, 4, 0, 0, 0, 0.0, 0)


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    configs(),
    st.sampled_from(["none.v1", "floor.v1", "add-k.v1", "exp.v1", "nltk-method7.v1"]),
    st.booleans(),
    corpora(),
    st.data(),
)
def test_compiled_scores_of_summed_rows_equal_the_reference(
    over, smoothing, effective, corpus, data
):
    """Engine.row_values in C (a trial's two sides summed, or rows alone)
    gives the floats of the statistics ``Columns.to_stats`` makes, scored by
    the reference; NLTK's method 7 (the last segment read) and average
    lengths (Fractions) are scored from the columns."""
    from bleukit.metrics.base import Metric

    hyps, refs = corpus
    fields = {**over, "smoothing": smoothing, "effective_order": effective}
    variant = _variant("c", **fields)
    cols = Columns(variant.segment_stats(hyps, refs)[0], variant)
    picks = data.draw(st.lists(st.lists(st.integers(0, cols.n - 1), max_size=4), max_size=5))
    rows = [v for idx in picks for v in [sum(cols.cols[k][i] for i in idx)
                                         for k in range(cols.width)]]  # fmt: skip
    other = list(reversed(rows)) if data.draw(st.booleans()) else None
    expected = Metric.score_sums(variant, cols, rows, other)
    assert variant.score_sums(cols, rows, other) == expected
    assert _variant("python", **fields).score_sums(cols, rows, other) == expected


@needs_accel
def test_the_kernels_type_stub_names_every_function():
    """bleukit/_accel.pyi types what bleukit._accel defines, no more, no less."""
    import ast
    from pathlib import Path

    stub = ast.parse(Path(compiled.__file__).parent.parent.joinpath("_accel.pyi").read_text())
    typed = {node.name for node in stub.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    defined = {name for name in dir(ACCEL) if not name.startswith("_")}
    assert typed == defined


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(1, 12), st.integers(0, 4), st.booleans(), st.data())
def test_compiled_chrf_rows_equal_f_score_bit_for_bit(order, beta, eps, data):
    """Engine.chrf_values in C gives metrics.chrf.core.f_score's floats
    exactly, rows alone or two sides summed, empty orders included."""
    from bleukit.metrics.chrf.core import f_score

    count = st.integers(0, 6) | st.integers(0, 10**6)
    triples = data.draw(st.lists(st.lists(count, min_size=3 * order, max_size=3 * order),
                                 max_size=4))  # fmt: skip
    rows = [x for t in triples for x in t]
    other = data.draw(st.none() | st.just(list(reversed(rows))))
    summed = rows if other is None else [x + y for x, y in zip(rows, other)]
    w = 3 * order
    expected = [f_score(summed[k : k + w], order, beta, eps) for k in range(0, len(summed), w)]
    assert ENGINES.get("c").chrf_values(rows, other, order, beta, eps) == expected
    assert ENGINES.get("python").chrf_values(rows, other, order, beta, eps) is None


@pytest.mark.parametrize("engine", AVAILABLE)
def test_chrf_sentence_scores_and_sums_read_the_rows(engine):
    """A chrF variant's sentence scores (from its store's rows) and summed
    rows' scores are its own score_value's, on every engine."""
    from bleukit.corpus.systems import collect

    hyps = ["the cat sat on the mat today", "a dog", "", "cats and dogs"]
    refs = [["the cat sat on a mat", "a dog barks", "the", "cats, dogs"]]
    for name in ("chrF", "chrF++"):
        variant = bleukit.load_metric(name, engine=engine)
        stats = collect([variant], [("s", hyps)], refs)
        segments = list(stats.segment_stats(variant, "s"))
        assert stats.sentence_values(variant, "s") == [variant.score_value(s) for s in segments]
        flat = [x for s in segments for x in s]
        half = [x // 2 for x in flat]
        w = len(segments[0])
        summed = [tuple(x + y for x, y in zip(s, half[k * w : (k + 1) * w]))
                  for k, s in enumerate(segments)]  # fmt: skip
        assert variant.row_scores(flat, half) == [variant.score_value(s) for s in summed]
