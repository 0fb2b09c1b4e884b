"""The checks a GLEU variant passes (pydantic; imported only to validate)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from ...config.model import MAX_ORDER_LIMIT
from ...config.schema import MetricModel, registered


class GleuModel(MetricModel):
    """The checks a GLEU variant passes; its fields are GleuConfig's."""

    metric: Literal["gleu.v1"]
    tokenizer: str
    split: str
    lowercase: bool | Literal["ascii"]
    min_order: Annotated[int, Field(ge=1, le=MAX_ORDER_LIMIT)]
    max_order: Annotated[int, Field(ge=1, le=MAX_ORDER_LIMIT)]

    _component = field_validator("tokenizer", "split")(registered)

    @model_validator(mode="after")
    def _orders(self) -> GleuModel:
        if self.min_order > self.max_order:
            raise ValueError(
                f"key 'min_order' ({self.min_order}) is above key 'max_order' ({self.max_order})"
            )
        return self
