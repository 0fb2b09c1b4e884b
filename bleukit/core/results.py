"""What a significance test returns for any metric: the interval and
p-value of a system. Value objects, below the modules that compute them
(``significance``) and the ones that present them (``report``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: a p-value below this is reported as significant
ALPHA = 0.05


@dataclass(frozen=True)
class Interval:
    """A bootstrap confidence interval of a score."""

    low: float
    high: float
    mean: float
    level: float

    @property
    def half_width(self) -> float:
        return 0.5 * (self.high - self.low)


@dataclass(frozen=True)
class SystemResult:
    """One system's score, interval and p-value against the baseline."""

    system: str
    #: the system's score (a ``MetricResult``: ``BleuResult``, ``ChrfResult``...)
    result: Any
    interval: Interval | None
    p_value: float | None = None
    baseline: bool = False
    scores: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @property
    def significant(self) -> bool:
        return self.p_value is not None and self.p_value < ALPHA
