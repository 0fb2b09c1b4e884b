"""The checks a chrF variant passes (pydantic; imported only to validate)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ...config.schema import MetricModel


class ChrfModel(MetricModel):
    """The checks a chrF variant passes; its fields are ChrfConfig's."""

    metric: Literal["chrf.v1"]
    char_order: Annotated[int, Field(ge=0, le=100)]
    word_order: Annotated[int, Field(ge=0, le=100)]
    beta: Annotated[int, Field(ge=0, le=100)]
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool

    @model_validator(mode="after")
    def _orders(self) -> ChrfModel:
        if self.char_order + self.word_order == 0:
            raise ValueError("char_order and word_order are both 0: nothing to count")
        return self
