"""bleukit.metrics.chrf.variant: chrF and chrF++ on the engines. Golden values from
sacrebleu 2.6.0 (tests/golden/chrf_sacrebleu.json, make_chrf_golden.py),
an independent by-the-paper implementation on random text, the compiled
engine against the reference engine, and the properties of additive
statistics (sums, order, bounds)."""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleukit
from bleukit.core.errors import ConfigError, InputError
from bleukit.engines import compiled
from bleukit.metrics import load_metric
from bleukit.metrics.chrf.core import ChrfConfig, sum_triples, words
from bleukit.metrics.chrf.variant import ChrfVariant, load_chrf

HERE = Path(__file__).parent
DATA = HERE / "data" / "wmt"
GOLDEN = json.loads((HERE / "golden" / "chrf_sacrebleu.json").read_text(encoding="utf-8"))
ENGINE = os.environ.get("BLEUKIT_ENGINE")
needs_accel = pytest.mark.skipif(
    compiled.accelerator() is None and not os.environ.get("BLEUKIT_REQUIRE_ACCEL"),
    reason="bleukit._accel is not built",
)
EXAMPLES = int(os.environ.get("BLEUKIT_EXAMPLES", 100))


def lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8")[:-1].split("\n")


def variant_of(name: str, engine: str | None = ENGINE) -> ChrfVariant:
    kwargs = GOLDEN["meta"]["configs"][name]
    base = "chrF" if kwargs.get("word_order", 0) == 0 else "chrF++"
    return load_chrf(base, engine=engine, **kwargs)


@pytest.mark.parametrize("case", GOLDEN["corpus"], ids=lambda c: f"{c['hyp']}-{c['config']}")
def test_corpus_scores_equal_sacrebleu(case):
    refs = [lines(r) for r in case["refs"]]
    score = variant_of(case["config"]).corpus_score(lines(case["hyp"]), refs).score
    assert abs(score - case["score"]) < 1e-9


@pytest.mark.parametrize("case", GOLDEN["sentence"], ids=lambda c: f"{c['hyp']}-{c['config']}")
def test_sentence_scores_equal_sacrebleu(case):
    refs = [lines(r) for r in case["refs"]]
    results = variant_of(case["config"]).sentence_scores(lines(case["hyp"]), refs)
    assert len(results) == len(case["scores"])
    worst = max(abs(r.score - s) for r, s in zip(results, case["scores"]))
    assert worst < 1e-9


def test_golden_covers_every_test_set_and_option():
    assert {c["hyp"].split(".hyp.")[0] for c in GOLDEN["corpus"]} == {
        "newstest2021.en-de", "newstest2021.en-cs", "newstest2021.en-zh", "generaltest2022.en-ja",
    }  # fmt: skip
    assert max(len(c["refs"]) for c in GOLDEN["corpus"]) == 3
    assert len(GOLDEN["meta"]["configs"]) == 8


# -------------------------------------------- by the paper, on random text

ALPHABET = st.sampled_from(
    [*"abcAB.,!?()'-", " ", " ", "\t", "\xa0", "\u3000", "\n", *"ΣσİßÉé猫ねこ😀", "\x85"]
)
SEGMENT = st.lists(ALPHABET, max_size=25).map("".join)


def naive_chrf(hyps, refs, c: ChrfConfig) -> float:
    """chrF written from Popović (2015, 2017) and sacrebleu's documented
    choices, on Counters: the test's own oracle."""

    def grams(text: str) -> list[Counter]:
        text = text.lower() if c.lowercase else text
        chars = text if c.whitespace else "".join(text.split())
        out = [Counter(chars[i : i + n] for i in range(len(chars) - n + 1))
               for n in range(1, c.char_order + 1)]  # fmt: skip
        ws = words(text)
        out += [Counter(tuple(ws[i : i + n]) for i in range(len(ws) - n + 1))
                for n in range(1, c.word_order + 1)]  # fmt: skip
        return out

    total = [0] * (3 * c.order)
    for i, hyp in enumerate(hyps):
        h = grams(hyp)
        best, best_f = None, -1.0
        for stream in refs:
            if stream[i] is None:
                continue
            stats = []
            for hc, rc in zip(h, grams(stream[i])):
                stats += [sum(hc.values()) if rc else 0, sum(rc.values()), sum((hc & rc).values())]
            f = bleukit.metrics.chrf.core.f_score(stats, c.order, c.beta, c.eps_smoothing)
            if f > best_f:
                best, best_f = stats, f
        total = [a + b for a, b in zip(total, best)]
    return bleukit.metrics.chrf.core.f_score(total, c.order, c.beta, c.eps_smoothing)


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 4))
    nrefs = draw(st.integers(1, 3))
    hyps = draw(st.lists(SEGMENT, min_size=n, max_size=n))
    refs = [draw(st.lists(st.one_of(SEGMENT, SEGMENT, st.none()), min_size=n, max_size=n))
            for _ in range(nrefs)]  # fmt: skip
    for i in range(n):
        if all(r[i] is None for r in refs):
            refs[0][i] = draw(SEGMENT)
    return hyps, refs


configs = st.fixed_dictionaries(
    {
        "char_order": st.integers(0, 8),
        "word_order": st.integers(1, 3),
        "beta": st.integers(0, 4),
        "lowercase": st.booleans(),
        "whitespace": st.booleans(),
        "eps_smoothing": st.booleans(),
    }
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, corpora())
def test_equals_the_paper_on_random_text(over, corpus):
    hyps, refs = corpus
    v = load_chrf("chrF", engine=ENGINE, **over)
    assert v.corpus_score(hyps, refs).score == naive_chrf(hyps, refs, v.config)


@needs_accel
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, corpora())
def test_compiled_engine_equals_python(over, corpus):
    hyps, refs = corpus
    c = load_chrf("chrF", engine="c", **over)
    py = load_chrf("chrF", engine="python", **over)
    assert (c.engine.name, py.engine.name) == ("c", "python")
    assert c.segment_stats(hyps, refs) == py.segment_stats(hyps, refs)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs, corpora(), st.randoms(use_true_random=False))
def test_statistics_are_additive_and_order_free(over, corpus, rnd):
    hyps, refs = corpus
    v = load_chrf("chrF", engine=ENGINE, **over)
    segments, _ = v.segment_stats(hyps, refs)
    total, _ = v.corpus_stats(hyps, refs)
    assert total == sum_triples(segments, v.config.order)
    cut = rnd.randint(0, len(hyps))
    parts = [v.corpus_stats(hyps[a:b], [r[a:b] for r in refs])[0] if a < b else None
             for a, b in ((0, cut), (cut, len(hyps)))]  # fmt: skip
    assert sum_triples([p for p in parts if p is not None], v.config.order) == total
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    shuffled = v.corpus_stats([hyps[i] for i in order], [[r[i] for i in order] for r in refs])
    assert shuffled[0] == total
    score = v.score_stats(total, 1).score
    assert 0.0 <= score <= 100.0 + 1e-9
    for result, seg in zip(v.sentence_scores(hyps, refs), segments):
        assert result.stats == seg and 0.0 <= result.score <= 100.0 + 1e-9


def test_identical_text_scores_100_and_disjoint_text_0():
    v = load_chrf("chrF++", engine=ENGINE)
    assert v.sentence_score("Der Hund bellt.", ["Der Hund bellt."]).score == 100.0
    assert v.sentence_score("xyz", ["abc"]).score == 0.0


def test_whitespace_is_counted_raw_when_asked():
    # sacrebleu keeps every whitespace character (not stripped, not
    # collapsed) when whitespace=True
    v = load_chrf("chrF", engine=ENGINE, whitespace=True, char_order=1)
    (stats,), _ = v.segment_stats(["a  b "], [["a b"]])
    assert stats == (5, 3, 3)


def test_missing_references_and_nrefs():
    v = load_chrf("chrF", engine=ENGINE)
    result = v.corpus_score(["a b", "c d"], [["a b", "c d"], ["a c", None]])
    assert result.score == 100.0
    assert result.signature is not None and result.signature.nrefs == "var"
    prepared = v.prepare_references([["a b"], ["x"]])
    assert v.corpus_score(["a b"], prepared).signature.nrefs == 2


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        ([], [[]], "empty"),
        (["a"], [["a", "b"]], "2 segments but there are 1"),
        (["a"], [[None]], "no reference"),
        (["a", 3], [["a", "b"]], "hypothesis 2 is int"),
        ("abc", [["a"]], "list of strings"),
    ],
)
def test_bad_input_is_one_clear_error(hyps, refs, message):
    with pytest.raises(InputError, match=message):
        load_chrf("chrF", engine=ENGINE).corpus_score(hyps, refs)


def test_prepared_references_belong_to_their_variant():
    prepared = load_chrf("chrF").prepare_references([["a"]])
    with pytest.raises(InputError, match="another chrF variant"):
        load_chrf("chrF++").corpus_score(["a"], prepared)


def test_loading_by_name_file_and_overrides(tmp_path):
    assert isinstance(load_metric("chrF"), ChrfVariant)
    assert isinstance(load_metric("BLEUw4"), bleukit.Variant)
    path = tmp_path / "mine.yaml"
    path.write_text("extends: chrF++\nbeta: 1\n", encoding="utf-8")
    mine = load_chrf(str(path))
    assert (mine.name, mine.config.beta, mine.config.word_order) == ("mine", 1, 2)
    assert load_chrf("chrF[beta=3]").config.beta == 3
    assert load_chrf("chrF").with_overrides(word_order=2).name == "chrF[word_order=2]"
    with pytest.raises(ConfigError, match="a BLEU variant"):
        load_chrf("BLEUw4")
    with pytest.raises(ConfigError, match=r"TER: a TER variant \(ter.v1\), not a chrF one"):
        load_chrf("TER")
    with pytest.raises(ConfigError, match="not a BLEU one"):
        bleukit.load_variant("chrF")
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: chrF\nmetric: ter.v9\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="key 'metric'"):
        load_metric(str(bad))


def test_result_forms():
    r = load_chrf("chrF++").corpus_score(["the cat"], [["the cat"]])
    assert r.format(1) == "chrF2++ = 100.0" and str(r) == "chrF2++ = 100.00"
    d = r.to_dict()
    assert d["metric"] == "chrF2++" and len(d["stats"]) == 8
    assert d["signature"].startswith("bleukit|metric:chrf.v1") and math.isclose(d["score"], 100)
    assert "ChrfVariant('chrF++', 'bk|m:chrf.v1" in repr(load_chrf("chrF++"))
