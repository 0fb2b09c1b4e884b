"""Corpus statistics to a BLEU score (Papineni et al. 2002, section 2.3):
brevity penalty times the weighted geometric mean of modified precisions."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core.smoothing import Smoothing
from ...core.stats import RefLength, Stats
from .result import BleuResult
from .signature import Signature


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
    weights: Sequence[float] | None,
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
    weights: Sequence[float] | None,
    effective_order: bool,
    smoothing_value: float | None,
    signatures: Sequence[Signature | None],
) -> list[BleuResult]:
    """``compute_bleu`` of many statistics (each with its signature) at
    once: sentence BLEU of a batch smooths them in one call."""
    smoothed = smoothing.many(stats, order, weights, effective_order, smoothing_value)
    make = BleuResult.make
    out = []
    for s, (precisions, mean), signature in zip(stats, smoothed, signatures):
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
