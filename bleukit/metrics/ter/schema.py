"""The checks a TER variant passes (pydantic; imported only to validate)."""

from __future__ import annotations

from typing import Literal

from ...config.schema import MetricModel


class TerModel(MetricModel):
    """The checks a TER variant passes; its fields are TerConfig's."""

    metric: Literal["ter.v1"]
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool
