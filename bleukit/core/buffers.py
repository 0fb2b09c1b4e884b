"""Integers as typed buffers, what the compiled modules read without a copy."""

from __future__ import annotations

from array import array
from collections.abc import Sequence

#: the row types of packable statistics (resampling columns, chrF's
#: per-segment rows), narrowest first: uint16 while every field is below
#: 2**16 (segments' counts and lengths nearly always are: half the memory),
#: else uint32; the compiled resamplers read either
ROW_TYPES = ("H", "I")


def extend_rows(rows: array[int], values: Sequence[int]) -> array[int]:
    """``rows`` (of a row type) with ``values`` (a row, or an array of rows)
    added: the same array while they fit its type, else a copy in the
    narrowest row type they fit. OverflowError past the widest (or a
    negative value), TypeError for a value that is no int; ``rows`` is then
    as it was."""
    size = len(rows)
    added = (
        values.tolist()
        if isinstance(values, array) and values.typecode != rows.typecode
        else values
    )
    try:
        rows.extend(added)
        return rows
    except OverflowError:
        del rows[size:]
    except TypeError:
        del rows[size:]
        raise
    wider = ROW_TYPES.index(rows.typecode) + 1
    if wider == len(ROW_TYPES):
        raise OverflowError("a statistic past the widest row type")
    return extend_rows(array(ROW_TYPES[wider], rows), added)


def typed_buffer(values: Sequence[int], *codes: str) -> memoryview | array[int]:
    """Integers as a buffer of one of the ``array`` types ``codes``: a
    memoryview or array of one of those formats as it is, else a copy of
    the first type every value fits (OverflowError where none does)."""
    if isinstance(values, memoryview) and values.format in codes:
        return values
    if isinstance(values, array) and values.typecode in codes:
        return values
    for code in codes[:-1]:
        try:
            return array(code, values)
        except OverflowError:
            continue
    return array(codes[-1], values)
