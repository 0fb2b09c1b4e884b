"""bleukit/core/matches.py: the reference counts of the n-grams systems
match in their references (compare-mt's ``compare_ngrams``), by hand."""

from __future__ import annotations

import pytest

from bleukit.core.errors import InputError
from bleukit.core.matches import MatchCounts, block_words, check_chunk, line_count, salience


def test_blocks_split_as_compare_mt_or_as_tokens():
    assert block_words("a  b\n\nc", keep_empty=True) == [["a", "", "b"], [""], ["c"]]
    assert block_words("a  b\n\nc", keep_empty=False) == [["a", "b"], [], ["c"]]
    assert block_words([["x y"], []], keep_empty=True) == [["x y"], []]
    assert [line_count(t) for t in ("", "a\nb", [[]], [])] == [1, 2, 1, 0]


def test_chunks_must_align():
    check_chunk("a\nb", ["c\nd", [["c"], ["d"]]], 2)
    with pytest.raises(InputError, match="system 1 has 1 lines, the reference 2"):
        check_chunk("a\nb", ["c\nd", "c"], 2)
    with pytest.raises(InputError, match="1 hypothesis chunks for 2 systems"):
        check_chunk("a", ["a"], 2)


def test_matches_are_clipped_by_the_reference_count_per_segment():
    m = MatchCounts(2, 2)
    lengths = m.add("a a b\nc", ["a a a b\nc c", [["b", "a"], ["d"]]], keep_empty=False)
    assert [list(x) for x in lengths] == [[3, 1], [4, 2], [2, 1]]
    # system 0: three a's against two, the bigram "a a" twice against once
    assert m.matched(0, 1, 2) == {("a",): 2, ("b",): 1, ("c",): 1, ("a", "a"): 1, ("a", "b"): 1}
    assert m.matched(0, 2, 2) == {("a", "a"): 1, ("a", "b"): 1}
    assert m.matched(1, 1, 2) == {("a",): 1, ("b",): 1}
    assert m.words(0) == {"a": 2, "b": 1, "c": 1}
    assert m.words(1) == {"a": 3, "b": 1, "c": 2}
    assert m.words(2) == {"b": 1, "a": 1, "d": 1}


def test_an_empty_line_is_one_empty_word_when_empty_words_count():
    m = MatchCounts(1, 1)
    lengths = m.add("\nx", ["\ny"], keep_empty=True)
    assert [list(x) for x in lengths] == [[1, 1], [1, 1]]
    assert m.matched(0, 1, 1) == {("",): 1}


def test_ranked_by_salience_then_frequency_then_ngram():
    m = MatchCounts(2, 1)
    m.add("x y z w", ["x y z", "z w"], keep_empty=False)
    m.add("x y", ["x y", "y"], keep_empty=False)
    # matches a (system 0) / b (system 1): x 2/0, y 2/1, z 1/1, w 0/1
    wins = m.ranked(0, 1, 1, 1.0, 10, losses=False)
    assert wins == [(("x",), 2, 0), (("y",), 2, 1), (("z",), 1, 1), (("w",), 0, 1)]
    assert [s for s in (salience(a, b, 1.0) for _, a, b in wins)] == [0.75, 0.6, 0.5, 1 / 3]
    assert m.ranked(0, 1, 1, 1.0, 2, losses=True) == [(("w",), 0, 1), (("z",), 1, 1)]
    assert m.ranked(0, 1, 2, 1.0, 10, losses=False) == []


def test_ties_go_to_the_smaller_ngram_as_python_orders_tuples():
    m = MatchCounts(2, 2)
    m.add("b a b", ["b a b", ""], keep_empty=False)
    ranked = [g for g, _, _ in m.ranked(0, 1, 1, 1.0, 10, losses=False)]
    # b (2 matches) first, then the one-match n-grams: ("a",) < ("a", "b") < ("b", "a")
    assert ranked == [("b",), ("a",), ("a", "b"), ("b", "a")]


def test_bad_sizes_are_refused():
    with pytest.raises(InputError):
        MatchCounts(0, 4)
    m = MatchCounts(1, 2)
    with pytest.raises(InputError, match="system 0 has 2 lines, the reference 1"):
        m.add("a", ["a\nb"], keep_empty=False)
