"""What a significance test returns for any metric: the interval and
p-value of a system. Value objects, below the modules that compute them
(``significance``) and the ones that present them (``report``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

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

    #: the keys of ``to_dict``
    KEYS: ClassVar[tuple[str, ...]] = ("ci", "ci_level", "ci_mean", "ci_half_width")

    def to_dict(self) -> dict[str, Any]:
        """The interval as JSON writes it, in Python floats: sacrebleu's
        chrF bounds are float32 scalars (``core.float32.F32``, kept so that
        the half-width is sacrebleu's float32 one), which json cannot write;
        float() of one is exact."""
        bounds = [float(self.low), float(self.high)]
        return dict(zip(self.KEYS, (bounds, self.level, float(self.mean), float(self.half_width))))


def is_significant(p_value: float | None) -> bool:
    """Whether a p-value (None: no test) is below ``ALPHA``."""
    return p_value is not None and p_value < ALPHA


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
    #: in sacrebleu's mode, the score as sacrebleu 2.6.0 prints it: the
    #: segment rows summed left to right, then scored (an ulp from
    #: ``result.score`` where TER's mean reference lengths are fractions)
    sacrebleu_score: float | None = field(default=None, compare=False)

    @property
    def significant(self) -> bool:
        return is_significant(self.p_value)


#: accuracies for which ``DeltaAccuracy.delta_for`` is reported
LEVELS = (0.8, 0.9)


def sigmoid(x: float) -> float:
    """1 / (1 + exp(-x)), without overflow."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


@dataclass(frozen=True)
class DeltaAccuracy:
    """accuracy(delta) = a / (1 + exp(-b delta)), fitted to ``pairs``
    system pairs (``agreed`` of them ordered as by the humans) estimated on
    ``source``."""

    a: float
    b: float
    pairs: int
    agreed: int
    source: str = ""

    def accuracy(self, delta: float) -> float:
        """The estimated share of system pairs this far apart (in the
        metric's points, either sign) that humans order the same way."""
        return self.a * sigmoid(self.b * abs(delta))

    def delta_for(self, accuracy: float) -> float | None:
        """The delta at which the estimated accuracy reaches ``accuracy``
        (None where the curve never does: a is below it)."""
        if not 0 < accuracy < self.a or self.b <= 0:
            return None
        return -math.log(self.a / accuracy - 1) / self.b

    def to_dict(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "agreed": self.agreed,
            "source": self.source,
            "delta_for": {f"{level:g}": self.delta_for(level) for level in LEVELS},
        }
