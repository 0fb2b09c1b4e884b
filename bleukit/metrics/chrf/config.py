"""chrF's configuration (Popović 2015, 2017)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...config.model import ConfigFields

#: the chrF metric's versioned name: a changed computation gets a new one
CHRF_METRIC = "chrf.v1"


@dataclass(frozen=True, kw_only=True)
class ChrfConfig(ConfigFields):
    """A complete, validated chrF variant (YAML: ``metric: chrf.v1``), made
    by ``schema.ChrfModel`` or from the built-in table."""

    name: str | None = None
    description: str = ""
    metric: Literal["chrf.v1"]
    char_order: int
    word_order: int
    beta: int
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool

    @property
    def order(self) -> int:
        return self.char_order + self.word_order

    @property
    def score_name(self) -> str:
        """sacrebleu's name of the score: chrF2, chrF2++ (one + per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order


#: fields that can change a chrF score, and the order signatures write them in
CHRF_SCORING_FIELDS = (
    "metric", "char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing",
)  # fmt: skip
