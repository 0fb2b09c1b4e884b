"""NIST (Doddington 2002) as mteval-v13a.pl computes it."""

from __future__ import annotations

from ..registry import MetricSpec
from .config import NIST_METRIC, NIST_SCORING_FIELDS, NistConfig

#: this package's metrics (``bleukit.metrics.registry``)
METRICS = (
    MetricSpec(
        name=NIST_METRIC,
        config=NistConfig,
        scoring_fields=NIST_SCORING_FIELDS,
        model=f"{__name__}.schema:NistModel",
        variant=f"{__name__}.variant:NistVariant",
        label="NIST",
        signature=f"{__name__}.core:NistSignature",
    ),
)
