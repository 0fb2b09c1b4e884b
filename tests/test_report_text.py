"""bleukit.report.text: the JSON layout written by hand (``indented_json``)
is ``json.dumps``'s with ``indent=1``, character for character."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.report.text import SentenceJson, dumps, indented_json, sentence_json_object


class _Int(int):
    """A subclass: spelled by json itself, not by the exact types' table."""


class _Float(float):
    pass


class _Str(str):
    pass


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.integers().map(_Int)
    | st.floats(allow_nan=True, allow_infinity=True).map(_Float)
    | st.text(max_size=8).map(_Str)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.dictionaries(st.integers() | st.none() | st.booleans(), inner, max_size=2)
    ),
    max_leaves=20,
)


@given(VALUES, st.integers(0, 4))
def test_indented_json_is_json_dumps_with_an_indent(value, level):
    expected = json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * level)
    assert indented_json(value, level) == expected


def test_sentence_json_written_a_segment_at_a_time_is_dumps_of_the_blocks():
    variant = bleukit.load_variant("sacrebleu-sentence")
    hyps = ["the cat sat on the mat", "ein Hund «bellt»", ""]
    refs = [["the cat sat on a mat", "ein Hund bellt laut", "nichts"]]
    results = variant.sentence_scores(hyps, refs)
    writer = SentenceJson(variant.signature(1))
    before, after = writer.frame(variant.name, "hyp.txt")
    text = "[\n" + before + writer.segments(results) + after + "\n]"
    expected = sentence_json_object(variant.name, "hyp.txt", results, variant.signature(1))
    assert text == dumps([expected])
