"""Corpus statistics to a BLEU score (Papineni et al. 2002, section 2.3):
brevity penalty times the weighted geometric mean of modified precisions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .smoothing import Smoothing
from .stats import RefLength, Stats

if TYPE_CHECKING:
    from .signature import Signature


def brevity_penalty(sys_len: int, ref_len: RefLength) -> float:
    """exp(1 - r/c) when the hypothesis is shorter than the reference
    (Papineni et al. 2002, section 2.2.2); 0 for an empty hypothesis."""
    if sys_len < ref_len:
        return math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    return 1.0


@dataclass(frozen=True)
class BleuResult:
    """A BLEU score with everything needed to check it."""

    score: float
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: RefLength
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    signature: Signature | None = field(default=None, compare=False)

    @property
    def ratio(self) -> float:
        return float(self.sys_len / self.ref_len) if self.ref_len else 0.0

    def format(self, width: int = 2) -> str:
        """sacrebleu's one-line form: score, precisions, BP, ratio, lengths."""
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        ref_len = (
            f"{self.ref_len:d}" if isinstance(self.ref_len, int) else f"{float(self.ref_len):.2f}"
        )
        return (
            f"BLEU = {self.score:.{width}f} {prec} (BP = {self.bp:.3f} "
            f"ratio = {self.ratio:.3f} hyp_len = {self.sys_len:d} ref_len = {ref_len})"
        )

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict:
        ref_len = self.ref_len if isinstance(self.ref_len, int) else float(self.ref_len)
        out = {
            "score": self.score,
            "precisions": list(self.precisions),
            "bp": self.bp,
            "ratio": self.ratio,
            "sys_len": self.sys_len,
            "ref_len": ref_len,
            "counts": list(self.counts),
            "totals": list(self.totals),
        }
        if self.signature is not None:
            out.update(self.signature.to_dict())
        return out


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
    bp = brevity_penalty(stats.sys_len, stats.ref_len)
    smoothed = smoothing(stats, order, weights, effective_order, smoothing_value)
    return BleuResult(
        score=bp * smoothed.mean,
        precisions=smoothed.precisions,
        bp=bp,
        sys_len=stats.sys_len,
        ref_len=stats.ref_len,
        counts=stats.counts[:order],
        totals=stats.totals[:order],
        signature=signature,
    )
