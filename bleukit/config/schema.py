"""Validation of variant configurations: the pydantic models
(``extra="forbid"``, strict) behind ``config.VariantConfig`` and
``config.ChrfConfig``.

Every configuration that is not a built-in name passes through here: a YAML
file, overrides, a family name, a parsed signature. pydantic is imported by
this module alone, and this module only when something needs validating, so
that scoring with a built-in variant starts without it (pydantic builds its
models at import: about a hundred milliseconds, more than the scoring of a
WMT test set). ``variants/table.py`` holds the built-ins as this module
validated them (``scripts/build_variant_table.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ..core.errors import ConfigError, UnknownComponentError
from ..core.smoothing import SMOOTHINGS
from .model import (
    CHRF_METRIC,
    CHRF_SCORING_FIELDS,
    COMPONENT_FIELDS,
    DESCRIPTIVE_FIELDS,
    GLEU_METRIC,
    GLEU_SCORING_FIELDS,
    MAX_ORDER_LIMIT,
    NIST_METRIC,
    NIST_SCORING_FIELDS,
    SCORING_FIELDS,
    TER_METRIC,
    TER_SCORING_FIELDS,
    AnyConfig,
    ChrfConfig,
    GleuConfig,
    NistConfig,
    TerConfig,
    VariantConfig,
    shorten,
)


def _registered(cls: type[BaseModel], v: str, info: ValidationInfo) -> str:
    """A component field's validator: a registered name, made canonical
    (``13a`` -> ``13a.v1``)."""
    try:
        return COMPONENT_FIELDS[str(info.field_name)].entry(v).name
    except UnknownComponentError as exc:
        raise ValueError(str(exc)) from None


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

    _component = field_validator(*COMPONENT_FIELDS)(_registered)

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


class _MetricModel(BaseModel):
    """What the models of metrics other than BLEU share: strict, closed,
    frozen, with the descriptive fields first."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str | None = None
    description: str = ""


class ChrfModel(_MetricModel):
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


class TerModel(_MetricModel):
    """The checks a TER variant passes; its fields are TerConfig's."""

    metric: Literal["ter.v1"]
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool


class NistModel(_MetricModel):
    """The checks a NIST variant passes; its fields are NistConfig's."""

    metric: Literal["nist.v1"]
    tokenizer: str
    split: str
    lowercase: bool | Literal["ascii"]
    max_order: Annotated[int, Field(ge=1, le=MAX_ORDER_LIMIT)]

    _component = field_validator("tokenizer", "split")(_registered)


class GleuModel(_MetricModel):
    """The checks a GLEU variant passes; its fields are GleuConfig's."""

    metric: Literal["gleu.v1"]
    tokenizer: str
    split: str
    lowercase: bool | Literal["ascii"]
    min_order: Annotated[int, Field(ge=1, le=MAX_ORDER_LIMIT)]
    max_order: Annotated[int, Field(ge=1, le=MAX_ORDER_LIMIT)]

    _component = field_validator("tokenizer", "split")(_registered)

    @model_validator(mode="after")
    def _orders(self) -> GleuModel:
        if self.min_order > self.max_order:
            raise ValueError(
                f"key 'min_order' ({self.min_order}) is above key 'max_order' ({self.max_order})"
            )
        return self


def validate(data: dict[str, Any], source: str) -> VariantConfig:
    """A validated BLEU variant from its fields; an error is one
    ConfigError naming ``source`` and the keys."""
    return VariantConfig(**_checked(VariantModel, SCORING_FIELDS, data, source))


def validate_chrf(data: dict[str, Any], source: str) -> ChrfConfig:
    """A validated chrF variant; an error names ``source`` and the key."""
    return ChrfConfig(**_checked(ChrfModel, CHRF_SCORING_FIELDS, data, source))


def validate_ter(data: dict[str, Any], source: str) -> TerConfig:
    """A validated TER variant; an error names ``source`` and the key."""
    return TerConfig(**_checked(TerModel, TER_SCORING_FIELDS, data, source))


def validate_nist(data: dict[str, Any], source: str) -> NistConfig:
    """A validated NIST variant; an error names ``source`` and the key."""
    return NistConfig(**_checked(NistModel, NIST_SCORING_FIELDS, data, source))


def validate_gleu(data: dict[str, Any], source: str) -> GleuConfig:
    """A validated GLEU variant; an error names ``source`` and the key."""
    return GleuConfig(**_checked(GleuModel, GLEU_SCORING_FIELDS, data, source))


#: each non-BLEU metric's validation, by its versioned name
_VALIDATORS: dict[str, Callable[[dict[str, Any], str], Any]] = {
    CHRF_METRIC: validate_chrf,
    TER_METRIC: validate_ter,
    NIST_METRIC: validate_nist,
    GLEU_METRIC: validate_gleu,
}


def validate_any(data: dict[str, Any], source: str) -> AnyConfig:
    """A validated variant of the metric the data's ``metric`` key names
    (none: BLEU)."""
    if "metric" not in data:
        return validate(data, source)
    check = _VALIDATORS.get(data["metric"]) if isinstance(data["metric"], str) else None
    if check is None:
        known = ", ".join(repr(m) for m in _VALIDATORS)
        raise ConfigError(f"{source}: key 'metric': expected one of {known} (or no key: BLEU)")
    config: AnyConfig = check(data, source)
    return config


def _checked(
    model: type[BaseModel], scoring: tuple[str, ...], data: dict[str, Any], source: str
) -> dict[str, Any]:
    try:
        return dict(model(**data))
    except ValidationError as exc:
        allowed = [*DESCRIPTIVE_FIELDS, "extends", *scoring]
        raise ConfigError(f"{source}: {format_validation_error(exc, allowed)}") from None
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{source}: {exc}") from None


#: the most problems, and names of keys, an error line lists
MAX_LISTED = 6


def _keys(names: list[str]) -> str:
    shown = ", ".join(repr(shorten(n)) for n in names[:MAX_LISTED])
    more = len(names) - MAX_LISTED
    return f"{shown} and {more} more" if more > 0 else shown


def format_validation_error(exc: ValidationError, allowed: list[str]) -> str:
    """One line, grouped by top-level key; the alternatives of a union
    (``lowercase: bool | "ascii"``) are joined with "or". Unknown keys are
    listed together, as are missing ones, and no more than MAX_LISTED of
    anything: a large foreign YAML file gives one readable line, not a
    megabyte of it."""
    by_key: dict[str, list[str]] = {}
    unknown: list[str] = []
    missing: list[str] = []
    for err in exc.errors():
        key = str(err["loc"][0]) if err["loc"] else ""
        if err["type"] == "extra_forbidden":
            unknown.append(key)
            continue
        if err["type"] == "missing":
            missing.append(key)
            continue
        msg = err["msg"].removeprefix("Value error, ")
        messages = by_key.setdefault(key, [])
        if msg not in messages:
            messages.append(msg)
    # a key is quoted as Python quotes it: a newline in it stays on the line
    problems = [
        f"key {shorten(key)!r}: {' or '.join(msgs)}" if key else " or ".join(msgs)
        for key, msgs in by_key.items()
    ]
    if len(problems) > MAX_LISTED:
        problems[MAX_LISTED:] = [f"and {len(problems) - MAX_LISTED} more problems"]
    if unknown:
        what = "key" if len(unknown) == 1 else "keys"
        problems.append(f"{what} {_keys(unknown)}: unknown {what} (allowed: {', '.join(allowed)})")
    if missing:
        what, them = ("key", "it") if len(missing) == 1 else ("keys", "them")
        problems.append(f"{what} {_keys(missing)}: missing (set {them} or use 'extends')")
    return "; ".join(problems)


def validated_builtins() -> dict[str, dict[str, Any]]:
    """Every built-in variant's fields, read from its YAML file and
    validated: what ``variants/table.py`` must hold."""
    from .model import builtin_names, raw_config

    out: dict[str, dict[str, Any]] = {}
    for name in builtin_names():
        data, source = raw_config(name, None)
        out[name] = validate_any(data, source).as_dict()
    return out
