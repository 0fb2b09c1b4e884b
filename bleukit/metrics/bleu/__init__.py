"""BLEU (Papineni et al. 2002) in every variant: tokenization, reference
length, order, weights, smoothing; the metric of a variant without a
``metric`` key."""

from __future__ import annotations

from ..registry import DEFAULT_METRIC, MetricSpec
from .config import FAMILY_HELP, SCORING_FIELDS, VariantConfig

#: this package's metrics (``bleukit.metrics.registry``)
METRICS = (
    MetricSpec(
        name=DEFAULT_METRIC,
        config=VariantConfig,
        scoring_fields=SCORING_FIELDS,
        model=f"{__name__}.schema:VariantModel",
        variant=f"{__name__}.variant:Variant",
        label="BLEU",
        family=f"{__name__}.config:family",
        family_help=FAMILY_HELP,
        signature=f"{__name__}.signature:Signature",
    ),
)
