"""Many comparisons at once: p-values corrected for multiple testing, and
systems grouped into ranking clusters. Pure functions of p-values and
scores, for any metric and any test that produced them (the all-pairs
significance of issue 24 builds on them).

Corrections (each a family-wise or false-discovery bound over the m tests
given together):

* ``bonferroni``: min(1, m p) (Dunn 1961);
* ``holm``: Holm (1979), step-down: the k-th smallest p-value times
  (m - k + 1), made non-decreasing in that order, capped at 1. Controls the
  family-wise error like Bonferroni and rejects at least as often;
* ``bh``: Benjamini & Hochberg (1995), step-up: the k-th smallest p-value
  times m / k, made non-increasing from the largest down, capped at 1.
  Controls the false discovery rate;
* ``none``: the p-values unchanged.

These are R's ``p.adjust`` formulas, ties included (a tie keeps its input
order, which does not change the adjusted values).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..core.errors import InputError

Correction = Literal["holm", "bonferroni", "bh", "none"]
CORRECTIONS: tuple[Correction, ...] = ("holm", "bonferroni", "bh", "none")
#: how a report names what each correction did to the p-values
CORRECTION_NAMES: dict[Correction, str] = {
    "holm": "Holm-corrected",
    "bonferroni": "Bonferroni-corrected",
    "bh": "Benjamini-Hochberg-corrected",
    "none": "uncorrected",
}


def _checked(p_values: Sequence[float]) -> list[float]:
    out = [float(p) for p in p_values]
    for i, p in enumerate(out):
        if not 0.0 <= p <= 1.0:  # also refuses NaN
            raise InputError(f"p-value {i + 1} is {p!r}, not between 0 and 1")
    return out


def adjust(p_values: Sequence[float], method: Correction = "holm") -> list[float]:
    """The p-values corrected for testing them together, in their order."""
    p = _checked(p_values)
    m = len(p)
    if method == "none" or m == 0:
        return p
    if method == "bonferroni":
        return [min(1.0, m * x) for x in p]
    order = sorted(range(m), key=p.__getitem__)
    out = [0.0] * m
    if method == "holm":
        running = 0.0
        for k, i in enumerate(order):
            running = max(running, min(1.0, (m - k) * p[i]))
            out[i] = running
        return out
    if method == "bh":
        running = 1.0
        for k in range(m - 1, -1, -1):
            i = order[k]
            running = min(running, m * p[i] / (k + 1))
            out[i] = running
        return out
    raise InputError(f"unknown correction {method!r}: use one of {', '.join(CORRECTIONS)}")


@dataclass(frozen=True)
class Cluster:
    """Systems that no significant difference separates, as WMT's findings
    papers rank them: ``members`` (indices into the systems given, best
    first) share the ranks ``first``..``last`` (1-based)."""

    members: tuple[int, ...]
    first: int
    last: int

    @property
    def rank(self) -> str:
        """The shared rank as the findings papers print it: "1" or "2-4"."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def clusters(
    scores: Sequence[float],
    worse: Callable[[int, int], bool],
    higher_is_better: bool = True,
) -> list[Cluster]:
    """Ranking clusters of systems. ``worse(a, b)``: whether system ``a`` is
    significantly worse than system ``b`` (after correction).

    Systems are sorted best first (ties keep their order). The WMT
    findings papers present systems in clusters by significance since
    Bojar et al. (2013); the rule here is the one they describe: a new
    cluster starts at a system that is significantly worse than every
    system ranked above it; otherwise the system joins the current
    cluster. A cluster's members share the range of ranks they occupy."""
    sign = 1.0 if higher_is_better else -1.0
    ranked = sorted(range(len(scores)), key=lambda i: -sign * scores[i])
    out: list[list[int]] = []
    for k, system in enumerate(ranked):
        if out and not all(worse(system, above) for above in ranked[:k]):
            out[-1].append(system)
        else:
            out.append([system])
    result = []
    first = 1
    for members in out:
        result.append(Cluster(tuple(members), first, first + len(members) - 1))
        first += len(members)
    return result
