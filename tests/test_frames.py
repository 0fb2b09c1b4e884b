"""bleukit.frames: columns of pandas, Polars, PyArrow and NumPy (and plain
lists) give the scores of the same text as lists; list columns hold several
references per row; missing values are no reference. The libraries' cases
run where they are installed (tox -e dask has pandas, PyArrow and Polars,
and sets BLEUKIT_REQUIRE_FRAMES=1, which makes their absence a failure)."""

from __future__ import annotations

import importlib
import os

import pytest

import bleukit
from bleukit import frames
from bleukit.core.errors import InputError

HYPS = ["the cat sat on the mat", "a dog ran", "it rains today"]
REF_A = ["the cat sat on a mat", "a dog ran away", "it rained today"]
REF_B = ["a cat was on the mat", None, "rain today"]


def _library(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("BLEUKIT_REQUIRE_FRAMES"):
            raise
        pytest.skip(f"{name} not installed (tox -e dask)")


def column(kind, values):
    if kind == "list":
        return list(values)
    if kind == "pandas":
        return _library("pandas").Series(values, dtype=object)
    if kind == "polars":
        return _library("polars").Series(values)
    if kind == "pyarrow":
        return _library("pyarrow").chunked_array([values[:1], values[1:]])
    return _library("numpy").array(values, dtype=object)


KINDS = ["list", "pandas", "polars", "pyarrow", "numpy"]


@pytest.mark.parametrize("kind", KINDS)
def test_columns_score_as_lists(kind):
    v = bleukit.load_variant(frames.DEFAULT_SENTENCE_VARIANT)
    expected = [r.score for r in v.sentence_scores(HYPS, [REF_A])]
    assert frames.sentence_scores(column(kind, HYPS), column(kind, REF_A)) == expected
    both = frames.corpus_score(column(kind, HYPS), (column(kind, REF_A), column(kind, REF_B)))
    whole = bleukit.load_variant("sacrebleu").corpus_score(HYPS, [REF_A, REF_B])
    assert both.score == whole.score and both.signature.nrefs == "var"


@pytest.mark.parametrize("kind", ["list", "pandas", "polars", "pyarrow"])
def test_list_columns_hold_several_references_per_row(kind):
    rows = [[a, b] if b is not None else [a] for a, b in zip(REF_A, REF_B)]
    if kind == "polars":
        refs = _library("polars").Series(rows)
    elif kind == "pyarrow":
        refs = _library("pyarrow").array(rows)
    else:
        refs = column(kind, rows)
    chrf = bleukit.load_metric("chrF")
    got = frames.sentence_scores(column(kind, HYPS), refs, variant=chrf)
    assert got == [r.score for r in chrf.sentence_scores(HYPS, [REF_A, REF_B])]


def test_missing_values_and_errors():
    pd = (
        pytest.importorskip("pandas")
        if not os.environ.get("BLEUKIT_REQUIRE_FRAMES")
        else (_library("pandas"))
    )
    refs = pd.Series(["the cat sat on a mat", float("nan"), "rain"])
    v = bleukit.load_variant("sacrebleu")
    got = frames.corpus_score(pd.Series(HYPS), [pd.Series(REF_A), refs])
    assert got.score == v.corpus_score(HYPS, [REF_A, ["the cat sat on a mat", None, "rain"]]).score
    with pytest.raises(InputError, match="hypotheses: row 1 is missing"):
        frames.sentence_scores(pd.Series(["a", None]), pd.Series(["a", "b"]))


def test_plain_errors():
    with pytest.raises(InputError, match="expected a column .* not int"):
        frames.sentence_scores(3, ["a"])
    with pytest.raises(InputError, match="reference column 0 has 1 rows for 2 hypotheses"):
        frames.sentence_scores(["a", "b"], ["a"])
    with pytest.raises(InputError, match="^reference column 0, row 0: int 5, not a string$"):
        frames.sentence_scores(["a"], [5])
    with pytest.raises(InputError, match="^reference column 1, row 1, item 1: int 5, not a str"):
        frames.sentence_scores(["a", "b"], (["a", "b"], [["a"], ["b", 5]]))
    with pytest.raises(InputError, match="^hypotheses, row 2: bytes b'c', not a string$"):
        frames.sentence_scores(["a", "b", b"c"], ["a", "b", "c"])
    assert frames.sentence_scores([], []) == []


def test_the_documented_dataframe_example_runs():
    import subprocess
    import sys
    from pathlib import Path

    _library("pandas")
    script = (
        Path(__file__).parents[1] / "docs" / "examples" / "integrations" / "dataframe_scores.py"
    )
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    hyps = ["the cat sat on the mat", "a dog ran", "it rains"]
    refs = ["the cat sat on a mat", "a dog ran away", "it rained"]
    bleu = bleukit.load_variant(frames.DEFAULT_SENTENCE_VARIANT).sentence_scores(hyps, [refs])
    chrf = bleukit.load_metric("chrF").sentence_scores(hyps, [refs])
    rows = [[round(b.score, 2), round(c.score, 2)] for b, c in zip(bleu, chrf)]
    corpus = bleukit.load_variant("sacrebleu").corpus_score(
        hyps, [refs, ["a cat was on the mat", None, "rain"], [None, None, "it is raining"]]
    )
    assert out.stdout.splitlines() == [str(rows), f"{corpus.score:.2f} {corpus.signature.short}"]
