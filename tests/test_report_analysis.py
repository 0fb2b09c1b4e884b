"""bleukit/report/analysis.py: an Analysis as text, Markdown and JSON."""

from __future__ import annotations

import json

import pytest

import bleukit
from bleukit.report import analysis as formats


@pytest.fixture(scope="module")
def result(analysis_case):
    return analysis_case.run([bleukit.load_metric("BLEUw4"), bleukit.load_metric("chrF")], top=3)


def test_text_has_every_table_in_compare_mt_s_order(result):
    out = formats.text(result)
    titles = [
        "BLEUw4 by reference length (base, good: segments, score)",
        "chrF by length ratio",
        "Word F-measure by frequency in the refs (test tokens)",
        "n-grams good matches more often than base",
        "n-grams good matches less often than base",
        "sentence differences, good minus base (better is positive)",
        "Segments where good is furthest ahead of base",
        "Segments where good is furthest behind base",
    ]
    positions = [out.index(t) for t in titles]
    assert positions == sorted(positions)
    assert out.rstrip().splitlines()[-1].startswith("sentence scores: BLEUw4[effective_order=True")
    # an empty bucket prints "-", not a score of 0
    assert "[50,60) 0 0 - -" in [" ".join(line.split()) for line in out.splitlines()]


def test_markdown_and_json(result):
    md = formats.markdown(result)
    assert "**Word F-measure by frequency in the refs (test tokens)**" in md
    assert "| frequency | ref words | base | good |" in md
    assert json.loads(formats.as_json(result)) == json.loads(json.dumps(result.to_dict()))


def test_an_empty_list_says_none(analysis_case):
    same = analysis_case.run([bleukit.load_metric("BLEUw4")], systems=(["x y"] * 4, ["x y"] * 4))
    assert "(none)" in formats.text(same)
