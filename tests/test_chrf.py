"""bleukit.metrics.chrf.core, the chrF stage: configuration, words, triples, the
F-score, the best reference, signatures (their forms, parser, and that every
scoring field moves them)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.errors import ConfigError
from bleukit.metrics.chrf.config import CHRF_SCORING_FIELDS, ChrfConfig
from bleukit.metrics.chrf.core import (
    ChrfSignature,
    StreamCounts,
    best_triples,
    f_score,
    is_chrf_signature,
    parse_chrf_signature,
    stream_rows,
    sum_triples,
    words,
)
from bleukit.metrics.registry import validate_any

BASE = {
    "metric": "chrf.v1",
    "char_order": 6,
    "word_order": 0,
    "beta": 2,
    "lowercase": False,
    "whitespace": False,
    "eps_smoothing": False,
}


def config(**changes: object) -> ChrfConfig:
    return ChrfConfig(**{**BASE, **changes})


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Hello, world!", ["Hello", ",", "world", "!"]),
        ("(hi)", ["(hi", ")"]),  # sacrebleu issue #124: one split per word
        ("'quoted", ["'", "quoted"]),
        ("a . ,", ["a", ".", ","]),
        ("  spaced\tout\u3000here ", ["spaced", "out", "here"]),
        ("«guillemets»", ["«guillemets»"]),  # only ASCII punctuation splits
        ("", []),
    ],
)
def test_words_split_one_punctuation_mark_off(line, expected):
    assert words(line) == expected


def test_config_requires_every_field_and_some_order():
    with pytest.raises(ConfigError, match="key 'beta': missing"):
        validate_any({k: v for k, v in BASE.items() if k != "beta"}, "test")
    with pytest.raises(ConfigError, match="both 0"):
        validate_any({**BASE, "char_order": 0, "word_order": 0}, "test")
    with pytest.raises(ConfigError, match="key 'smoothing': unknown key"):
        validate_any({**BASE, "smoothing": "exp"}, "test")
    assert validate_any(BASE, "test") == config()
    assert config(word_order=2).score_name == "chrF2++"
    assert config(beta=1).score_name == "chrF1"


def test_triples_follow_sacrebleu_for_short_references():
    # hypothesis of 5 symbols, reference of 2: orders 3.. have no reference
    # n-gram, so (compatibility quirk) they count no hypothesis n-gram either
    counts = StreamCounts([5], [2], [2, 1, 0, 0], 4)
    assert counts.triples(0) == [5, 2, 2, 4, 1, 1, 0, 0, 0, 0, 0, 0]
    assert StreamCounts([3], [-1], [0, 0], 2).triples(0) is None


def test_f_score_by_hand():
    # one order, 3 matches of 4 hypothesis and 6 reference n-grams, beta 2:
    # P = 3/4, R = 1/2, F2 = 5PR / (4P + R) = 1.875 / 3.5
    stats = [4, 6, 3]
    assert math.isclose(f_score(stats, 1, 2, False), 100 * 1.875 / 3.5)
    assert math.isclose(f_score(stats, 1, 2, True), 100 * 1.875 / 3.5)
    # an order without n-grams: effective order skips it, eps counts it as ~0
    assert math.isclose(f_score([*stats, 0, 0, 0], 2, 2, False), 100 * 1.875 / 3.5)
    assert math.isclose(f_score([*stats, 0, 0, 0], 2, 2, True), 50 * 1.875 / 3.5)
    assert f_score([0, 5, 0], 1, 2, False) == 0.0
    assert f_score([5, 5, 5], 1, 0, False) == 100.0  # beta 0: precision


def test_best_reference_is_the_first_with_the_highest_f():
    c = config(char_order=1)
    worse = StreamCounts([4], [4], [1], 1)
    better = StreamCounts([4], [4], [3], 1)
    same = StreamCounts([4], [4], [3], 1)
    assert best_triples([worse, better, same], [], c) == [(4, 4, 3)]
    assert best_triples([better, StreamCounts([4], [8], [3], 1)], [], c) == [(4, 4, 3)]
    # a stream without this segment's reference is skipped
    assert best_triples([StreamCounts([4], [-1], [0], 1), worse], [], c) == [(4, 4, 1)]


def counts(order: int) -> st.SearchStrategy[StreamCounts]:
    """One stream's counts of a few segments, lengths around the order
    (an order past a segment's length has no n-grams)."""
    lengths = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=0, max_size=5)
    return lengths.flatmap(
        lambda ls: st.lists(
            st.integers(0, 5), min_size=len(ls) * order, max_size=len(ls) * order
        ).map(lambda m: StreamCounts([h for h, _ in ls], [r for _, r in ls], m, order))
    )


@given(counts(3), counts(2), st.booleans())
def test_stream_rows_are_the_best_triples_column_by_column(chars, word_counts, with_words):
    # the two streams of one tokenization describe the same segments
    size = min(len(chars.hyp_len), len(word_counts.hyp_len))
    chars = StreamCounts(chars.hyp_len[:size], chars.ref_len[:size], chars.matches[: 3 * size], 3)
    word_counts = StreamCounts(
        word_counts.hyp_len[:size], word_counts.ref_len[:size], word_counts.matches[: 2 * size], 2
    )
    parts = [chars, word_counts] if with_words else [chars]
    c = config(char_order=3, word_order=2 if with_words else 0)
    expected = [x for t in best_triples([chars], parts[1:], c) for x in t]
    assert list(stream_rows(parts)) == expected
    # a segment without its reference: no rows (best_triples has none to give)
    if size:
        missing = StreamCounts(chars.hyp_len, [-1, *chars.ref_len[1:]], chars.matches, 3)
        assert stream_rows([missing, *parts[1:]]) is None


def test_sum_triples():
    assert sum_triples([(1, 2, 3), (4, 5, 6)], 1) == (5, 7, 9)
    assert sum_triples([], 2) == (0,) * 6


def test_signature_forms():
    sig = ChrfSignature(config(word_order=2), 1)
    assert sig.long.startswith("bleukit|metric:chrf.v1|nc:6|nw:2|beta:2|case:mixed|")
    assert sig.short.startswith("bk|m:chrf.v1|nc:6|nw:2|b:2|c:m|sp:n|e:n|#:1|v:")
    assert sig.sacrebleu == "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0"
    assert sig.sacrebleu_format(short=True) == "#:1|c:mixed|e:yes|nc:6|nw:2|s:no|v:2.6.0"
    assert len(sig.digest) == 12
    assert is_chrf_signature(sig.long) and is_chrf_signature(sig.short)
    assert not is_chrf_signature("bleukit|tok:13a.v1|nrefs:1")


configs = st.builds(
    lambda **kw: config(**kw),
    char_order=st.integers(0, 20),
    word_order=st.integers(1, 4),
    beta=st.integers(0, 5),
    lowercase=st.booleans(),
    whitespace=st.booleans(),
    eps_smoothing=st.booleans(),
)


@given(configs, st.one_of(st.integers(1, 9), st.just("var")))
def test_signatures_parse_back_to_the_variant(c, nrefs):
    sig = ChrfSignature(c, nrefs)
    for text in (sig.long, sig.short):
        again = parse_chrf_signature(text)
        assert again.config == c and again.nrefs == nrefs


@given(configs, st.sampled_from(CHRF_SCORING_FIELDS[1:]), st.data())
def test_every_scoring_field_moves_the_signature(c, field, data):
    value = getattr(c, field)
    other = (not value) if isinstance(value, bool) else value + data.draw(st.integers(1, 3))
    changed = dataclasses.replace(c, **{field: other})
    a, b = ChrfSignature(c, 1), ChrfSignature(changed, 1)
    assert a.long != b.long and a.short != b.short and a.digest != b.digest


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sacrebleu|m:chrf.v1", "must start"),
        ("bk|m:chrf.v1|nc:6", "'nw' is missing"),
        ("bk|m:chrf.v1|nc:x|nw:0|b:2|c:m|sp:n|e:n|#:1", "not a number"),
        ("bk|m:chrf.v1|nc:6|nw:0|b:2|c:up|sp:n|e:n|#:1", "'up' is not one of"),
        ("bk|m:chrf.v1|nc:6|nw:0|b:2|c:m|sp:n|e:n|#:0x", "nrefs"),
        ("bk|m:chrf.v1|nc:6|nw:0|b:2|c:m|sp:n|e:n|#:1|zz:1", "unknown key 'zz'"),
        ("bk|m:chrf.v1|nc:0|nw:0|b:2|c:m|sp:n|e:n|#:1", "both 0"),
        ("bk|m:chrf.v1|nc", "expected key:value"),
    ],
)
def test_bad_signatures_are_one_clear_error(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_chrf_signature(text)
