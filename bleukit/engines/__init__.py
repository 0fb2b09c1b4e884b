"""Engines: the per-segment statistics of many segments at once, behind one
interface (``base.Engine``), chosen here and nowhere else.

* ``python`` (``python.py``), the reference: one segment at a time on n-gram
  Counters; runs anywhere;
* ``c`` (``compiled.py``), the compiled ``bleukit._accel``: blocks of lines
  tokenized at once and counted in C, in threads;
* third-party engines register under the entry-point group
  ``bleukit.engines`` (a subclass of ``Engine``; see docs/plugins.md).

``BLEUKIT_ENGINE`` (or ``load_variant(..., engine=...)``) chooses: ``auto``
(the default: ``c`` when it is built and runs the variant's tokenization,
else ``python``), or an engine by name, whose absence or inability is then
an error. Engines give identical statistics, so the choice is not part of
the signature.
"""

from __future__ import annotations

import os

from ..core.errors import ConfigError, MissingDependencyError
from ..core.registry import Registry
from ..tokenizers import Tokenization
from .base import Engine, check_engine
from .compiled import CompiledEngine
from .python import PythonEngine
from .tables import ReferenceWeigher, SegmentTable, WeighedReferences, select_rows, table_rows
from .threads import call_limited as call_threads
from .threads import limited as limited_threads
from .threads import ordered_map, workers

__all__ = [
    "ENGINES",
    "Engine",
    "ReferenceWeigher",
    "SegmentTable",
    "WeighedReferences",
    "call_threads",
    "describe",
    "limited_threads",
    "ordered_map",
    "requested_engine",
    "resolve_engine",
    "select_rows",
    "table_rows",
    "workers",
]

ENGINES: Registry[Engine] = Registry("engine", "bleukit.engines", check_engine, versioned=False)
ENGINES.register("python", PythonEngine(), "the reference engine, pure Python")
ENGINES.register("c", CompiledEngine(), "the compiled kernel bleukit._accel, in threads")

AUTO = "auto"


def requested_engine(requested: str | None = None) -> str:
    """The engine asked for: ``requested``, else ``BLEUKIT_ENGINE``, else
    ``auto``; an unknown name is an error."""
    value = requested or os.environ.get("BLEUKIT_ENGINE", AUTO)
    if value != AUTO and value not in ENGINES.names():
        what = f"engine {value!r}" if requested else f"BLEUKIT_ENGINE={value!r}"
        raise ConfigError(f"{what}: expected {AUTO} or one of {', '.join(ENGINES.names())}")
    return value


def resolve_engine(requested: str | None, tokenization: Tokenization) -> Engine:
    """The engine that runs a tokenization: the one asked for (None: the
    environment's), or with ``auto`` the compiled engine where it is built
    and runs the tokenization, else the reference engine, which runs any."""
    name = requested_engine(requested)
    if name == AUTO:
        compiled = ENGINES.get("c")
        if compiled.unavailable() is None and compiled.unsupported(tokenization) is None:
            return compiled
        return ENGINES.get("python")
    engine = ENGINES.get(name)
    missing = engine.unavailable()
    if missing is not None:
        raise MissingDependencyError(missing)
    unsupported = engine.unsupported(tokenization)
    if unsupported is not None:
        raise ConfigError(unsupported)
    return engine


def describe() -> str:
    """Which engine runs by default here, and why (``bleukit components``);
    a bad ``BLEUKIT_ENGINE`` is an error."""
    name = requested_engine()
    if name == AUTO:
        compiled = ENGINES.get("c")
        if compiled.unavailable() is None:
            return f"{compiled.describe()}; BLEUKIT_ENGINE={AUTO}"
        return "python (the reference engine); bleukit._accel is not built"
    engine = ENGINES.get(name)
    missing = engine.unavailable()
    if missing is not None:
        raise MissingDependencyError(missing)
    return f"{engine.describe()}; BLEUKIT_ENGINE={name}"
