"""TER's building blocks (bleukit.metrics.ter): Tercom's normalization and
the edit count with shifts equal sacrebleu 2.6.0's on WMT data
(tests/golden/ter_sacrebleu.json, from tests/golden/make_ter_golden.py;
tests_oracle/test_live_ter.py compares them live on generated text), and
hold the properties an edit count must."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleukit.metrics.ter.edits import (
    MAX_SHIFT_SIZE,
    BeamDistance,
    alignment,
    edit_count,
    matching_runs,
    shifted,
)
from bleukit.metrics.ter.normalize import TercomNormalizer

HERE = Path(__file__).parent
GOLDEN = json.loads((HERE / "golden" / "ter_sacrebleu.json").read_text("utf-8"))
DATA = HERE / "data" / "wmt"


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text("utf-8")[:-1].split("\n")[: GOLDEN["meta"]["segments"]]


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['set']}-{c['setting']}")
def test_edit_counts_and_words_equal_sacrebleu(case):
    normalizer = TercomNormalizer(*case["flags"])
    hyps = [normalizer.words(h) for h in _lines(f"{case['set']}.hyp.{case['system']}.txt")]
    refs = [normalizer.words(r) for r in _lines(f"{case['set']}.ref.A.txt")]
    text = "\n".join(" ".join(words) for words in hyps + refs)
    assert hashlib.sha256(text.encode()).hexdigest() == case["normalized_sha256"]
    assert [len(r) for r in refs] == case["ref_lengths"]
    assert [edit_count(h, r) for h, r in zip(hyps, refs)] == case["edits"]


def test_snover_et_al_example():
    # Snover et al. (2006), section 2: one shift and two substitutions
    ref = "SAUDI ARABIA denied this week information published in the AMERICAN new york times"
    hyp = "this week the saudis denied information published in the new york times"
    assert edit_count(hyp.lower().split(), ref.lower().split()) == 4


def test_edge_cases():
    assert edit_count([], []) == 0
    assert edit_count(["a", "b"], []) == 2  # an empty reference: every word
    assert edit_count([], ["a", "b", "c"]) == 3
    assert edit_count("a b c d".split(), "c d a b".split()) == 1  # one shift of two words


def test_the_normalizer_follows_tercom_as_sacrebleu_ports_it():
    text = "&quot;Tom's&quot; dog, 3.5 km - 4-5 (ok)!\n-next\nline"
    assert TercomNormalizer()(text) == "&quot;tom's&quot; dog, 3.5 km - 4-5 (ok)! -next line"
    assert TercomNormalizer(normalized=True)(text) == (
        '" tom \'s " dog , 3.5 km - 4 - 5 ( ok ) ! next line'
    )
    assert TercomNormalizer(no_punct=True, case_sensitive=True)("Hi, (you)!") == "Hi you"
    asian = TercomNormalizer(normalized=True, asian_support=True, no_punct=True)
    # ideographs one word each, CJK punctuation gone; only a leading kana run
    # is split off (a quirk of the port, kept)
    assert asian("ひらがな漢字です。カタカナ") == "ひらがな 漢 字 です カタカナ"
    assert TercomNormalizer().words("  a  b \n") == ["a", "b"]


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "."]), max_size=30)


@given(WORDS, WORDS)
def test_an_edit_count_is_bounded_by_the_plain_distance(hyp, ref):
    """Shifts only ever lower the count: 0 for equal texts, never above the
    beam distance without shifts (itself at most the longer length)."""
    count = edit_count(hyp, ref)
    assert 0 <= count <= (BeamDistance(ref, len(hyp))(hyp)[0] if ref else len(hyp))
    assert count <= max(len(hyp), len(ref))
    assert edit_count(hyp, hyp) == 0


@given(WORDS, WORDS)
def test_a_trace_aligns_every_word(hyp, ref):
    if not ref:
        return
    distance, trace = BeamDistance(ref, len(hyp))(hyp)
    align, ref_err, hyp_err = alignment(trace)
    assert len(align) == len(ref_err) == len(ref) and len(hyp_err) == len(hyp)
    assert distance == trace.count("s") + trace.count("i") + trace.count("d")


@given(WORDS, st.data())
def test_a_shift_moves_words_and_keeps_them_all(words, data):
    if not words:
        return
    start = data.draw(st.integers(0, len(words) - 1))
    length = data.draw(st.integers(1, len(words) - start))
    target = data.draw(st.integers(0, len(words)))
    assert sorted(shifted(words, start, length, target)) == sorted(words)
    if target < start or target > start + length:
        out = shifted(words, start, length, target)
        block = words[start : start + length]
        assert any(out[i : i + length] == block for i in range(len(out)))


@given(WORDS, WORDS)
def test_matching_runs_are_equal_word_runs(hyp, ref):
    for h, r, n in matching_runs(hyp, ref):
        assert 1 <= n <= MAX_SHIFT_SIZE and hyp[h : h + n] == ref[r : r + n]
