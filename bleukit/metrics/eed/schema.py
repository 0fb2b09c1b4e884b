"""The checks an EED variant passes (pydantic; imported only to validate)."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import field_validator

from ...config.schema import MetricModel


class EedModel(MetricModel):
    """The checks an EED variant passes; its fields are EedConfig's."""

    metric: Literal["eed.v1"]
    language: Literal["en", "ja"]
    alpha: float
    rho: float
    deletion: float
    insertion: float

    @field_validator("alpha", "rho", "deletion", "insertion")
    @classmethod
    def _cost(cls, v: float) -> float:
        # torchmetrics refuses a negative cost too; an infinite one would
        # make every score 1 or NaN
        if not (math.isfinite(v) and v >= 0):
            raise ValueError("a cost must be finite and non-negative")
        return v
