"""chrF and chrF++ (Popović 2015, 2017) as sacrebleu 2.6.0 computes them."""

from __future__ import annotations

from ..registry import MetricSpec
from .config import CHRF_METRIC, CHRF_SCORING_FIELDS, ChrfConfig

#: this package's metrics (``bleukit.metrics.registry``)
METRICS = (
    MetricSpec(
        name=CHRF_METRIC,
        config=ChrfConfig,
        scoring_fields=CHRF_SCORING_FIELDS,
        model=f"{__name__}.schema:ChrfModel",
        variant=f"{__name__}.variant:ChrfVariant",
        label="chrF",
        signature=f"{__name__}.core:ChrfSignature",
    ),
)
