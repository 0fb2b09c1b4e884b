"""NumPy's ``default_rng(seed)`` stream, without NumPy: the draws of
sacrebleu 2.6.0's resampling (``--compat sacrebleu``), bit for bit.

sacrebleu draws its bootstrap resamples with
``np.random.default_rng(seed).choice(n, size=(S, n))`` and its
randomization trials with ``rng.integers(2, size=(S, n), dtype=bool)``.
NumPy's ``default_rng`` is PCG64 (O'Neill's 128-bit LCG with the XSL-RR
output) seeded through ``SeedSequence``; what those calls draw follows from
NumPy's source (``numpy/random``: ``bit_generator.pyx``, ``_pcg64.pyx``,
``src/pcg64/pcg64.h``, ``_generator.pyx``, ``src/distributions``):

* ``SeedSequence(seed)``: the seed as 32-bit words (lowest first), hashed
  into a pool of four words, from which ``generate_state(4, uint64)`` makes
  the PCG64 seed (state, increment);
* ``next_uint32``: each 64-bit output serves two draws, its low half first;
* ``choice(n)`` is ``integers(0, n)`` with int64: for n - 1 below 2**32,
  Lemire's multiply-and-reject on 32-bit draws (``buffered_bounded_lemire_uint32``),
  else on 64-bit draws; n = 1 draws nothing;
* ``integers(2, dtype=bool)``: one 32-bit draw gives 32 booleans, lowest bit
  first (``buffered_bounded_bool``).

This module is the reference (Python integers); the compiled engine runs
the same steps in C (``Engine.sacrebleu_bootstrap``,
``Engine.sacrebleu_randomization``). ``tests/test_pcg64.py`` checks both
against NumPy where it is installed (``tox -e oracle``), and against
committed draws everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .float32 import pairwise_sum, to_f32

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF
_M128 = (1 << 128) - 1
#: SeedSequence's hash constants (bit_generator.pyx)
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_POOL = 4
#: PCG64's multiplier (pcg64.h, PCG_DEFAULT_MULTIPLIER_128)
_MULT = (2549297995355413924 << 64) | 4865540595714422341


def _hashmix(value: int, const: list[int]) -> int:
    value ^= const[0]
    const[0] = (const[0] * _MULT_A) & _M32
    value = (value * const[0]) & _M32
    return value ^ (value >> 16)


def _mix(x: int, y: int) -> int:
    result = (_MIX_L * x - _MIX_R * y) & _M32
    return result ^ (result >> 16)


def _words(seed: int) -> list[int]:
    """A non-negative seed as 32-bit words, lowest first (0 is one word)."""
    words = []
    while True:
        words.append(seed & _M32)
        seed >>= 32
        if not seed:
            return words


def seed_sequence_state(seed: int, words: int = 4) -> list[int]:
    """``SeedSequence(seed).generate_state(words, np.uint64)``."""
    entropy = _words(seed)
    const = [_INIT_A]
    pool = [_hashmix(entropy[i] if i < len(entropy) else 0, const) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], const))
    for src in range(_POOL, len(entropy)):
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], _hashmix(entropy[src], const))
    hash_const = _INIT_B
    out32 = []
    for k in range(2 * words):
        value = pool[k % _POOL] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _M32
        value = (value * hash_const) & _M32
        out32.append(value ^ (value >> 16))
    # little-endian pairs of 32-bit words
    return [out32[2 * k] | (out32[2 * k + 1] << 32) for k in range(words)]


@dataclass(frozen=True)
class PcgState:
    """A PCG64 generator's whole state: the 128-bit LCG state and increment,
    and the high half of a 64-bit output kept for the next 32-bit draw."""

    state: int
    inc: int
    has_uint32: bool = False
    uinteger: int = 0

    @classmethod
    def from_seed(cls, seed: int | None) -> PcgState:
        """``np.random.default_rng(seed)``'s state; None: fresh entropy (as
        NumPy, 128 random bits)."""
        if seed is None:
            import secrets  # here: it imports hashlib, which scoring never needs

            seed = secrets.randbits(32 * _POOL)
        if seed < 0:
            raise ValueError(f"a seed is 0 or more, not {seed}")
        s0, s1, i0, i1 = seed_sequence_state(seed)
        initstate, initseq = (s0 << 64) | s1, (i0 << 64) | i1
        # pcg_setseq_128_srandom_r
        inc = ((initseq << 1) | 1) & _M128
        state = (inc) & _M128  # one step from 0: 0 * MULT + inc
        state = (state + initstate) & _M128
        state = (state * _MULT + inc) & _M128
        return cls(state, inc)

    def words(self) -> tuple[int, int, int, int, int, int]:
        """The state as the C kernel takes it: state and increment as high
        and low 64-bit halves, then has_uint32 and uinteger."""
        return (self.state >> 64, self.state & _M64, self.inc >> 64, self.inc & _M64,
                int(self.has_uint32), self.uinteger)  # fmt: skip

    @classmethod
    def from_words(cls, w: Sequence[int]) -> PcgState:
        return cls((w[0] << 64) | w[1], (w[2] << 64) | w[3], bool(w[4]), w[5])


class Pcg64:
    """A running PCG64 generator (the reference: Python integers)."""

    def __init__(self, start: PcgState) -> None:
        self.state, self.inc = start.state, start.inc
        self.has_uint32, self.uinteger = start.has_uint32, start.uinteger

    def snapshot(self) -> PcgState:
        return PcgState(self.state, self.inc, self.has_uint32, self.uinteger)

    def next64(self) -> int:
        self.state = (self.state * _MULT + self.inc) & _M128
        high, low = self.state >> 64, self.state & _M64
        rot = high >> 58
        value = high ^ low
        return ((value >> rot) | (value << ((-rot) & 63))) & _M64

    def next32(self) -> int:
        if self.has_uint32:
            self.has_uint32 = False
            return self.uinteger
        value = self.next64()
        self.has_uint32, self.uinteger = True, value >> 32
        return value & _M32

    def below(self, n: int) -> int:
        """One ``integers(0, n)`` (int64) draw, n >= 1: Lemire's method on
        32-bit draws where n - 1 fits in 32 bits, else on 64-bit ones."""
        rng = n - 1
        if rng == 0:
            return 0
        if rng <= _M32:
            return self.next32() if rng == _M32 else _lemire(self.next32, rng, 32)
        return self.next64() if rng == _M64 else _lemire(self.next64, rng, 64)

    def bools(self, count: int) -> Iterator[bool]:
        """``integers(2, size=count, dtype=bool)``: 32 bits a draw, lowest
        first; a new call starts a new buffer, as NumPy's fill does."""
        buf = bits = 0
        for _ in range(count):
            if bits == 0:
                buf, bits = self.next32(), 31
            else:
                buf >>= 1
                bits -= 1
            yield bool(buf & 1)


def _lemire(draw: Callable[[], int], rng: int, bits: int) -> int:
    """A draw below rng + 1 from ``bits``-bit draws, by multiplying and
    rejecting the few that would bias it (Lemire 2019; NumPy's
    ``buffered_bounded_lemire_uint32`` and ``bounded_lemire_uint64``)."""
    mask = (1 << bits) - 1
    excl = rng + 1
    m = draw() * excl
    if (m & mask) < excl:
        threshold = (mask - rng) % excl
        while (m & mask) < threshold:
            m = draw() * excl
    return m >> bits


def bootstrap_sums(
    start: PcgState, rows: Sequence[Sequence[float]], samples: int
) -> list[list[float]]:
    """sacrebleu's bootstrap sums of one system's ``rows`` (one per
    segment): ``choice(n, size=(samples, n))`` drawn from ``start``, each
    resample's rows summed in float32 as NumPy's ``sum(axis=1)`` of
    ``rows.astype(float32)[idxs]`` sums them: one after the other in the
    order drawn (pairwise, where a row has one value). Memory is one
    resample's, whatever the corpus size."""
    gen = Pcg64(start)
    n = len(rows)
    width = len(rows[0]) if rows else 0
    single = [[to_f32(float(x)) for x in row] for row in rows]
    out = []
    for _ in range(samples):
        drawn = [single[gen.below(n)] for _ in range(n)]
        if width == 1:
            # one column: NumPy's reduction runs along the drawn values
            # themselves, and sums them pairwise
            out.append([pairwise_sum([row[0] for row in drawn], True)])
            continue
        acc = [0.0] * width
        for row in drawn:
            acc = [to_f32(a + x) for a, x in zip(acc, row)]
        out.append(acc)
    return out


def randomization_sums(
    start: PcgState, base: Sequence[Sequence[float]], other: Sequence[Sequence[float]], trials: int
) -> tuple[list[list[float]], list[list[float]], PcgState]:
    """sacrebleu's approximate randomization sums: per trial, booleans drawn
    from ``start`` (``integers(2, size=(trials, n), dtype=bool)``, one call);
    side A sums ``base``'s rows where the trial's bit is set and ``other``'s
    elsewhere, side B the reverse (its ``pos_sel @ bl + ~pos_sel @ sy``: each
    product's sum in segment order, then the two added); and the
    generator's state after the trials (sacrebleu draws the interval's
    resamples from it). Integer rows sum exactly, as NumPy's int64 products
    do; float rows (TER's mean reference lengths) in that order, where
    NumPy's float64 product is BLAS's, whose order depends on the library
    NumPy was built with: they agree wherever the sums are exact (one or two
    references), and may differ in the last bit elsewhere."""
    gen = Pcg64(start)
    n = len(base)
    width = len(base[0]) if base else 0
    bits = gen.bools(trials * n)
    sums_a: list[list[float]] = []
    sums_b: list[list[float]] = []
    zero: list[float] = [0] * width  # ints stay ints: integer rows sum exactly
    for _ in range(trials):
        # the four partial sums of the two products, each in segment order
        sel_base, sel_other, rest_base, rest_other = zero, zero, zero, zero
        for k in range(n):
            if next(bits):
                sel_base = [s + v for s, v in zip(sel_base, base[k])]
                sel_other = [s + v for s, v in zip(sel_other, other[k])]
            else:
                rest_base = [s + v for s, v in zip(rest_base, base[k])]
                rest_other = [s + v for s, v in zip(rest_other, other[k])]
        sums_a.append([x + y for x, y in zip(sel_base, rest_other)])
        sums_b.append([x + y for x, y in zip(rest_base, sel_other)])
    return sums_a, sums_b, gen.snapshot()
