"""GLEU's configuration (Wu et al. 2016)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ...config.model import ConfigFields

#: GLEU's versioned name: a changed computation gets a new one
GLEU_METRIC = "gleu.v1"


@dataclass(frozen=True, kw_only=True)
class GleuConfig(ConfigFields):
    """A complete, validated GLEU variant (YAML: ``metric: gleu.v1``): Wu et
    al.'s (2016) sentence-friendly BLEU, the lesser of n-gram precision and
    recall over orders ``min_order`` to ``max_order``, as NLTK's
    ``corpus_gleu`` sums it, over the tokens of a BLEU variant's
    tokenization."""

    name: str | None = None
    description: str = ""
    metric: Literal["gleu.v1"]
    tokenizer: str
    split: str
    lowercase: bool | Literal["ascii"]
    min_order: int
    max_order: int

    #: the score's name
    score_name: ClassVar[str] = "GLEU"


#: fields that can change a GLEU score, and the order signatures write them in
GLEU_SCORING_FIELDS = ("metric", "tokenizer", "split", "lowercase", "min_order", "max_order")
