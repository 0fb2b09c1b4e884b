"""TER's building blocks (bleukit.metrics.ter): Tercom's normalization and
the edit count with shifts equal sacrebleu 2.6.0's on WMT data
(tests/golden/ter_sacrebleu.json, from tests/golden/make_ter_golden.py;
tests_oracle/test_live_ter.py compares them live on generated text), and
hold the properties an edit count must."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bleukit
from bleukit.core.edits import (
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


def test_the_distance_keeps_only_each_rows_beam():
    """Memory linear in the segment's length: a row holds its beam's cells
    (about twice Tercom's beam width), not one per reference word; only the
    first and last rows are whole (sacrebleu keeps every row whole: a
    segment of 50,000 words would need some 20 GB)."""
    ref = [str(k % 7) for k in range(2000)]
    hyp = [str(k % 5) for k in range(1800)]
    distance = BeamDistance(ref, len(hyp))
    count, trace = distance(hyp, base=True)
    rows = distance._rows
    assert len(rows) == len(hyp) + 1 and len(trace) >= len(ref)
    assert max(len(cells) for _, cells in rows[1:-1]) <= 2 * distance.beam
    assert len(rows[0][1]) == len(rows[-1][1]) + rows[-1][0] == len(ref) + 1
    assert count == edit_count([], []) + sum(op != " " for op in trace)


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


# ------------------------------------------------------------ the metric

TOL = 1e-9


def _variant(flags):
    keys = ("normalized", "no_punct", "asian_support", "case_sensitive")
    return bleukit.load_metric("TER", **dict(zip(keys, flags)))


@pytest.mark.golden
@pytest.mark.parametrize("case", GOLDEN["cases"][:10], ids=lambda c: f"{c['set']}-{c['setting']}")
def test_corpus_scores_equal_sacrebleu(case):
    ter = _variant(case["flags"])
    hyps = _lines(f"{case['set']}.hyp.{case['system']}.txt")
    refs = _lines(f"{case['set']}.ref.A.txt")
    result = ter.corpus_score(hyps, [refs])
    assert result.score == pytest.approx(case["corpus_score"], abs=TOL, rel=0)
    assert (result.num_edits, result.ref_length) == (sum(case["edits"]), sum(case["ref_lengths"]))


@pytest.mark.golden
def test_several_references_and_sentence_scores_equal_sacrebleu():
    multi = GOLDEN["multi"]
    hyps = _lines(f"{multi['set']}.hyp.{multi['system']}.txt")
    streams = [_lines(f"{multi['set']}.ref.{r}.txt") for r in multi["references"]]
    streams[1] = [None if i % 4 == 0 else r for i, r in enumerate(streams[1])]
    ter = bleukit.load_metric("TER")
    result = ter.corpus_score(hyps, streams)
    assert result.score == pytest.approx(multi["corpus_score"], abs=TOL, rel=0)
    assert result.signature.nrefs == "var"
    sentences = [r.score for r in ter.sentence_scores(hyps, streams)]
    assert sentences == pytest.approx(multi["sentence_scores"], abs=TOL, rel=0)
    # partials of any split sum to the corpus statistics, exactly
    parts = [
        ter.partial(hyps[i : i + 40], [s[i : i + 40] for s in streams]) for i in (0, 40, 80, 120)
    ]
    assert ter.score(sum(parts[1:], parts[0])).score == result.score


def test_ter_is_a_metric_where_lower_is_better():
    ter = bleukit.load_metric("TER")
    assert not ter.higher_is_better and ter.score_name == "TER"
    perfect = ter.sentence_score("the cat sat", ["the cat sat"])
    assert perfect.score == 0.0 and perfect.num_edits == 0
    # an empty reference: every hypothesis word is an edit (sacrebleu: 100)
    assert ter.sentence_score("a b", [""]).score == 100.0
    assert ter.sentence_score("", [""]).score == 0.0
    with pytest.raises(bleukit.InputError, match="no order to change"):
        ter.with_order(2)


def test_the_signature_states_every_option_and_parses_back():
    from bleukit.metrics import parse_any_signature

    ter = bleukit.load_metric("TER", normalized=True, case_sensitive=True)
    sig = ter.signature(2)
    assert sig.long.startswith("bleukit|metric:ter.v1|norm:yes|punct:yes|asian:no|case:mixed|")
    assert (
        sig.sacrebleu == "nrefs:2|case:mixed|tok:tercom|norm:yes|punct:yes|asian:no|version:2.6.0"
    )
    for text in (sig.long, sig.short):
        again = parse_any_signature(text)
        fields = {k: v for k, v in again.config.as_dict().items() if k not in ("name", "metric")}
        assert bleukit.load_metric("TER", **fields).fingerprint == ter.fingerprint
        assert again.nrefs == 2
    assert bleukit.load_metric("TER").fingerprint != ter.fingerprint


def test_references_are_normalized_twice_as_sacrebleu_does():
    """sacrebleu 2.6.0 normalizes references twice (a quirk kept): with
    Tercom's rules, "the's" before a no-break space splits on the second
    pass; hypotheses are normalized once."""
    ter = bleukit.load_metric("TER", normalized=True)
    line = "the's\xa0the"
    assert ter.normalizer.words(line) == ["the's", "the"]
    assert ter.normalizer.reference_words(line) == ["the", "'s", "the"]
    # sacrebleu: TER(normalized=True).corpus_score([""], [[""], [line]]).ref_length == 1.5
    assert ter.corpus_score([""], [[""], [line]]).ref_length == Fraction(3, 2)
