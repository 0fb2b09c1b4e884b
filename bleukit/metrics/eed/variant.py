"""EED as a ``Metric``: a loaded EED variant scores corpora and sentences as
torchmetrics' ``ExtendedEditDistance`` does, on the 0-100 scale (lower is
better).

>>> import bleukit
>>> eed = bleukit.load_metric("EED")
>>> print(eed.corpus_score(["this is the prediction", "here is an other sample"],
...                        [["this is the reference", "here is another one"]]))
EED = 30.78
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.errors import InputError
from ..simple import SimpleMetric
from .config import EedConfig
from .core import EED_SCALE, PREPROCESS, EedResult, EedSignature, EedStats, eed_score
from .core import segment_stats as eed_segment_stats


class EedVariant(SimpleMetric):
    """A complete, validated EED variant ready to score text."""

    config: EedConfig
    family = "EED"
    higher_is_better = False
    width = 2
    stats_description = "(distance sum in units of 2**-60, segments)"
    signature_type = EedSignature

    def prepare(self, line: str) -> str:
        return PREPROCESS[self.config.language](line)

    def segment(self, hyp: str, refs: Sequence[str]) -> EedStats:
        return eed_segment_stats(hyp, refs, self.config)

    def score_of(self, stats: Any) -> float:
        return eed_score(stats)

    def result(self, score: float, stats: Any, signature: Any) -> EedResult:
        return EedResult(score, stats[0], stats[1], signature)

    def details(self, result: EedResult) -> dict[str, Any]:
        return {"columns": {"segments": result.segments}, "bars": [], "bars_label": ""}

    def check_stats(self, stats: object) -> None:
        super().check_stats(stats)
        checked: EedStats = stats  # type: ignore[assignment]  # two integers, checked above
        if checked[0] > checked[1] * EED_SCALE:
            raise InputError(
                f"invalid partial statistics: {self.name}'s distance sum is above one per segment"
            )
