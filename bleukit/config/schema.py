"""Validation of variant configurations: what every metric's pydantic
model (``extra="forbid"``, strict, in its package's ``schema`` module) is
built from, and the one function that runs a model and turns its errors
into one ConfigError line.

Every configuration that is not a built-in name passes through here: a YAML
file, overrides, a family name, a parsed signature. pydantic is imported by
these modules alone, and only when something needs validating, so that
scoring with a built-in variant starts without it (pydantic builds its
models at import: about a hundred milliseconds, more than the scoring of a
WMT test set). ``variants/table.py`` holds the built-ins as they were
validated (``scripts/build_variant_table.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo

from ..core.errors import ConfigError, UnknownComponentError
from .model import COMPONENT_FIELDS, DESCRIPTIVE_FIELDS, shorten


def registered(cls: type[BaseModel], v: str, info: ValidationInfo) -> str:
    """A component field's validator: a registered name, made canonical
    (``13a`` -> ``13a.v1``). A model uses it as
    ``field_validator("tokenizer", ...)(registered)``."""
    try:
        return COMPONENT_FIELDS[str(info.field_name)].entry(v).name
    except UnknownComponentError as exc:
        raise ValueError(str(exc)) from None


class MetricModel(BaseModel):
    """What every metric's model shares: strict, closed, frozen, with the
    descriptive fields first."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: str | None = None
    description: str = ""


def checked(
    model: type[BaseModel], scoring: tuple[str, ...], data: Mapping[str, Any], source: str
) -> dict[str, Any]:
    """The fields ``model`` validates ``data`` to; every problem one
    ConfigError naming ``source`` and the keys (``scoring``: the fields a
    variant of this metric may set, listed for an unknown key)."""
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
