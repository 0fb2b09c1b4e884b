"""The configuration of external segment scores (COMET, BLEURT, MetricX, a
human score file...) used as a metric: what the user says they are, and the
digest of the file they were read from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...config.model import ConfigFields

#: the versioned name of external scores as a metric
SCORES_METRIC = "scores.v1"


@dataclass(frozen=True, kw_only=True)
class ScoresConfig(ConfigFields):
    """External segment scores as a metric (``metric: scores.v1``): a
    system's score is the mean of its segments' scores. ``label`` is what
    the user calls them (``COMET``), ``about`` what the user says they are
    (the model, its version), ``sha256`` the digest of the file they come
    from (``reading.digest``); ``path`` is where that file was read, and
    ``systems`` the systems in the order their statistics are collected in:
    neither changes a score, so neither is in the signature."""

    name: str | None = None
    description: str = ""
    metric: Literal["scores.v1"]
    label: str
    about: str
    lower_is_better: bool
    sha256: str
    path: str = ""
    systems: tuple[str, ...] = ()

    #: the score's name, as the label gives it (``ScoresVariant.score_name``)
    score_name: ClassVar[str] = "scores"


#: fields that can change a score, and the order signatures write them in
SCORES_SCORING_FIELDS = ("metric", "label", "about", "lower_is_better", "sha256")
