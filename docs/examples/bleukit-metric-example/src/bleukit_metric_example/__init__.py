"""Example bleukit metric plugin: word error rate (WER), the word-level
edit distance (insertions, deletions, substitutions) per reference word.

This module is what bleukit imports to find the metric: its configuration
(a frozen dataclass) and its ``MetricSpec``. The model, the signature and
the ``Metric`` class live in ``metric.py``, imported when first used.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from bleukit.config.model import ConfigFields
from bleukit.metrics.registry import MetricSpec


@dataclass(frozen=True, kw_only=True)
class WerConfig(ConfigFields):
    """Word error rate on whitespace-split words."""

    name: str | None = None
    description: str = ""
    metric: Literal["wer.v1"]
    lowercase: bool

    score_name: ClassVar[str] = "WER"


WER = MetricSpec(
    name="wer.v1",
    config=WerConfig,
    scoring_fields=("metric", "lowercase"),
    model="bleukit_metric_example.metric:WerModel",
    variant="bleukit_metric_example.metric:WerVariant",
    signature="bleukit_metric_example.metric:WerSignature",
    label="WER",
    variants=Path(__file__).resolve().parent,
)
