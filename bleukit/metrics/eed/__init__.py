"""EED, extended edit distance (Stanchev, Wang & Ney 2019, "EED: Extended
Edit Distance Measure for Machine Translation"), as torchmetrics'
``ExtendedEditDistance`` computes it. Its built-in variant, ``EED``, is the
file beside this module."""

from __future__ import annotations

from pathlib import Path

from ..registry import MetricSpec
from .config import EED_METRIC, EED_SCORING_FIELDS, EedConfig

#: this package's metrics (``bleukit.metrics.registry``)
METRICS = (
    MetricSpec(
        name=EED_METRIC,
        config=EedConfig,
        scoring_fields=EED_SCORING_FIELDS,
        model=f"{__name__}.schema:EedModel",
        variant=f"{__name__}.variant:EedVariant",
        label="EED",
        signature=f"{__name__}.core:EedSignature",
        variants=Path(__file__).resolve().parent,
    ),
)
