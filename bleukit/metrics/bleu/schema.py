"""The checks a BLEU variant passes (pydantic; imported only to validate)."""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ...config.model import COMPONENT_FIELDS, MAX_ORDER_LIMIT
from ...config.schema import registered
from ...core.smoothing import SMOOTHINGS


class VariantModel(BaseModel):
    """The checks a BLEU variant passes; its fields are VariantConfig's, in
    the same order (tests/test_schema.py)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str | None = None
    description: str = ""
    tokenizer: str
    tokenizer_model: str | None = None
    split: str
    lowercase: bool | Literal["ascii"]
    max_order: Annotated[int, Field(ge=1, le=MAX_ORDER_LIMIT)]
    weights: Literal["uniform", "auto-reweigh"] | tuple[float, ...]
    ref_length: str
    smoothing: str
    smoothing_value: float | None
    effective_order: bool
    totals: Literal["exact", "at-least-one"]

    _component = field_validator(*COMPONENT_FIELDS)(registered)

    @field_validator("weights")
    @classmethod
    def _weights(
        cls, v: Literal["uniform", "auto-reweigh"] | tuple[float, ...]
    ) -> Literal["uniform", "auto-reweigh"] | tuple[float, ...]:
        if isinstance(v, str):
            return v
        if any(not math.isfinite(w) or w < 0 for w in v):
            raise ValueError("weights must be finite and non-negative")
        if abs(math.fsum(v) - 1.0) > 1e-9:
            raise ValueError(f"weights must sum to 1 (they sum to {math.fsum(v)!r})")
        return tuple(float(w) for w in v)

    @model_validator(mode="after")
    def _consistent(self) -> VariantModel:
        if isinstance(self.weights, tuple) and len(self.weights) != self.max_order:
            raise ValueError(
                f"key 'weights' has {len(self.weights)} values but key 'max_order' "
                f"is {self.max_order}"
            )
        method = SMOOTHINGS.get(self.smoothing)
        if method.default_value is None:
            if self.smoothing_value is not None:
                raise ValueError(
                    f"key 'smoothing_value': smoothing {self.smoothing} takes no value"
                    f"{SMOOTHINGS.shadowed(self.smoothing)}"
                )
            return self
        value = self.smoothing_value
        if value is None:
            value = method.default_value
        low, high = method.value_range
        if not (math.isfinite(value) and low <= value <= high):
            raise ValueError(
                f"key 'smoothing_value': {self.smoothing} takes a value from {low:g} to {high:g}"
                f"{SMOOTHINGS.shadowed(self.smoothing)}"
            )
        # the filled-in default is part of the variant, and of its signature
        object.__setattr__(self, "smoothing_value", float(value))
        return self
