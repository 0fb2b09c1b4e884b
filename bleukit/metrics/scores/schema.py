"""The checks external scores' configuration passes (pydantic; imported
only to validate)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import field_validator

from ...config.schema import MetricModel


class ScoresModel(MetricModel):
    """The checks external scores pass; the fields are ScoresConfig's."""

    metric: Literal["scores.v1"]
    label: str
    about: str
    lower_is_better: bool
    sha256: str
    path: str = ""
    systems: tuple[str, ...] = ()

    @field_validator("label", "about")
    @classmethod
    def _text(cls, v: str) -> str:
        # a signature separates its fields with '|' and ends at a line's end
        if "|" in v or any(c in v for c in "\r\n"):
            raise ValueError("must not hold '|' or a line break (the signature keeps it)")
        return v

    @field_validator("label")
    @classmethod
    def _label(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must name the scores")
        return v

    @field_validator("sha256")
    @classmethod
    def _digest(cls, v: str) -> str:
        if not re.fullmatch(r"[0-9a-f]{64}", v):
            raise ValueError("must be a sha256 digest (64 lowercase hex digits)")
        return v
