"""Confidence intervals and paired significance tests from additive segment
statistics: resampling sums per-segment ``Stats``, nothing is re-tokenized.

Tests, with sacrebleu's defaults and p-value formula:

* paired bootstrap resampling (Koehn 2004): 1000 resamples of the segments,
  the same resamples for the baseline and every system; the p-value is
  ``(c + 1) / (S + 1)`` where ``c`` counts resamples whose centred absolute
  score difference exceeds the observed one;
* paired approximate randomization (Riezler & Maxwell 2005): 10000 trials,
  each swapping every segment between the two systems with probability 1/2;
  ``c`` counts trials whose absolute difference exceeds the observed one.

Two modes:

* ``compat="none"`` (default): Python's ``random.Random(seed)`` draws the
  resamples, sums are exact integers, and a confidence interval is the
  percentile interval at any level. NumPy is never needed and never changes
  a number.
* ``compat="sacrebleu"``: NumPy's ``default_rng(seed)`` draws exactly the
  resamples sacrebleu 2.6.0 draws, bootstrap sums are float32 as in
  sacrebleu, and intervals are sacrebleu's (``n // 40`` order statistics,
  reported as mean ± half-width). The p-values and intervals equal
  sacrebleu's for the same inputs. Needs NumPy (``pip install 'bleukit[numpy]'``).
"""

from __future__ import annotations

import math
import random
import statistics
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress
from typing import TYPE_CHECKING, Literal

from .engine import accelerator
from .errors import BleukitError
from .stats import Stats, corpus_sum

if TYPE_CHECKING:
    from .score import BleuResult
    from .variant import Variant

TestName = Literal["bs", "ar"]
Compat = Literal["none", "sacrebleu"]

DEFAULT_SEED = 12345
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
#: bootstrap resamples for intervals when the test is approximate randomization
DEFAULT_CONFIDENCE_SAMPLES = 1000
ALPHA = 0.05


@dataclass(frozen=True)
class SignificanceSpec:
    """How intervals and p-values were computed; part of the signature."""

    test: TestName | None = "bs"
    samples: int = 1000
    seed: int = DEFAULT_SEED
    level: float = 0.95
    compat: Compat = "none"
    confidence_samples: int = DEFAULT_CONFIDENCE_SAMPLES

    def __post_init__(self) -> None:
        if self.samples < 1 or self.confidence_samples < 1:
            raise BleukitError("the number of samples must be at least 1")
        if not 0 < self.level < 1:
            raise BleukitError(f"confidence level must be between 0 and 1, not {self.level}")
        if self.compat == "sacrebleu" and self.level != 0.95:
            raise BleukitError("--compat sacrebleu computes 95% intervals only (as sacrebleu)")
        if self.compat == "sacrebleu" and self.seed == 0:
            # sacrebleu's PairedTest turns seed 0 into "no seed" (random resamples)
            raise BleukitError(
                "--compat sacrebleu cannot use seed 0: sacrebleu treats it as unseeded"
            )

    @property
    def bootstrap_samples(self) -> int:
        """Resamples behind the intervals."""
        return self.samples if self.test in ("bs", None) else self.confidence_samples


@dataclass(frozen=True)
class Interval:
    """A bootstrap confidence interval of a score."""

    low: float
    high: float
    mean: float
    level: float

    @property
    def half_width(self) -> float:
        return 0.5 * (self.high - self.low)


@dataclass(frozen=True)
class SystemResult:
    """One system's score, interval and p-value against the baseline."""

    system: str
    result: BleuResult
    interval: Interval | None
    p_value: float | None = None
    baseline: bool = False
    scores: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @property
    def significant(self) -> bool:
        return self.p_value is not None and self.p_value < ALPHA


# ------------------------------------------------------------ resampling


# Field width when a segment's statistics are packed into one integer: a sum
# of at most 2**31 segments of values below 2**32 never carries into the next
# field, so one big-integer addition adds every statistic at once.
_FIELD_BITS = 64
_FIELD_MASK = (1 << _FIELD_BITS) - 1


class _Columns:
    """Per-segment statistics as columns, for fast sums over resamples.

    When every statistic is a small non-negative integer (always, except with
    the ``average`` reference length, whose lengths are fractions) each
    segment is also packed into one integer, fields ``_FIELD_BITS`` wide: a
    resample is then summed with one ``sum`` of integers instead of one per
    column. The result is the same exact integers either way.
    """

    def __init__(self, segments: Sequence[Stats], order: int) -> None:
        self.order = order
        self.n = len(segments)
        self.cols = [
            [s.sys_len for s in segments],
            [s.ref_len for s in segments],
            *([s.counts[k] for s in segments] for k in range(order)),
            *([s.totals[k] for s in segments] for k in range(order)),
        ]
        self.last = segments[-1]
        packable = self.n < 2**31 and all(
            type(v) is int and 0 <= v < 2**32 for col in self.cols for v in col
        )
        self.packed = (
            [
                sum(v << (_FIELD_BITS * k) for k, v in enumerate(values))
                for values in zip(*self.cols)
            ]
            if packable
            else None
        )

    def unpack(self, total: int) -> list[int]:
        return [(total >> (_FIELD_BITS * k)) & _FIELD_MASK for k in range(len(self.cols))]

    def to_stats(self, sums: Sequence) -> Stats:
        o = self.order
        last = self.last
        return Stats(
            sums[0],
            sums[1],
            tuple(sums[2 : 2 + o]),
            tuple(sums[2 + o :]),
            self.n,
            last.last_len,
            last.last_counts,
            last.last_totals,
        )

    def resample(self, idx: Sequence[int]) -> Stats:
        if self.packed is not None:
            return self.to_stats(self.unpack(sum(map(self.packed.__getitem__, idx))))
        return self.to_stats([sum(map(col.__getitem__, idx)) for col in self.cols])

    def total(self) -> list:
        return [sum(col) for col in self.cols]

    def rows(self) -> bytes:
        """The statistics as int64, segment by segment (for ``_accel``)."""
        return array("q", chain.from_iterable(zip(*self.cols))).tobytes()


def _percentile_interval(scores: list[float], level: float) -> Interval:
    ordered = sorted(scores)
    n = len(ordered)
    # for level 0.95 and 1000 resamples this is sacrebleu's n // 40 = 25;
    # the epsilon keeps 1000 * (1 - 0.9) / 2 = 49.999... at 50
    lower = math.floor(n * (1 - level) / 2 + 1e-9)
    upper = n - lower - 1
    # the exact sum divided by n rounds, and for equal scores it can land an
    # ulp above them all: the mean of numbers lies within their range
    mean = min(max(math.fsum(ordered) / n, ordered[0]), ordered[-1])
    return Interval(ordered[lower], ordered[upper], mean, level)


def _p_value(sample_stats: Sequence[float], observed: float) -> float:
    """(c + 1) / (S + 1), with c the samples at least as extreme as observed.

    sacrebleu counts only samples strictly greater (``>``), so two identical
    systems get p = 1 / (S + 1) and are "significantly different"; counting
    ties (``>=``) gives them p = 1. The two agree whenever no sample ties the
    observed difference. ``compat="sacrebleu"`` keeps sacrebleu's ``>``.
    """
    c = sum(1 for s in sample_stats if s >= observed)
    return (c + 1) / (len(sample_stats) + 1)


class _Draws:
    """Random draws made once from the seed and shared by every system of a
    test (paired). The compiled engine makes them in C (``_accel``: CPython's
    Mersenne Twister run from the same state, so the very same draws) and
    sums the statistics over them; the reference uses ``random`` and sums in
    Python."""

    def __init__(self, variant: Variant, n: int, count: int, seed: int | None) -> None:
        self.n, self.count = n, count
        self.accel = accelerator() if variant.engine == "c" else None
        self.state = random.Random(seed).getstate()[1]

    def rng(self) -> random.Random:
        """A generator at the seed's state."""
        rng = random.Random()
        rng.setstate((3, self.state, None))
        return rng


class _Bootstrap(_Draws):
    """The bootstrap resamples: ``random.Random(seed).choices(range(n), k=n)``,
    ``count`` times."""

    def __init__(self, variant: Variant, n: int, count: int, seed: int | None) -> None:
        super().__init__(variant, n, count, seed)
        self._indices: list[list[int]] | None = None

    def indices(self) -> list[list[int]]:
        if self._indices is None:
            rng, population = self.rng(), range(self.n)
            self._indices = [rng.choices(population, k=self.n) for _ in range(self.count)]
        return self._indices

    def resamples(self, systems: Sequence[_Columns]) -> list[Iterator[Stats]]:
        """Per system, its statistics summed over each resample."""
        if self.accel is None or any(c.packed is None for c in systems):
            return [map(c.resample, self.indices()) for c in systems]
        width = len(systems[0].cols)
        rows = b"".join(c.rows() for c in systems)
        sums = self.accel.bootstrap_sums(self.state, rows, width, self.count, len(systems))
        flat = memoryview(sums).cast("q").tolist()
        size = self.count * width
        return [
            (cols.to_stats(flat[i : i + width]) for i in range(k * size, (k + 1) * size, width))
            for k, cols in enumerate(systems)
        ]


def _score_all(variant: Variant, systems: Sequence[_Columns], boot: _Bootstrap) -> list:
    """Per system, the score of every resample."""
    return [list(map(variant.score_value, it)) for it in boot.resamples(systems)]


# ------------------------------------------------------------ entry points


def _require_numpy():
    try:
        import numpy
    except ImportError:  # an optional extra, named in the message
        raise BleukitError(
            "--compat sacrebleu draws resamples with NumPy's generator, as sacrebleu does; "
            "install it with: pip install 'bleukit[numpy]'"
        ) from None
    return numpy


def _check_compat(variant: Variant) -> None:
    if not variant.signature(1).sacrebleu_compatible:
        raise BleukitError(
            f"--compat sacrebleu needs a variant that sacrebleu computes; {variant.name} "
            "uses components sacrebleu does not have"
        )


def confidence(
    variant: Variant,
    segments: Sequence[Stats],
    nrefs: int | str,
    spec: SignificanceSpec,
) -> SystemResult:
    """Bootstrap interval of one system (``bleukit score --confidence``)."""
    cols = _Columns(segments, variant.stat_order)
    result = variant.score_stats(cols.to_stats(cols.total()), nrefs)
    samples = spec.bootstrap_samples
    if spec.compat == "sacrebleu":
        _check_compat(variant)
        np = _require_numpy()
        idxs = np.random.default_rng(spec.seed).choice(
            len(segments), size=(samples, len(segments)), replace=True
        )
        scores = _float32_scores(variant, segments, idxs, nrefs)
        # sacrebleu's Score.estimate_ci: statistics.mean over the sorted scores
        interval = _sacrebleu_interval(scores, statistics.mean(sorted(scores)))
    else:
        boot = _Bootstrap(variant, len(segments), samples, spec.seed)
        (scores,) = _score_all(variant, [cols], boot)
        interval = _percentile_interval(scores, spec.level)
    return SystemResult("", result, interval, scores=tuple(scores))


def paired_test(
    variant: Variant,
    systems: Sequence[tuple[str, Sequence[Stats]]],
    nrefs: int | str,
    spec: SignificanceSpec,
) -> list[SystemResult]:
    """The first system is the baseline; every other is tested against it."""
    if len(systems) < 2:
        raise BleukitError("a paired test needs a baseline and at least one more system")
    lengths = {len(segs) for _, segs in systems}
    if len(lengths) != 1:
        raise BleukitError("all systems must have the same number of segments")
    if spec.test not in ("bs", "ar"):
        raise BleukitError(f"unknown paired test {spec.test!r} (use 'bs' or 'ar')")
    if spec.compat == "sacrebleu":
        _check_compat(variant)
        return _paired_sacrebleu(variant, systems, nrefs, spec)
    return _paired_exact(variant, systems, nrefs, spec)


def _paired_exact(variant, systems, nrefs, spec) -> list[SystemResult]:
    n = len(systems[0][1])
    order = variant.stat_order
    columns = [_Columns(segs, order) for _, segs in systems]
    results = [variant.score_stats(c.to_stats(c.total()), nrefs) for c in columns]
    # intervals: the same bootstrap resamples for every system
    resamples = _Bootstrap(variant, n, spec.bootstrap_samples, spec.seed)
    boot = _score_all(variant, columns, resamples)
    out = [
        SystemResult(
            systems[0][0],
            results[0],
            _percentile_interval(boot[0], spec.level),
            baseline=True,
            scores=tuple(boot[0]),
        )
    ]
    if spec.test == "bs":
        for (name, _), res, scores in zip(systems[1:], results[1:], boot[1:]):
            diffs = [abs(s - b) for s, b in zip(scores, boot[0])]
            mean = math.fsum(diffs) / len(diffs)
            p = _p_value([d - mean for d in diffs], abs(results[0].score - res.score))
            out.append(
                SystemResult(
                    name, res, _percentile_interval(scores, spec.level), p, scores=tuple(scores)
                )
            )
        return out
    trials = _Randomization(variant, n, spec.samples, spec.seed)
    base = columns[0]
    for (name, _), cols, res, scores in zip(systems[1:], columns[1:], results[1:], boot[1:]):
        stats_ab = [
            abs(
                variant.score_value(base.to_stats(side_a))
                - variant.score_value(base.to_stats(side_b))
            )
            for side_a, side_b in trials.sides(base, cols)
        ]
        p = _p_value(stats_ab, abs(results[0].score - res.score))
        out.append(
            SystemResult(
                name, res, _percentile_interval(scores, spec.level), p, scores=tuple(scores)
            )
        )
    return out


class _Randomization(_Draws):
    """The trials of approximate randomization: per trial, ``getrandbits(n)``
    says which segments swap (bit n-1-j for segment j)."""

    def __init__(self, variant: Variant, n: int, count: int, seed: int | None) -> None:
        super().__init__(variant, n, count, seed)
        self._selections: list[tuple[bytes, bytes]] | None = None

    def selections(self) -> list[tuple[bytes, bytes]]:
        """Per trial, the swapped segments as 0/1 bytes for
        ``itertools.compress``, and the complement."""
        if self._selections is None:
            rng = self.rng()
            self._selections = []
            for _ in range(self.count):
                bits = format(rng.getrandbits(self.n), f"0{self.n}b").encode("ascii")
                self._selections.append((bits.translate(_SELECTED), bits.translate(_REST)))
        return self._selections

    def sides(self, base: _Columns, other: _Columns) -> Iterator[tuple[list, list]]:
        """Per trial, the summed statistics of the two shuffled systems: side
        A takes the baseline's selected segments and the other system's rest."""
        base_total, other_total = base.total(), other.total()
        both = [a + b for a, b in zip(base_total, other_total)]
        if self.accel is not None and base.packed is not None and other.packed is not None:
            width = len(base.cols)
            sums = self.accel.ar_sums(self.state, base.rows(), other.rows(), width, self.count)
            flat = memoryview(sums).cast("q").tolist()
            for i in range(0, len(flat), width):
                side_a = flat[i : i + width]
                yield side_a, [t - a for t, a in zip(both, side_a)]
            return
        if base.packed is not None and other.packed is not None:
            for sel, rest in self.selections():
                packed = sum(compress(base.packed, sel)) + sum(compress(other.packed, rest))
                side_a = base.unpack(packed)
                yield side_a, [t - a for t, a in zip(both, side_a)]
            return
        deltas = [[b - s for b, s in zip(bc, sc)] for bc, sc in zip(base.cols, other.cols)]
        for sel, _ in self.selections():
            side_a = [t + sum(compress(d, sel)) for t, d in zip(other_total, deltas)]
            yield side_a, [t - a for t, a in zip(both, side_a)]


_SELECTED = bytes.maketrans(b"01", b"\x00\x01")
_REST = bytes.maketrans(b"01", b"\x01\x00")


# ----------------------------------------------- sacrebleu 2.6.0 compatibility


def _sacrebleu_interval(scores: Sequence[float], mean: float) -> Interval:
    ordered = sorted(scores)
    n = len(ordered)
    lower = n // 40
    return Interval(ordered[lower], ordered[n - lower - 1], float(mean), 0.95)


def _matrix(segments: Sequence[Stats], order: int) -> list[list[int]]:
    """sacrebleu's per-segment list: [hyp_len, ref_len, correct..., total...]."""
    return [[s.sys_len, s.ref_len, *s.counts[:order], *s.totals[:order]] for s in segments]


def _float32_scores(variant, segments, idxs, nrefs) -> list[float]:
    """Scores of bootstrap resamples summed in float32, as sacrebleu's
    ``_bootstrap_resample``: ``sys_len`` and ``ref_len`` go back to ints, the
    counts stay float32 scalars, so the precisions are float32 arithmetic
    exactly as in sacrebleu (deliberate compatibility quirk)."""
    import numpy as np

    order = variant.config.max_order
    stats32 = np.array(_matrix(segments, order), dtype="float32")
    scores = []
    last = segments[-1]
    for sums in stats32[idxs].sum(axis=1):
        row = list(sums)
        stats = Stats(
            int(row[0]),
            int(row[1]),
            tuple(row[2 : 2 + order]),
            tuple(row[2 + order :]),
            len(segments),
            last.last_len,
            last.last_counts,
            last.last_totals,
        )
        scores.append(variant.score_stats(stats, nrefs).score)
    return scores


def _paired_sacrebleu(variant, systems, nrefs, spec) -> list[SystemResult]:
    np = _require_numpy()
    n = len(systems[0][1])
    order = variant.config.max_order
    base_name, base_segs = systems[0]
    base_result = variant.score_stats(corpus_sum(base_segs, variant.stat_order), nrefs)
    # sacrebleu: the baseline's interval from _bootstrap_resample, a fresh generator
    conf_n = spec.bootstrap_samples
    base_idxs = np.random.default_rng(spec.seed).choice(n, size=(conf_n, n), replace=True)
    base_scores = np.array(_float32_scores(variant, base_segs, base_idxs, nrefs))
    out = [
        SystemResult(
            base_name,
            base_result,
            _sacrebleu_interval(base_scores, np.sort(base_scores).mean()),
            baseline=True,
            scores=tuple(base_scores),
        )
    ]
    for name, segs in systems[1:]:
        result = variant.score_stats(corpus_sum(segs, variant.stat_order), nrefs)
        diff = abs(base_result.score - result.score)
        # every system's test starts a fresh generator with the same seed
        rng = np.random.default_rng(spec.seed)
        if spec.test == "bs":
            idxs = rng.choice(n, size=(spec.samples, n), replace=True)
            sys_scores = np.array(_float32_scores(variant, segs, idxs, nrefs))
            bl_scores = np.array(_float32_scores(variant, base_segs, idxs, nrefs))
            sample_diffs = np.abs(sys_scores - bl_scores)
            p = _np_p_value(np, sample_diffs - sample_diffs.mean(), diff)
        else:
            pos_sel = rng.integers(2, size=(spec.samples, n), dtype=bool)
            bs_idxs = rng.choice(n, size=(conf_n, n), replace=True)
            bl = np.array(_matrix(base_segs, order))
            sy = np.array(_matrix(segs, order))
            shuf_a = pos_sel @ bl + ~pos_sel @ sy
            shuf_b = ~pos_sel @ bl + pos_sel @ sy
            scores_a = np.array([_int_score(variant, r, order, nrefs) for r in shuf_a.tolist()])
            scores_b = np.array([_int_score(variant, r, order, nrefs) for r in shuf_b.tolist()])
            p = _np_p_value(np, np.abs(scores_a - scores_b), diff)
            sys_scores = np.array(_float32_scores(variant, segs, bs_idxs, nrefs))
        interval = _sacrebleu_interval(sys_scores, np.sort(sys_scores).mean())
        out.append(SystemResult(name, result, interval, p, scores=tuple(sys_scores)))
    return out


def _int_score(variant, row: list[int], order: int, nrefs) -> float:
    stats = Stats(row[0], row[1], tuple(row[2 : 2 + order]), tuple(row[2 + order :]), 1)
    return variant.score_stats(stats, nrefs).score


def _np_p_value(np, stats, observed: float) -> float:
    # sacrebleu's _compute_p_value, strict ">" (compatibility quirk, see _p_value)
    c = np.sum(stats > observed).item()
    return (c + 1) / (len(stats) + 1)
