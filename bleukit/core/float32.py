"""IEEE single precision, as NumPy 2 computes with ``numpy.float32``, without
NumPy: what ``--compat sacrebleu`` needs to give sacrebleu's bootstrap
numbers bit for bit (sacrebleu 2.6.0 sums its resamples in float32 and
scores those sums with its own Python code, so the scores carry float32
arithmetic).

* ``to_f32``: a float rounded to the nearest float32 (ties to even), as C's
  ``(float)`` cast and NumPy's ``astype("float32")`` round; beyond the
  float32 range, infinity.
* ``F32``: a float32 scalar with NumPy 2's promotion rules (NEP 50): an
  operation with another ``F32`` is done in float32; a Python ``int`` or
  ``float`` is a "weak" scalar, converted to float32 first, so
  ``100.0 * F32(x)`` is a float32 product and ``F32(0.1) == 0.1``. One
  operation computed in double and rounded once to float32 is the correctly
  rounded float32 result (a double holds more than twice float32's bits),
  which is what the hardware gives NumPy. Division by zero gives
  infinity or NaN, as NumPy does (with a warning there), not an exception.
* ``pairwise_sum``: NumPy's summation of a contiguous float32 or float64
  array (``add.reduce``, so ``sum`` and ``mean``): blocks of at most 128
  values summed with eight accumulators, larger arrays split in halves
  (``numpy/_core/src/umath/loops_utils.h.src``, ``pairwise_sum``).

``tests/test_float32.py`` checks each against NumPy where NumPy is installed
(``tox -e oracle``), on values Hypothesis draws.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

_PACK = struct.Struct("f")
#: NumPy's pairwise summation block
_BLOCK = 128


_pack, _unpack = _PACK.pack, _PACK.unpack


def to_f32(x: float) -> float:
    """``x`` rounded to the nearest float32, as a float."""
    try:
        return _unpack(_pack(x))[0]  # type: ignore[no-any-return]
    except OverflowError:  # past float32's largest: C's cast gives infinity
        return math.copysign(math.inf, x)


def _weak(other: object) -> float | None:
    """The float32 value of the other operand: an ``F32``, or a Python
    ``int``/``float`` converted to float32 (NEP 50: Python scalars are weak);
    None for anything else (the operation is not defined)."""
    kind = type(other)
    if kind is F32:
        return other.value  # type: ignore[attr-defined, no-any-return]
    if kind is float or kind is int or kind is bool:
        return to_f32(float(other))  # type: ignore[arg-type]
    if isinstance(other, F32):
        return other.value
    if isinstance(other, (int, float)):
        return to_f32(float(other))
    return None


def _divide(a: float, b: float) -> float:
    """IEEE division (NumPy: infinity or NaN where the divisor is zero)."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


class F32:
    """A float32 scalar (see the module docstring). ``value`` is the float
    holding it exactly."""

    __slots__ = ("value",)

    value: float

    def __init__(self, x: Any = 0.0) -> None:
        self.value = x.value if isinstance(x, F32) else to_f32(float(x))

    @staticmethod
    def _of(value: float) -> F32:
        out = _new(F32)
        out.value = to_f32(value)
        return out

    # ------------------------------------------------------------ arithmetic

    def _binary(self, other: object, op: Any, reflected: bool) -> Any:
        b = _weak(other)
        if b is None:
            return NotImplemented
        out = _new(F32)
        out.value = to_f32(op(b, self.value) if reflected else op(self.value, b))
        return out

    def __add__(self, other: object) -> Any:
        return self._binary(other, float.__add__, False)

    def __radd__(self, other: object) -> Any:
        return self._binary(other, float.__add__, True)

    def __sub__(self, other: object) -> Any:
        return self._binary(other, float.__sub__, False)

    def __rsub__(self, other: object) -> Any:
        return self._binary(other, float.__sub__, True)

    def __mul__(self, other: object) -> Any:
        return self._binary(other, float.__mul__, False)

    def __rmul__(self, other: object) -> Any:
        return self._binary(other, float.__mul__, True)

    def __truediv__(self, other: object) -> Any:
        return self._binary(other, _divide, False)

    def __rtruediv__(self, other: object) -> Any:
        return self._binary(other, _divide, True)

    def __neg__(self) -> F32:
        return F32._of(-self.value)

    def __pos__(self) -> F32:
        return self

    def __abs__(self) -> F32:
        return F32._of(abs(self.value))

    # ----------------------------------------------------------- comparisons

    def _compare(self, other: object, op: Any) -> Any:
        b = _weak(other)
        if b is None:
            return NotImplemented
        return op(self.value, b)

    def __eq__(self, other: object) -> Any:
        return self._compare(other, float.__eq__)

    def __ne__(self, other: object) -> Any:
        return self._compare(other, float.__ne__)

    def __lt__(self, other: object) -> Any:
        return self._compare(other, float.__lt__)

    def __le__(self, other: object) -> Any:
        return self._compare(other, float.__le__)

    def __gt__(self, other: object) -> Any:
        return self._compare(other, float.__gt__)

    def __ge__(self, other: object) -> Any:
        return self._compare(other, float.__ge__)

    def __hash__(self) -> int:
        return hash(self.value)

    # ----------------------------------------------------------- conversions

    def __float__(self) -> float:
        return self.value

    def __int__(self) -> int:
        return int(self.value)

    def __bool__(self) -> bool:
        return self.value != 0

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __repr__(self) -> str:
        return f"F32({self.value!r})"

    def as_integer_ratio(self) -> tuple[int, int]:
        """The exact ratio (``statistics.mean`` reads it)."""
        return self.value.as_integer_ratio()

    def is_integer(self) -> bool:
        return self.value.is_integer()


_new = object.__new__


def pairwise_sum(values: Sequence[float], single: bool) -> float:
    """NumPy's sum of a contiguous array of ``values`` (float32 where
    ``single``, else float64): the add reduction starts from its identity,
    0, and adds the pairwise sum of the values."""
    add = (lambda a, b: to_f32(a + b)) if single else float.__add__

    def block(lo: int, n: int) -> float:
        if n < 8:
            # -0.0: a sum of only -0.0 stays -0.0 (NumPy starts there)
            res = -0.0
            for i in range(lo, lo + n):
                res = add(res, values[i])
            return res
        if n <= _BLOCK:
            r = [values[lo + j] for j in range(8)]
            i = 8
            while i < n - n % 8:
                for j in range(8):
                    r[j] = add(r[j], values[lo + i + j])
                i += 8
            res = add(add(add(r[0], r[1]), add(r[2], r[3])), add(add(r[4], r[5]), add(r[6], r[7])))
            for k in range(i, n):
                res = add(res, values[lo + k])
            return res
        half = n // 2
        half -= half % 8
        return add(block(lo, half), block(lo + half, n - half))

    return add(0.0, block(0, len(values))) if values else 0.0
