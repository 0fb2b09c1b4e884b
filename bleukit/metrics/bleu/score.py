"""Corpus statistics to a BLEU score (Papineni et al. 2002, section 2.3):
brevity penalty times the weighted geometric mean of modified precisions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from ...core.record import Record
from ...core.smoothing import Smoothed, Smoothing
from ...core.stats import RefLength, Stats, ngram_totals
from .result import BleuResult
from .signature import Signature

#: the weights a variant scores with: a vector, None (uniform), or
#: "auto-reweigh" (uniform, reweighed for short hypotheses: see ``smoothed``)
Weights = Sequence[float] | None | Literal["auto-reweigh"]


def smoothed(
    smoothing: Smoothing,
    stats: Sequence[Stats],
    order: int,
    weights: Weights,
    effective_order: bool,
    smoothing_value: float | None,
) -> list[Smoothed]:
    """``smoothing.many`` under the variant's weights. "auto-reweigh" is
    NLTK's ``corpus_bleu(..., auto_reweigh=True)``: uniform, except that
    statistics of h hypothesis tokens, 0 < h < order, weigh their first h
    orders 1/h each (NLTK reweighs only its default (0.25,) * 4, so at
    order 4 this is NLTK's rule; at other orders it is the same rule for
    uniform weights). The short ones, rare in a batch, are smoothed again in
    groups of one length."""
    if weights != "auto-reweigh":
        return smoothing.many(stats, order, weights, effective_order, smoothing_value)
    out = smoothing.many(stats, order, None, effective_order, smoothing_value)
    short: dict[int, list[int]] = {}
    for i, s in enumerate(stats):
        if 0 < s.sys_len < order:
            short.setdefault(int(s.sys_len), []).append(i)
    for h, where in short.items():
        group = [stats[i] for i in where]
        again = smoothing.many(group, order, (1 / h,) * h, effective_order, smoothing_value)
        for i, result in zip(where, again):
            out[i] = result
    return out


class BleuRule(Record):
    """A BLEU variant's scoring (``core.smoothing.ScoreRule``): statistics
    to brevity penalty times the smoothed mean."""

    smoothing: Smoothing
    order: int
    weights: Weights
    effective_order: bool
    value: float | None

    @property
    def kernel(self) -> str | None:
        # the kernel sums uniform weights' logs as Python's sum() does; other
        # weights are summed with math.fsum (the reference's)
        return self.smoothing.kernel if self.weights is None else None

    def values(self, stats: Sequence[Stats]) -> list[float]:
        means = smoothed(self.smoothing, stats, self.order, self.weights, self.effective_order,
                         self.value)  # fmt: skip
        return [brevity_penalty(s.sys_len, s.ref_len) * m.mean for s, m in zip(stats, means)]


def brevity_penalty(sys_len: int, ref_len: RefLength) -> float:
    """exp(1 - r/c) when the hypothesis is shorter than the reference
    (Papineni et al. 2002, section 2.2.2); 0 for an empty hypothesis."""
    if sys_len < ref_len:
        return math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    return 1.0


def compute_bleu(
    stats: Stats,
    order: int,
    smoothing: Smoothing,
    weights: Weights,
    effective_order: bool,
    smoothing_value: float | None,
    signature: Signature | None = None,
) -> BleuResult:
    """Score additive statistics. ``weights=None`` means uniform weights."""
    args = (order, smoothing, weights, effective_order, smoothing_value)
    return compute_bleu_many((stats,), *args, (signature,))[0]


def compute_bleu_many(
    stats: Sequence[Stats],
    order: int,
    smoothing: Smoothing,
    weights: Weights,
    effective_order: bool,
    smoothing_value: float | None,
    signatures: Sequence[Signature | None],
) -> list[BleuResult]:
    """``compute_bleu`` of many statistics (each with its signature) at
    once: sentence BLEU of a batch smooths them in one call."""
    means = smoothed(smoothing, stats, order, weights, effective_order, smoothing_value)
    make = BleuResult.make
    out = []
    for s, (precisions, mean), signature in zip(stats, means, signatures):
        bp = brevity_penalty(s.sys_len, s.ref_len)
        out.append(
            make(
                bp * mean,
                precisions,
                bp,
                s.sys_len,
                s.ref_len,
                s.counts[:order],
                s.totals[:order],
                signature,
            )
        )
    return out


def results_from_parts(
    parts: Sequence[float],
    hyp_len: Sequence[int],
    ref_len: Sequence[RefLength],
    matches: Sequence[int],
    width: int,
    order: int,
    at_least_one: bool,
    signatures: Sequence[Signature | None],
) -> list[BleuResult]:
    """``compute_bleu_many``'s results for a table's segments from an
    engine's ``sentence_parts`` (each segment's score, brevity penalty and
    ``order`` precisions, flat) and the table's columns (``matches``: flat,
    ``width`` a segment): the same numbers, with no Stats per segment."""
    step = order + 2
    make = BleuResult.make
    out = []
    for k, (h, r, signature) in enumerate(zip(hyp_len, ref_len, signatures)):
        at = k * step
        out.append(
            make(
                parts[at],
                tuple(parts[at + 2 : at + step]),
                parts[at + 1],
                h,
                r,
                tuple(matches[k * width : k * width + order]),
                ngram_totals(h, order, at_least_one),
                signature,
            )
        )
    return out
