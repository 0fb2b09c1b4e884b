"""bleukit/analysis/buckets.py against compare-mt 0.2.10 itself, on WMT21
en-de (tests/data/wmt, reference A, UEdin against Facebook-AI), read as
compare-mt reads files (``compare_mt_words``). Opt-in: ``tox -e comparemt``
(compare-mt pulls in matplotlib, nltk and absl: too heavy for every run).

What compare-mt computes, and where it is reproduced:
- word F-measure by frequency bucket (frequencies from the reference, and
  from a training corpus): every count and measure, exactly;
- n-gram matches and their salience (compare_type=match, alpha=1): exactly;
  its ranking leaves ties in hash order, so bleukit breaks them itself;
- sentence buckets by reference length and by length difference: the
  counts exactly, and each bucket's BLEU (compare-mt's ``bleu`` scorer)
  exactly from ``nltk[smoothing=none.v1]`` on compare-mt's own tokens (token
  ids: a double space makes an empty word there). Its scorer differs from
  NLTK only where an order has no match in a whole bucket (it then takes
  that order's precision as 1); no bucket here has one, which is checked.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import bleukit
from bleukit.analysis import buckets as b
from bleukit.metrics.inputs import tokens_as_text

cm = pytest.importorskip("compare_mt", reason="tox -e comparemt installs compare-mt 0.2.10")
from compare_mt import (  # noqa: E402
    bucketers,
    compare_mt_main,
    corpus_utils,
    ngram_utils,
    reporters,
    scorers,
    stat_utils,
)

D = Path(__file__).resolve().parents[1] / "tests" / "data" / "wmt"
SET = "newstest2021.en-de"


def theirs(name: str) -> list[list[str]]:
    return corpus_utils.load_tokens(str(D / f"{SET}.{name}.txt"))


def ours(name: str) -> list[list[str]]:
    text = (D / f"{SET}.{name}.txt").read_text("utf-8")
    return [b.compare_mt_words(line) for line in text.split("\n")[:-1]]


REF = theirs("ref.A")
OUTS = [theirs("hyp.UEdin"), theirs("hyp.Facebook-AI")]


def test_words_are_read_as_compare_mt_reads_them():
    assert ours("ref.A") == REF and ours("hyp.UEdin") == OUTS[0]
    assert any("" in words for words in REF)  # the double space: an empty word


@pytest.mark.parametrize("train", [None, "ref.C"])
def test_word_accuracy_by_frequency(train):
    freq_data = theirs(train) if train else REF
    bucketer = bucketers.FreqWordBucketer(freq_data=freq_data)
    stats, *_ = bucketer.calc_statistics(REF, OUTS)
    mine = b.word_accuracy(REF, [("a", OUTS[0]), ("b", OUTS[1])], b.word_frequencies(freq_data))
    assert list(mine.labels) == bucketer.bucket_strs
    for k in range(2):
        for i in range(len(mine.labels)):
            match, ref, out, rec, prec, fmeas = stats[k][i]
            assert (mine.matches[k][i], mine.ref_totals[i], mine.hyp_totals[k][i]) == (
                match, ref, out)  # fmt: skip
            assert mine.measures(k, i) == (rec, prec, fmeas)


def test_ngram_matches_and_salience():
    _, match_a, _, _ = ngram_utils.compare_ngrams(REF, OUTS[0])
    _, match_b, _, _ = ngram_utils.compare_ngrams(REF, OUTS[1])
    assert b.matched_ngrams(REF, OUTS[0]) == Counter({k: v for k, v in match_a.items() if v})
    salience = stat_utils.extract_salient_features(match_a, match_b)
    wins = b.ngram_wins(REF, OUTS[0], OUTS[1])
    expected = {k: v for k, v in salience.items() if match_a[k] or match_b[k]}
    assert {w.ngram: w.salience for w in wins} == expected
    assert [w.salience for w in wins] == sorted(expected.values(), reverse=True)


@pytest.mark.parametrize("kind", ["length", "lengthdiff"])
def test_sentence_bucket_counts_and_bleu(kind):
    bucketer = bucketers.create_sentence_bucketer_from_profile(kind)
    scorer = scorers.create_scorer_from_profile("bleu")
    metric = bleukit.load_metric("nltk", smoothing="none.v1").for_token_ids()
    vocabulary: dict[str, int] = {}
    refs = [[tokens_as_text(r, vocabulary, "ref") for r in REF]]
    prepared = metric.prepare_references(refs)
    for out in OUTS:
        corpus = bucketer.create_bucketed_corpus(out, ref=REF)
        if kind == "length":
            values, cutoffs = b.reference_lengths(REF), b.LENGTH_CUTOFFS
        else:
            values, cutoffs = b.length_differences(out, REF), b.LENGTH_DIFF_CUTOFFS
        segs, _ = metric.segment_stats(
            [tokens_as_text(h, vocabulary, "hyp") for h in out], prepared
        )
        mine = b.sentence_buckets(metric, [("s", segs)], 1, [values], cutoffs, kind)
        assert list(mine.labels) == bucketer.bucket_strs
        assert list(mine.counts[0]) == [len(bucket[0]) for bucket in corpus]
        for score, (hyps, refs_, _) in zip(mine.scores[0], corpus):
            if not hyps:
                assert score is None
                continue
            stats = scorer.cache_stats(refs_, hyps)
            # compare-mt's scorer and NLTK's part where an order never matches
            assert all(sum(s[2][n][0] for s in stats) > 0 for n in range(4))
            assert score == pytest.approx(scorer.score_corpus(refs_, hyps)[0], abs=1e-9, rel=0)


def test_the_analyze_command_gives_compare_mts_numbers(capsys):
    """``bleukit analyze --words compare-mt`` itself, on the compiled engine
    where it is built (the C match counts): word accuracy, the n-gram wins'
    salience and the reference-length bucket counts are compare-mt's."""
    from bleukit.cli import main

    paths = [str(D / f"{SET}.{name}.txt") for name in ("ref.A", "hyp.Facebook-AI", "hyp.UEdin")]
    assert main(["analyze", "-r", paths[0], "-i", *paths[1:], "--words", "compare-mt",
                 "-f", "json"]) == 0  # fmt: skip
    a = json.loads(capsys.readouterr().out)
    base, system = theirs("hyp.Facebook-AI"), theirs("hyp.UEdin")

    bucketer = bucketers.FreqWordBucketer(freq_data=REF)
    stats, *_ = bucketer.calc_statistics(REF, [base, system])
    words = a["word_accuracy"]
    for k, mine in enumerate(words["systems"]):
        for i in range(len(words["buckets"])):
            match, ref, out, rec, prec, fmeas = stats[k][i]
            assert (mine["matches"][i], words["ref_words"][i], mine["hyp_words"][i]) == (
                match, ref, out)  # fmt: skip
            assert (mine["recall"][i], mine["precision"][i], mine["f_measure"][i]) == (
                rec, prec, fmeas)  # fmt: skip

    _, match_system, _, _ = ngram_utils.compare_ngrams(REF, system)
    _, match_base, _, _ = ngram_utils.compare_ngrams(REF, base)
    salience = stat_utils.extract_salient_features(match_system, match_base)
    expected = {" ".join(k): v for k, v in salience.items() if match_system[k] or match_base[k]}
    (pair,) = a["pairs"]
    assert pair["wins"] and pair["losses"]
    for w in pair["wins"] + pair["losses"]:
        assert w["salience"] == expected[w["ngram"]]
    ranked = sorted(expected.values(), reverse=True)
    assert [w["salience"] for w in pair["wins"]] == ranked[: len(pair["wins"])]
    assert [w["salience"] for w in pair["losses"]] == sorted(ranked)[: len(pair["losses"])]

    lengths = bucketers.create_sentence_bucketer_from_profile("length")
    for row, out in zip(a["by_reference_length"][0]["systems"], [base, system]):
        corpus = lengths.create_bucketed_corpus(out, ref=REF)
        assert row["counts"] == [len(bucket[0]) for bucket in corpus]


@pytest.mark.parametrize(
    ("pair", "systems"),
    [
        ("newstest2021.en-de", ("Facebook-AI", "UEdin")),
        ("newstest2021.en-zh", ("NiuTrans", "WeChat-AI")),
    ],
)
def test_every_table_of_compare_mts_default_report(pair, systems, capsys):
    """``analyze --words compare-mt`` (its BLEU, variant compare-mt, by
    default) against compare-mt's default report, table by table: the
    aggregate BLEU and length ratio, BLEU and counts by reference length,
    counts by length difference and by sentence BLEU (NLTK method 2), word
    accuracy; on en-de and on en-zh (whose U+3000 and double spaces
    compare-mt's words keep)."""
    from bleukit.cli import main

    paths = [str(D / f"{pair}.{name}.txt") for name in ("ref.A", *(f"hyp.{s}" for s in systems))]
    assert main(["analyze", "-r", paths[0], "-i", *paths[1:], "--words", "compare-mt",
                 "-f", "json"]) == 0  # fmt: skip
    a = json.loads(capsys.readouterr().out)
    ref = corpus_utils.load_tokens(paths[0])
    outs = [corpus_utils.load_tokens(p) for p in paths[1:]]
    bleu, length = (scorers.create_scorer_from_profile(s) for s in ("bleu", "length"))
    for row, out in zip(a["aggregate"], outs):
        assert row["scores"]["compare-mt"] == pytest.approx(bleu.score_corpus(ref, out)[0],
                                                            abs=1e-12, rel=0)  # fmt: skip
        assert row["length_ratio"] == length.score_corpus(ref, out)[0]
    checked = 0
    for kind, key, score in (("length", "by_reference_length", True),
                             ("lengthdiff", "by_length_difference", False)):  # fmt: skip
        bucketer = bucketers.create_sentence_bucketer_from_profile(kind)
        table = a[key][0] if score else a[key]
        assert table["buckets"] == bucketer.bucket_strs
        for mine, out in zip(table["systems"], outs):
            corpus = bucketer.create_bucketed_corpus(out, ref=ref)
            assert mine["counts"] == [len(bucket[0]) for bucket in corpus]
            if score:
                for value, (hyps, refs, _) in zip(mine["scores"], corpus):
                    if not hyps:
                        assert value is None
                        continue
                    assert value == pytest.approx(bleu.score_corpus(refs, hyps)[0], abs=1e-12,
                                                  rel=0)  # fmt: skip
                    checked += 1
    assert checked
    sentbleu = bucketers.create_sentence_bucketer_from_profile("score", score_type="sentbleu")
    assert a["by_sentence_score"]["buckets"] == sentbleu.bucket_strs
    for mine, out in zip(a["by_sentence_score"]["systems"], outs):
        corpus = sentbleu.create_bucketed_corpus(out, ref=ref)
        assert mine["counts"] == [len(bucket[0]) for bucket in corpus]
    words = bucketers.FreqWordBucketer(freq_data=ref)
    stats, *_ = words.calc_statistics(ref, outs)
    for k, mine in enumerate(a["word_accuracy"]["systems"]):
        assert mine["f_measure"] == [stats[k][i][5] for i in range(len(stats[k]))]
    reporters.sys_names = list(systems)  # its report prints them
    ranked = compare_mt_main.generate_sentence_examples(ref, outs).scorediff_lists[0]
    (pair,) = a["pairs"]
    assert [r["segment"] - 1 for r in pair["behind"]] == [row[5] for row in ranked[:10]]
    assert [r["segment"] - 1 for r in pair["ahead"]] == [row[5] for row in ranked[-10:][::-1]]
    for r in pair["ahead"]:
        row = next(x for x in ranked if x[5] == r["segment"] - 1)
        assert r["difference"] == pytest.approx(row[0], abs=1e-12, rel=0)
