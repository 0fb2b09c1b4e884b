"""TER's configuration: sacrebleu's ``TER`` options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...config.model import ConfigFields

#: TER's versioned name: a changed computation gets a new one
TER_METRIC = "ter.v1"


@dataclass(frozen=True, kw_only=True)
class TerConfig(ConfigFields):
    """A complete, validated TER variant (YAML: ``metric: ter.v1``): the four
    options of sacrebleu's ``TER``, Tercom's normalization flags."""

    name: str | None = None
    description: str = ""
    metric: Literal["ter.v1"]
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool

    #: sacrebleu's name of the score
    score_name: ClassVar[str] = "TER"


#: fields that can change a TER score, and the order signatures write them in
TER_SCORING_FIELDS = ("metric", "normalized", "no_punct", "asian_support", "case_sensitive")
