"""bleukit/analysis/profile.py: every analysis of several systems against
the first, from their statistics and token counts."""

from __future__ import annotations

from collections import Counter

import pytest

import bleukit
from bleukit.analysis import buckets as b
from bleukit.analysis import profile
from bleukit.core.errors import InputError


def test_buckets_scores_and_counts_cover_every_segment(analysis_case):
    bleu, chrf = bleukit.load_metric("BLEUw4"), bleukit.load_metric("chrF")
    a = analysis_case.run([bleu, chrf])
    assert [x.variant for x in a.by_length] == ["BLEUw4", "chrF"]
    for buckets in (*a.by_length, *a.by_ratio):
        assert all(sum(c) == len(analysis_case.refs) for c in buckets.counts)
    # every segment's reference has fewer than 10 words: one bucket, the corpus
    for buckets, v in zip(a.by_length, (bleu, chrf)):
        assert buckets.counts[0][0] == 4
        assert buckets.scores[1][0] == pytest.approx(
            v.corpus_score(analysis_case.good, [analysis_case.refs]).score, abs=1e-9
        )


def test_pairs_are_against_the_baseline_with_smoothed_sentence_scores(analysis_case):
    bleu = bleukit.load_metric("BLEUw4")
    a = analysis_case.run([bleu], top=2)
    assert a.sentence_variant == "BLEUw4[effective_order=True,smoothing=exp.v1]"
    assert "smooth:exp.v1|eff:yes" in a.sentence_signature
    (pair,) = a.pairs
    assert (pair.system, pair.baseline) == ("good", "base")
    sentence = bleu.sentence_variant()
    c = analysis_case
    diffs = [sentence.sentence_score(g, [r]).score - sentence.sentence_score(h, [r]).score
             for g, h, r in zip(c.good, c.base, c.refs)]  # fmt: skip
    assert sum(pair.counts) == len(analysis_case.refs)
    assert [i for i, _ in pair.ahead] == sorted((i for i in range(4) if diffs[i] > 0),
                                               key=lambda i: -diffs[i])[:2]  # fmt: skip
    assert [i for i, _ in pair.behind] == [3] and pair.behind[0][1] == pytest.approx(diffs[3])
    assert all(w.salience > 0.5 for w in pair.wins) and all(w.salience < 0.5 for w in pair.losses)
    # base's only lead is "e f" at the end of the last segment
    assert len(pair.wins) == 2 and all({"e", "f"} & set(w.ngram) for w in pair.losses)
    d = a.to_dict()
    assert d["pairs"][0]["ahead"][0]["segment"] == pair.ahead[0][0] + 1
    assert d["pairs"][0]["differences"]["buckets"][5] == "[-0.5,0.5)"


def test_lower_is_better_metrics_count_better_as_positive(analysis_case):
    ter = bleukit.load_metric("TER")
    a = analysis_case.run([ter])
    assert a.sentence_variant == "TER"  # its sentence scores need no smoothing
    (pair,) = a.pairs
    # good has fewer edits than base on its first three segments
    assert {i for i, _ in pair.ahead} == {0, 1, 2} and all(d > 0 for _, d in pair.ahead)


def test_training_frequencies_move_words_between_buckets(analysis_case):
    bleu = bleukit.load_metric("BLEUw4")
    from_refs = analysis_case.run([bleu]).words
    train = Counter({w: 1000 for w in "the cat sat on mat".split()})
    from_train = analysis_case.run([bleu], frequencies=train).words
    assert from_refs.ref_totals != from_train.ref_totals
    assert sum(from_refs.ref_totals) == sum(from_train.ref_totals)
    assert from_train.ref_totals[-1] == 6  # the cat sat on the mat


def test_files_words_and_training_corpus(analysis_case, tmp_path):
    paths = {}
    for name, lines in (
        ("ref", analysis_case.refs),
        ("base", analysis_case.base),
        ("good", analysis_case.good),
        ("train", analysis_case.refs * 3),
    ):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    bleu = bleukit.load_metric("BLEUw4")
    args = (
        [bleu],
        [str(paths["ref"])],
        [str(paths["base"]), str(paths["good"])],
        analysis_case.names,
    )
    a, stats = profile.analyze_files(*args, words="compare-mt", train=str(paths["train"]))
    assert a.tokens == "compare-mt's (lines split on spaces)"
    assert a.frequencies == f"training corpus {paths['train']}"
    systems = [
        (n, [h.split(" ") for h in s])
        for n, s in zip(analysis_case.names, (analysis_case.base, analysis_case.good))
    ]
    train = b.word_frequencies([r.split(" ") for r in analysis_case.refs * 3])
    expected = b.word_accuracy([r.split(" ") for r in analysis_case.refs], systems, train)
    assert a.words == expected and stats.segments == 4
    with pytest.raises(InputError, match="words: 'spaces' is not one of variant, compare-mt"):
        profile.analyze_files(*args, words="spaces")


def test_compare_mt_examples_skip_repeats_and_order_ties_by_score():
    """compare-mt's examples: a repeated (baseline, system, reference) is
    left out; rows sorted by (difference, baseline, system, position), the
    first ``count`` behind, the last ``count`` ahead (furthest first)."""
    from bleukit.analysis.profile import SegmentKeys, compare_mt_examples

    base = [10.0, 20.0, 10.0, 30.0, 15.0, 10.0]
    system = [15.0, 15.0, 15.0, 35.0, 15.0, 40.0]
    keys = ["a", "b", "a", "c", "d", "e"]  # segment 2 repeats segment 0
    ahead, behind = compare_mt_examples(base, system, keys, 2)
    # differences: +5 (0), -5 (1), +5 (3, baseline 30), 0 (4), +30 (5)
    assert ahead == [5, 3] and behind == [1, 4]
    assert compare_mt_examples(base, system, keys, 0) == ([], [])
    digests = SegmentKeys(2)
    digests.add([" r ", "r"], [["x", " x"], ["y", "y "]])
    first, second = digests.pair(0, 1)
    assert first == second  # stripped lines: the same words
    other = SegmentKeys(2)
    other.add(["r"], [["x  y"], ["y"]])
    assert other.pair(0, 1)[0] != first
