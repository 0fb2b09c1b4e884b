"""TER, translation edit rate (Snover et al. 2006), as sacrebleu 2.6.0
computes it: Tercom's normalization (``normalize``) and its edit count with
shifts (``edits``)."""

from __future__ import annotations

from ..registry import MetricSpec
from .config import TER_METRIC, TER_SCORING_FIELDS, TerConfig

#: this package's metrics (``bleukit.metrics.registry``)
METRICS = (
    MetricSpec(
        name=TER_METRIC,
        config=TerConfig,
        scoring_fields=TER_SCORING_FIELDS,
        model=f"{__name__}.schema:TerModel",
        variant=f"{__name__}.variant:TerVariant",
        label="TER",
        signature=f"{__name__}.core:TerSignature",
    ),
)
