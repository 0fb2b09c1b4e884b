"""EED's configuration (Stanchev, Wang & Ney 2019)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...config.model import ConfigFields

#: EED's versioned name: a changed computation gets a new one
EED_METRIC = "eed.v1"


@dataclass(frozen=True, kw_only=True)
class EedConfig(ConfigFields):
    """A complete, validated EED variant (YAML: ``metric: eed.v1``): the
    extended edit distance of Stanchev, Wang & Ney (2019) over characters,
    with the RWTH reference implementation's preprocessing of ``language``
    and its four costs, as torchmetrics' ``ExtendedEditDistance`` takes them."""

    name: str | None = None
    description: str = ""
    metric: Literal["eed.v1"]
    language: Literal["en", "ja"]
    alpha: float
    rho: float
    deletion: float
    insertion: float

    #: the score's name
    score_name: ClassVar[str] = "EED"


#: fields that can change an EED score, and the order signatures write them in
EED_SCORING_FIELDS = ("metric", "language", "alpha", "rho", "deletion", "insertion")
