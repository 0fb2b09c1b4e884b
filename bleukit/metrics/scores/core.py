"""External scores' statistics, result and signature.

A segment's statistics are two non-negative integers: its score in fixed
point, ``2**-shift`` a unit (the finest a float of the file needs, so that
every score is held exactly), raised by ``offset`` units so that no score
is negative; and 1, the segment. Sums are exact in any order (partials
merge, resamples sum exactly), and a mean is the correctly rounded quotient
of two integers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..fields import FieldForm, FieldResult, OwnSignature
from .config import SCORES_METRIC, SCORES_SCORING_FIELDS, ScoresConfig

#: a segment's (or a sum's) statistics: fixed-point scores, segments (a
#: pair, typed as ``SimpleMetric``'s statistics are)
ScoresStats = tuple[int, ...]


@dataclass(frozen=True)
class FixedPoint:
    """How a file's scores are held as integers: a score x is
    ``x * 2**shift + offset``."""

    shift: int
    offset: int

    @classmethod
    def of(cls, values: Sequence[float]) -> FixedPoint:
        ratios = [v.as_integer_ratio() for v in values]
        shift = max((d.bit_length() - 1 for _, d in ratios), default=0)
        low = min((n << (shift - d.bit_length() + 1) for n, d in ratios), default=0)
        return cls(shift, max(0, -low))

    def encode(self, value: float) -> int:
        n, d = value.as_integer_ratio()
        return (n << (self.shift - d.bit_length() + 1)) + self.offset

    def mean(self, stats: ScoresStats) -> float:
        """The mean score of summed statistics (NaN for no segment)."""
        total, count = stats
        if not count:
            return math.nan
        # int / int is correctly rounded
        return (total - self.offset * count) / (count << self.shift)


#: how external scores' fields are written in a signature
SCORES_FORM = FieldForm(
    SCORES_METRIC,
    SCORES_SCORING_FIELDS,
    keys={
        "metric": ("metric", "m"),
        "label": ("name", "n"),
        "about": ("about", "a"),
        "lower_is_better": ("lower", "lo"),
        "sha256": ("sha256", "h"),
    },
    spelling={"lower_is_better": {True: ("yes", "y"), False: ("no", "n")}},
    texts=frozenset({"label", "about", "sha256"}),
)


@dataclass(frozen=True)
class ScoresSignature(OwnSignature):
    """The complete signature of a score from external scores: what the user
    calls them and says they are, which way is better, the file's sha256."""

    config: ScoresConfig
    form = SCORES_FORM


@dataclass(frozen=True)
class ScoresResult(FieldResult):
    """The mean of a system's external segment scores."""

    score: float
    segments: int
    label: str
    signature: ScoresSignature | None = None

    digits = 4

    @property
    def name(self) -> str:  # type: ignore[override]  # the label the user gave
        return self.label

    def statistics(self) -> dict[str, Any]:
        return {"segments": self.segments}
