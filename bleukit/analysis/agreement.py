"""How far two BLEU variants agree: the statistics of Denoual & Lepage (2005,
"BLEU in characters"), who compared word 4-gram BLEU with character M-gram
BLEU at sentence and system level.

* Pearson's r between the sentence-level scores of the two variants.
* Cohen's kappa after mapping each score to one of 10 grades (0-0.1, ...,
  0.9-1 on the 0-1 scale; a score of exactly 1 is in the top grade).
* The share of segments where the character score is at most the word score
  of the next lower order, BLEUcM <= BLEUw(N-1) (the paper's "analogical
  behaviour": character BLEU behaves like a word BLEU of lower order). This
  share only grows with M, so to choose M bleukit also reports the share of
  segments where BLEUcM lies between the two word scores,
  BLEUwN <= BLEUcM <= BLEUw(N-1), which has a maximum, and ``--search-order``
  maximises that one.
* System level: Kendall's tau-b between the rankings of the systems by
  corpus score, and the pairs of systems the two variants order differently.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import InputError
from ..corpus.systems import SystemStatistics, collect
from ..io.progress import advance, stage
from ..meta import statistics
from ..metrics.base import AnyMetric
from ..metrics.inputs import RefStreams


def _defined(value: float) -> float | None:
    return None if math.isnan(value) else value


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation coefficient (``meta.statistics.pearson``); None
    when a variance is zero."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("pearson needs two sequences of the same length, at least 2")
    return _defined(statistics.pearson(xs, ys))


def grade(score: float, grades: int = 10) -> int:
    """Grade of a 0-100 score: 0 for [0, 10), ..., 9 for [90, 100]."""
    return min(int(score * grades / 100.0), grades - 1) if score > 0 else 0


def cohen_kappa(a: Sequence[int], b: Sequence[int]) -> float | None:
    """Cohen's kappa of two gradings; None when chance agreement is 1."""
    n = len(a)
    if n != len(b) or n == 0:
        raise ValueError("kappa needs two gradings of the same, non-zero length")
    observed = sum(1 for x, y in zip(a, b) if x == y) / n
    labels = set(a) | set(b)
    expected = sum((a.count(k) / n) * (b.count(k) / n) for k in labels)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def kendall_tau_b(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Kendall's tau-b (``meta.statistics.kendall``); None when one ranking
    is all ties."""
    return _defined(statistics.kendall(xs, ys))


def rank_flips(
    names: Sequence[str], xs: Sequence[float], ys: Sequence[float]
) -> list[tuple[str, str]]:
    """Pairs of systems whose order differs between the two scorings (a tie
    in one and not in the other counts as a flip)."""
    flips = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            sx = (xs[i] > xs[j]) - (xs[i] < xs[j])
            sy = (ys[i] > ys[j]) - (ys[i] < ys[j])
            if sx != sy:
                flips.append((names[i], names[j]))
    return flips


def ranks(scores: Sequence[float]) -> list[int]:
    """1 for the best score; ties share the better rank."""
    return [1 + sum(1 for t in scores if t > s) for s in scores]


@dataclass(frozen=True)
class Agreement:
    """The agreement of variant B with variant A on one data set."""

    segments: int
    pearson: float | None
    kappa: float | None
    analogical: float | None
    between: float | None
    kendall_tau: float | None
    flips: list[tuple[str, str]]
    systems: list[str]
    system_scores_a: list[float]
    system_scores_b: list[float]

    def to_dict(self) -> dict[str, object]:
        return {
            "segments": self.segments,
            "pearson": self.pearson,
            "kappa": self.kappa,
            "analogical": self.analogical,
            "between": self.between,
            "kendall_tau": self.kendall_tau,
            "rank_flips": [list(f) for f in self.flips],
            "systems": [
                {"system": s, "score_a": a, "score_b": b, "rank_a": ra, "rank_b": rb}
                for s, a, b, ra, rb in zip(
                    self.systems,
                    self.system_scores_a,
                    self.system_scores_b,
                    ranks(self.system_scores_a),
                    ranks(self.system_scores_b),
                )
            ],
        }


def agreement(
    sentences_a: Sequence[float],
    sentences_b: Sequence[float],
    sentences_a_lower: Sequence[float] | None,
    systems: Sequence[str],
    corpus_a: Sequence[float],
    corpus_b: Sequence[float],
) -> Agreement:
    """All statistics from sentence scores (0-100, all systems' segments in
    one sequence) and corpus scores per system. ``sentences_a_lower`` are A's
    scores one order lower (None when A has order 1)."""
    analogical = between = None
    if sentences_a_lower is not None:
        n = len(sentences_b)
        analogical = sum(1 for b, low in zip(sentences_b, sentences_a_lower) if b <= low) / n
        between = (
            sum(
                1 for a, b, low in zip(sentences_a, sentences_b, sentences_a_lower) if a <= b <= low
            )
            / n
        )
    return Agreement(
        segments=len(sentences_a),
        pearson=pearson(sentences_a, sentences_b) if len(sentences_a) > 1 else None,
        kappa=cohen_kappa([grade(s) for s in sentences_a], [grade(s) for s in sentences_b]),
        analogical=analogical,
        between=between,
        kendall_tau=kendall_tau_b(corpus_a, corpus_b) if len(systems) > 1 else None,
        flips=rank_flips(systems, corpus_a, corpus_b),
        systems=list(systems),
        system_scores_a=list(corpus_a),
        system_scores_b=list(corpus_b),
    )


# ------------------------------------------------------------- the study


@dataclass(frozen=True)
class AgreementStudy:
    """How far variant B agrees with variant A on a set of systems
    (``agree``): the statistics, A's lower-order variant behind the
    analogical share, and with a search the statistics of B at each order
    and the best order per criterion."""

    variant_a: AnyMetric
    variant_b: AnyMetric
    lower_a: AnyMetric | None
    nrefs: int | str
    result: Agreement
    search: dict[int, Agreement] | None = None

    def best_orders(self) -> dict[str, int | None]:
        """Per criterion, the order with the highest value (the lowest order
        on a tie); empty without a search."""
        if not self.search:
            return {}
        best: dict[str, int | None] = {}
        for criterion in ("pearson", "kappa", "between", "kendall_tau"):
            values = {m: getattr(r, criterion) for m, r in self.search.items()}
            defined = {m: v for m, v in values.items() if v is not None}
            best[criterion] = max(defined, key=lambda m: (defined[m], -m)) if defined else None
        return best

    def to_dict(self) -> dict[str, object]:
        a, b = self.variant_a, self.variant_b
        data: dict[str, object] = {
            "variant_a": a.name,
            "variant_b": b.name,
            "signature_a": a.signature(self.nrefs).long,
            "signature_b": b.signature(self.nrefs).long,
            "lower_order_a": self.lower_a.name if self.lower_a else None,
            **self.result.to_dict(),
        }
        if self.search:
            data["search"] = [{"order": m, **r.to_dict()} for m, r in self.search.items()]
            data["best_order"] = self.best_orders()
        return data


def study_variants(
    variant_a: AnyMetric, variant_b: AnyMetric, orders: Sequence[int] | None = None
) -> list[AnyMetric]:
    """The variants whose statistics ``agree`` reads: A, A one order lower,
    B, and B at each order searched (variants that share a counting pass,
    as BLEU variants of one tokenization do, share one set of statistics)."""
    lower = [variant_a.with_order(variant_a.order - 1)] if variant_a.order > 1 else []
    searched = [variant_b.with_order(m) for m in orders or ()]
    return [variant_a, *lower, variant_b, *searched]


def agree(
    variant_a: AnyMetric,
    variant_b: AnyMetric,
    streams: RefStreams,
    systems: Sequence[tuple[str, Sequence[str]]],
    orders: Sequence[int] | None = None,
) -> AgreementStudy:
    """Compare B with A on named systems' hypotheses held in memory
    (Denoual & Lepage 2005); with ``orders``, also B at each of those max
    orders. One set of statistics serves B and every order searched."""
    stats = collect(study_variants(variant_a, variant_b, orders), systems, streams)
    return agree_stats(variant_a, variant_b, stats, orders)


def agree_stats(
    variant_a: AnyMetric,
    variant_b: AnyMetric,
    stats: SystemStatistics,
    orders: Sequence[int] | None = None,
) -> AgreementStudy:
    """Compare B with A on the systems of ``stats`` (collected for
    ``study_variants(variant_a, variant_b, orders)``; Denoual & Lepage
    2005); with ``orders``, also B at each of those max orders."""
    a, b = variant_a, variant_b
    for v in (a, b):
        # kappa's grades, the analogical share and the correlations read
        # 0-100 scores where higher is better
        if not v.higher_is_better:
            raise InputError(
                f"agree compares metrics where a higher score is better; {v.name} is an "
                "error rate (use matrix to compare its ranking)"
            )
        if not v.percent:
            raise InputError(
                f"agree compares 0-100 scores (kappa's grades, the analogical share); "
                f"{v.name}'s scores have no upper bound (use matrix to compare its ranking)"
            )
    a_lower = a.with_order(a.order - 1) if a.order > 1 else None
    if stats.segments * len(stats.systems) < 2:
        raise InputError("agree needs at least two segments")
    names = list(stats.systems)

    def sentences(variant: AnyMetric) -> list[float]:
        return [x for name in names for x in stats.sentence_values(variant, name)]

    def corpus(variant: AnyMetric) -> list[float]:
        return [variant.score_value(stats.total(variant, name)) for name in names]

    sent_a, corp_a = sentences(a), corpus(a)
    lower = sentences(a_lower) if a_lower else None

    def agree_with(variant: AnyMetric) -> Agreement:
        return agreement(sent_a, sentences(variant), lower, names, corp_a, corpus(variant))

    search = None
    if orders:
        stage("searching the orders", len(orders), "orders")
        search = {}
        for m in orders:
            search[m] = agree_with(b.with_order(m))
            advance()
    return AgreementStudy(a, b, a_lower, stats.nrefs, agree_with(b), search)
