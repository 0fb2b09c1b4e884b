"""Results as pandas DataFrames (``to_frame()`` on a score, a comparison, a
ranking, an analysis and a study), for notebooks. pandas is an optional
extra (``pip install 'bleukit[pandas]'``), imported here only, when a frame
is first asked for: nothing else in bleukit needs it.

Every frame is tidy where a result is a table (one row per system, per
variant, or per bucket and system) and holds plain Python values: scores as
floats, counts as integers, an undefined value as NaN (pandas' missing
float)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import MissingDependencyError


def data_frame(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> Any:
    """A pandas DataFrame of ``rows`` (dicts of one row each), its columns
    in ``columns``' order where given, else in the first row's."""
    try:
        import pandas
    except ImportError:
        raise MissingDependencyError(
            "to_frame() needs pandas: pip install 'bleukit[pandas]'"
        ) from None
    return pandas.DataFrame(list(rows), columns=list(columns) if columns is not None else None)


def number(value: float | None) -> float:
    """A value as a frame holds it: None (undefined, not measured) as NaN."""
    return math.nan if value is None else value
