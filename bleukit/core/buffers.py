"""Integers as typed buffers, what the compiled modules read without a copy."""

from __future__ import annotations

from array import array
from collections.abc import Sequence

#: the row type of packable statistics: uint32, every field in [0, 2**32)
#: (resampling columns, chrF's per-segment rows)
ROW_TYPE = "I"


def typed_buffer(values: Sequence[int], code: str) -> memoryview | array[int]:
    """Integers as a buffer of ``array`` type ``code``: a memoryview of that
    format as it is, else a copy (OverflowError where one does not fit)."""
    if isinstance(values, memoryview) and values.format == code:
        return values
    if isinstance(values, array) and values.typecode == code:
        return values
    return array(code, values)
