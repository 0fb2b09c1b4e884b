"""core.packed: lines kept as UTF-8 bytes read back as the strings (and
None) they were, whole, by index and by slice, appended in any pieces,
pickled and joined."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.packed import PackedLines

# any code point: lone surrogates, newlines and NUL included
LINES = st.lists(st.one_of(st.none(), st.text(st.characters(codec=None))), max_size=12)


@given(LINES, st.integers(0, 12))
def test_lines_come_back_as_they_went_in(lines, cut):
    packed = PackedLines(lines[:cut])
    packed.extend(lines[cut:])
    n = len(lines)
    assert len(packed) == n and list(packed) == lines
    assert [packed[i] for i in range(-n, n)] == lines * 2
    assert packed.has_none == (None in lines)


@given(LINES, st.integers(-14, 14), st.integers(-14, 14), st.sampled_from([None, 1, 2, -1]))
def test_a_slice_is_the_list_slice(lines, start, stop, step):
    assert PackedLines(lines)[start:stop:step] == lines[start:stop:step]


@given(LINES, LINES)
def test_packed_lines_pickle_and_join(first, second):
    a, b = PackedLines(first), PackedLines(second)
    a.extend(pickle.loads(pickle.dumps(b)))
    assert list(a) == first + second and a.has_none == (None in first + second)
    assert list(pickle.loads(pickle.dumps(a))) == first + second


def test_iteration_decodes_block_by_block(monkeypatch):
    monkeypatch.setattr(PackedLines, "_BLOCK", 3)
    lines = [str(i) for i in range(10)]
    assert list(PackedLines(lines)) == lines


@pytest.mark.parametrize("index", [3, -4])
def test_an_index_past_the_lines_is_an_index_error(index):
    with pytest.raises(IndexError):
        PackedLines(["a", "b", None])[index]
