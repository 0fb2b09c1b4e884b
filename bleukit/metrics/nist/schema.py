"""The checks a NIST variant passes (pydantic; imported only to validate)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from ...config.model import MAX_ORDER_LIMIT
from ...config.schema import MetricModel, registered


class NistModel(MetricModel):
    """The checks a NIST variant passes; its fields are NistConfig's."""

    metric: Literal["nist.v1"]
    tokenizer: str
    split: str
    lowercase: bool | Literal["ascii"]
    max_order: Annotated[int, Field(ge=1, le=MAX_ORDER_LIMIT)]

    _component = field_validator("tokenizer", "split")(registered)
