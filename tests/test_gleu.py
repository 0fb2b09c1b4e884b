"""GLEU (bleukit.metrics.gleu) equals NLTK 3.10.4's corpus_gleu and
sentence_gleu on the WMT data (tests/golden/gleu_nltk.json, from
tests/golden/make_gleu_golden.py: str.split() tokens for GLEU-nltk, HF
evaluate google_bleu's 13a tokens for GLEU), HF evaluate's documented
examples, and holds the properties its statistics must
(tests_oracle/test_live_gleu.py compares it with NLTK live)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import ConfigError, InputError
from bleukit.engines import ENGINES
from bleukit.metrics import parse_any_signature
from bleukit.metrics.gleu.core import segment_stats

GOLDEN = json.loads((Path(__file__).parent / "golden" / "gleu_nltk.json").read_text("utf-8"))
TOL = 1e-9


def _id(case: dict) -> str:
    refs = "+".join(case["refs"])
    orders = f"{case['min_order']}-{case['max_order']}"
    return f"{case['set']}|{case['system']}|{refs}|{case['variant']}|{orders}"


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=_id)
def test_corpus_and_sentence_gleu_equal_nltk(case, wmt):
    gleu = bleukit.load_metric(
        case["variant"], min_order=case["min_order"], max_order=case["max_order"]
    )
    hyps = wmt.hyps(case["set"], case["system"])
    refs = wmt.refs(case["set"], case["refs"])
    assert gleu.corpus_score(hyps, refs).score == pytest.approx(100 * case["corpus"], abs=TOL)
    n = len(case["sentences"])
    sentences = gleu.sentence_scores(hyps[:n], [r[:n] for r in refs])
    for ours, theirs in zip(sentences, case["sentences"]):
        assert ours.score == pytest.approx(100 * theirs, abs=TOL)


# HF evaluate's google_bleu documentation (its _KWARGS_DESCRIPTION examples)
PREDICTIONS = [
    "It is a guide to action which ensures that the rubber duck always disobeys the commands "
    "of the cat",
    "he read the book because he was interested in world history",
]
ONE_REF = [
    ["It is the guiding principle which guarantees the rubber duck forces never being under "
     "the command of the cat"],
    ["he was interested in world history because he read the book"],
]  # fmt: skip
THREE_REFS = [
    [ONE_REF[0][0],
     "It is a guide to action that ensures that the rubber duck will never heed the cat commands",
     "It is the practical guide for the rubber duck army never to heed the directions of the cat"],
    ONE_REF[1],
]  # fmt: skip


@pytest.mark.parametrize(
    ("refs", "orders", "expected"),
    [(ONE_REF, (1, 4), 0.44), (THREE_REFS, (1, 4), 0.61), (THREE_REFS, (2, 4), 0.53),
     (THREE_REFS, (2, 6), 0.4)],
)  # fmt: skip
def test_hf_evaluate_documented_examples(refs, orders, expected):
    gleu = bleukit.load_metric("GLEU", min_order=orders[0], max_order=orders[1])
    streams = [[seg[k] if k < len(seg) else None for seg in refs] for k in range(3)]
    streams = [s for s in streams if any(r is not None for r in s)]
    assert round(gleu.corpus_score(PREDICTIONS, streams).score / 100, 2) == expected


def test_best_reference_ties_go_to_the_first():
    """NLTK's max keeps the first of equal ratios: (1, 2) before (2, 4)."""
    hyp = ["a", "b"]
    first, second = ["a", "x"], ["a", "b", "y", "z"]
    assert segment_stats(hyp, [first, second], 1, 1) == (1, 2)
    assert segment_stats(hyp, [second, first], 1, 1) == (2, 4)
    assert segment_stats([], [[]], 1, 4) == (0, 0)


def test_result_signature_and_checks():
    gleu = bleukit.load_metric("GLEU")
    result = gleu.corpus_score(["a b c"], [["a b d"]])
    assert result.matches == 3 and result.total == 6 and result.score == 50.0
    assert str(result) == "GLEU = 50.00" and result.to_dict()["metric"] == "GLEU"
    sig = result.signature
    assert sig.long.startswith("bleukit|metric:gleu.v1|tok:13a.v1|split:unicode.v1|case:mixed|")
    assert "min:1|order:4|nrefs:1" in sig.long
    assert parse_any_signature(sig.short).long == sig.long
    with pytest.raises(ConfigError, match="min_order"):
        bleukit.load_metric("GLEU", min_order=5)
    with pytest.raises(InputError, match="matches at most total"):
        gleu.check_stats((3, 2))
    assert gleu.with_order(2).order == 2


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=7).map(" ".join)


@given(st.lists(st.tuples(WORDS, WORDS, WORDS), min_size=1, max_size=8))
def test_statistics_add_up_and_partials_merge(rows):
    gleu = bleukit.load_metric("GLEU")
    hyps = [h for h, _, _ in rows]
    refs = [[r for _, r, _ in rows], [r for _, _, r in rows]]
    segments, _ = gleu.segment_stats(hyps, refs)
    total, _ = gleu.corpus_stats(hyps, refs)
    assert (sum(s[0] for s in segments), sum(s[1] for s in segments)) == total
    assert 0 <= gleu.score_value(total) <= 100
    half = len(rows) // 2
    merged = gleu.partial(hyps[:half], [r[:half] for r in refs]) + gleu.partial(
        hyps[half:], [r[half:] for r in refs]
    )
    assert gleu.score(merged).score == gleu.score_stats(total, 2).score


ENGINE_NAMES = [n for n in ("python", "c") if ENGINES.get(n).unavailable() is None]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@given(
    st.lists(st.tuples(WORDS, WORDS, WORDS), min_size=1, max_size=8),
    st.integers(1, 3),
    st.integers(0, 3),
)
def test_the_counting_tables_give_the_python_reference(engine, rows, low, extra):
    """Each reference stream counted by the engine's tables (BLEU's clipped
    matches against one reference) gives, segment by segment, what
    ``core.segment_stats`` counts in Python: best reference, first of equal
    ratios, empty segments and references passed over."""
    gleu = bleukit.load_metric("GLEU", engine=engine, min_order=low, max_order=low + extra)
    hyps = [h for h, _, _ in rows]
    refs = [[r for _, r, _ in rows], [r for _, _, r in rows]]
    prepared = gleu.prepare_references(refs)
    assert prepared.streams is not None
    segments, _ = gleu.segment_stats(hyps, prepared)
    expected = [
        segment_stats(h.split(), [a.split(), b.split()], low, low + extra) for h, a, b in rows
    ]
    assert segments == expected


def test_a_segment_missing_a_reference_is_counted_in_python():
    gleu = bleukit.load_metric("GLEU")
    refs = [["the cat sat", "a dog"], ["the cat sat on", None]]
    prepared = gleu.prepare_references(refs)
    assert prepared.streams is None and prepared.words[1] == (("a", "dog"),)
    segments, nrefs = gleu.segment_stats(["the cat sat on", "a dog barked"], prepared)
    assert nrefs == "var"
    assert segments == [
        segment_stats(
            ["the", "cat", "sat", "on"], [["the", "cat", "sat"], ["the", "cat", "sat", "on"]], 1, 4
        ),
        segment_stats(["a", "dog", "barked"], [["a", "dog"]], 1, 4),
    ]
