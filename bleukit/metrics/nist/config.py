"""NIST's configuration (Doddington 2002)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...config.model import ConfigFields

#: NIST's versioned name: a changed computation gets a new one
NIST_METRIC = "nist.v1"


@dataclass(frozen=True, kw_only=True)
class NistConfig(ConfigFields):
    """A complete, validated NIST variant (YAML: ``metric: nist.v1``):
    Doddington's (2002) information-weighted n-gram co-occurrence score as
    mteval-v13a.pl computes it, over the tokens of a BLEU variant's
    tokenization (tokenizer, split, case) up to ``max_order``."""

    name: str | None = None
    description: str = ""
    metric: Literal["nist.v1"]
    tokenizer: str
    split: str
    lowercase: bool | Literal["ascii"]
    max_order: int

    #: mteval's name of the score
    score_name: ClassVar[str] = "NIST"


#: fields that can change a NIST score, and the order signatures write them in
NIST_SCORING_FIELDS = ("metric", "tokenizer", "split", "lowercase", "max_order")
