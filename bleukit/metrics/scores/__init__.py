"""External segment scores as a metric (``scores.v1``): COMET, BLEURT,
MetricX or any other metric's segment scores, read from a file, compared,
ranked, reported and meta-evaluated beside bleukit's own variants. Made
from a file by ``external_scores``; ``bleukit ... --scores NAME=FILE``."""

from __future__ import annotations

from ..registry import MetricSpec
from .config import SCORES_METRIC, SCORES_SCORING_FIELDS, ScoresConfig

#: this package's metrics (``bleukit.metrics.registry``)
METRICS = (
    MetricSpec(
        name=SCORES_METRIC,
        config=ScoresConfig,
        scoring_fields=SCORES_SCORING_FIELDS,
        model=f"{__name__}.schema:ScoresModel",
        variant=f"{__name__}.variant:ScoresVariant",
        label="external scores",
        signature=f"{__name__}.core:ScoresSignature",
    ),
)
