"""GLEU (Wu et al. 2016) as NLTK's corpus_gleu and HF evaluate's google_bleu compute it."""

from __future__ import annotations

from ..registry import MetricSpec
from .config import GLEU_METRIC, GLEU_SCORING_FIELDS, GleuConfig

#: this package's metrics (``bleukit.metrics.registry``)
METRICS = (
    MetricSpec(
        name=GLEU_METRIC,
        config=GleuConfig,
        scoring_fields=GLEU_SCORING_FIELDS,
        model=f"{__name__}.schema:GleuModel",
        variant=f"{__name__}.variant:GleuVariant",
        label="GLEU",
        signature=f"{__name__}.core:GleuSignature",
    ),
)
