"""The Python API: scoring, input checks, prepared references, overrides."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import ConfigError, InputError
from bleukit.engines import ENGINES

HYPS = ["the cat sat on the mat", "a dog barked loudly"]
REFS = [["the cat sat on a mat", "the dog barked loudly"], ["a cat sat on the mat", None]]


def test_corpus_score_with_variable_reference_counts():
    r = bleukit.load_variant("sacrebleu").corpus_score(HYPS, REFS)
    assert 0 < r.score < 100
    assert r.signature.nrefs == "var"
    assert "nrefs:var" in r.signature.long


def test_sentence_score_equals_one_segment_corpus():
    v = bleukit.load_variant("sacrebleu", effective_order=True)
    a = v.sentence_score(HYPS[0], [REFS[0][0], REFS[1][0]])
    b = v.corpus_score([HYPS[0]], [[REFS[0][0]], [REFS[1][0]]])
    assert a.score == b.score and a.counts == b.counts


def test_sentence_scores_match_sentence_score():
    v = bleukit.load_variant("sacrebleu", effective_order=True)
    batch = v.sentence_scores(HYPS, REFS)
    singles = [
        v.sentence_score(h, [r for r in refs if r is not None]) for h, refs in zip(HYPS, zip(*REFS))
    ]
    assert [r.score for r in batch] == [r.score for r in singles]
    assert batch[1].signature.nrefs == 1


def test_prepared_references_are_reusable_and_checked():
    v = bleukit.load_variant("BLEUw4")
    prepared = v.prepare_references(REFS)
    assert v.corpus_score(HYPS, prepared).score == v.corpus_score(HYPS, REFS).score
    # a variant with the same tokenization and order may share them ...
    assert bleukit.load_variant("sacrebleu").corpus_score(HYPS, prepared).score > 0
    # ... one with another tokenization may not
    with pytest.raises(InputError, match="another tokenization"):
        bleukit.load_variant("BLEUc18").corpus_score(HYPS, prepared)


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (HYPS, [["only one"]], "the references have 1 segments but there are 2 hypotheses"),
        (HYPS, [REFS[0], REFS[1][:1]], "stream 1 has 2, stream 2 has 1"),
        (HYPS, [[None, "x"]], "segment 1 has no reference"),
        ("a string", REFS, "hypotheses must be a list of strings"),
        (HYPS, "a string", "ref_streams"),
        (HYPS, [], "no reference stream"),
        ([None, "x"], REFS, "hypothesis 1 is NoneType"),
        ([], [[]], "no segments to score"),
        (HYPS, [[1, "x"]], "a reference of segment 1 is int"),
    ],
)
def test_bad_input_is_a_clear_error(hyps, refs, message):
    with pytest.raises(InputError, match=message):
        bleukit.load_variant("BLEUw4").corpus_score(hyps, refs)


def test_identical_text_scores_100_under_every_builtin_variant():
    for name in ["BLEUw4", "BLEUc18", "sacrebleu", "nist", "multi-bleu", "nltk"]:
        v = bleukit.load_variant(name)
        line = "Ein ganz gewöhnlicher Satz, mit Komma und genug Wörtern für achtzehn Zeichen."
        assert v.corpus_score([line], [[line]]).score == pytest.approx(100.0), name


def test_with_overrides_revalidates():
    v = bleukit.load_variant("BLEUw4")
    assert v.with_overrides(max_order=2).config.max_order == 2
    assert v.with_overrides(smoothing="floor").config.smoothing_value == 0.1
    with pytest.raises(bleukit.ConfigError, match="max_order"):
        v.with_overrides(max_order=-1)


def test_tokenize_shows_what_is_counted():
    assert bleukit.load_variant("BLEUw4").tokenize("Hi, you.") == ["Hi", ",", "you", "."]
    assert bleukit.load_variant("BLEUc18").tokenize("a b") == "ab"


def test_weights_vector_changes_the_score_as_expected():
    uni = bleukit.load_variant("BLEUw4", max_order=2)
    only_unigrams = bleukit.load_variant("BLEUw4", max_order=2, weights=[1.0, 0.0])
    r1 = only_unigrams.corpus_score(HYPS, REFS)
    assert r1.score == pytest.approx(r1.bp * r1.precisions[0])
    assert uni.corpus_score(HYPS, REFS).score != r1.score


def test_very_long_lines_score():
    words = " ".join(f"w{i % 5000}" for i in range(200_000))
    r = bleukit.load_variant("BLEUw4").corpus_score([words], [[words]])
    assert r.score == pytest.approx(100.0) and r.sys_len == 200_000
    chars = "abcdefghij klmnopqrst " * 1000
    r = bleukit.load_variant("BLEUc18").corpus_score([chars], [[chars[::-1]]])
    assert 0 <= r.score < 100 and r.sys_len == 20_000


def test_streams_from_rows_pad_missing_references_with_none():
    from bleukit.metrics.inputs import streams_from_rows

    rows = [["a", "b"], ["c"], ["d", None, "e"]]
    assert streams_from_rows(rows) == [["a", "c", "d"], ["b", None, None], [None, None, "e"]]
    assert streams_from_rows([]) == []


@pytest.mark.parametrize("name", ["BLEUw4", "BLEUc18", "chrF", "chrF++"])
def test_a_string_as_a_sentences_references_is_refused(name):
    # iterated, "the cat" would be seven one-character references
    v = bleukit.load_metric(name)
    with pytest.raises(InputError, match="references must be a list of strings, not str"):
        v.sentence_score("the cat", "the cat")
    with pytest.raises(TypeError):  # also what Python code expects for a wrong type
        v.sentence_score("the cat", "the cat")
    hyp, ref = "the cat sat on the mat", "the cat sat on a mat"
    assert v.sentence_score(hyp, [ref]).score == v.corpus_score([hyp], [[ref]]).score


BUILT_IN = sorted(p.stem for p in (Path(bleukit.__file__).parent / "variants").glob("*.yaml"))
ENGINE_NAMES = [n for n in ("python", "c") if ENGINES.get(n).unavailable() is None]
SENTENCES = st.lists(
    st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ",", "Katze", "猫", "."]), max_size=9
).map(" ".join)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("name", BUILT_IN)
@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(SENTENCES, SENTENCES, SENTENCES | st.none()), min_size=1, max_size=6))
def test_sentence_values_are_the_sentence_scores_scores(name, engine, rows):
    """``sentence_values`` (BLEU: the engine's batch scorer, no result per
    segment; the rewards and frames APIs call it) gives every built-in
    variant's ``sentence_scores`` scores bit for bit, references missing
    in a stream included."""
    try:
        metric = bleukit.load_metric(name, engine=engine)
    except ConfigError as error:  # compare-mt's splitter: the reference engine only
        pytest.skip(str(error))
    hyps = [h for h, _, _ in rows]
    refs = [[r for _, r, _ in rows], [r for _, _, r in rows]]
    assert metric.sentence_values(hyps, refs) == [
        r.score for r in metric.sentence_scores(hyps, refs)
    ]
