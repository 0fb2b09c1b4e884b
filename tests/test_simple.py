"""bleukit.metrics.simple: the Metric interface written once over four
methods, on a metric written here (exact match: the share of segments equal
to one of their references)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bleukit.config.model import ConfigFields
from bleukit.core.errors import InputError
from bleukit.metrics.eed.core import EedSignature
from bleukit.metrics.simple import SimpleMetric


@dataclass(frozen=True, kw_only=True)
class MatchConfig(ConfigFields):
    name: str | None = "match"
    description: str = ""
    metric: str = "eed.v1"  # borrowed: the signature only needs a form
    language: str = "en"
    alpha: float = 2.0
    rho: float = 0.3
    deletion: float = 0.2
    insertion: float = 1.0
    score_name = "EM"


@dataclass(frozen=True)
class Result:
    score: float
    stats: tuple[int, ...]
    signature: object


class ExactMatch(SimpleMetric):
    family = "EM"
    width = 2
    stats_description = "(matches, segments)"
    signature_type = EedSignature

    def prepare(self, line):
        return line.strip()

    def segment(self, hyp, refs):
        if hyp == "boom":
            raise ZeroDivisionError("a segment the metric cannot score")
        return (int(hyp in refs), 1)

    def score_of(self, stats):
        return 100 * stats[0] / stats[1] if stats[1] else 0.0

    def result(self, score, stats, signature):
        return Result(score, stats, signature)


@pytest.fixture
def em():
    return ExactMatch(MatchConfig())


def test_corpus_sentence_and_partial_statistics_come_from_four_methods(em):
    hyps, refs = ["a ", "b", "c"], [["a", "x", "c"], ["q", "b", None]]
    assert em.corpus_score(hyps, refs).score == 100.0
    assert [r.score for r in em.sentence_scores(hyps, refs)] == [100.0, 100.0, 100.0]
    assert em.corpus_score(["z", "b"], [["a", "x"]]).stats == (0, 2)
    stats, nrefs = em.segment_stats(hyps, refs)
    assert em.sum_stats(stats) == (3, 3) and nrefs == "var"
    assert em.order == 0 and em.score_name == "EM"


def test_prepared_references_are_reused_and_refused_by_another_variant(em):
    prepared = em.prepare_references([["a", "b"]])
    assert em.corpus_stats(["a", "c"], prepared)[0] == (1, 2)
    other = ExactMatch(MatchConfig(alpha=3.0))
    with pytest.raises(InputError, match="prepared by another EM variant"):
        other.corpus_stats(["a", "b"], prepared)


def test_bad_partials_and_arithmetic_errors_are_one_line(em):
    em.check_stats((1, 2))
    for bad in ((1,), (1, -1), (True, 1), [1, 2]):
        with pytest.raises(InputError, match=r"keeps \(matches, segments\), 2 non-negative"):
            em.check_stats(bad)
    with pytest.raises(InputError, match="^match: segment 2: a segment the metric cannot score$"):
        em.corpus_score(["a", "boom"], [["a", "b"]])
    with pytest.raises(InputError, match="EM has no n-gram order"):
        em.with_order(2)
