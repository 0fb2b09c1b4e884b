"""Partial statistics: the exact, additive statistics of some segments
under one variant, as a value that pickles and merges (``a + b``,
``sum(...)``), so that a corpus score is a map-reduce over partitions
(``Variant.partial`` maps, ``+`` reduces, ``Variant.score`` finishes).

* integers only (a Fraction for the ``average`` reference length), so a
  merge in any grouping gives the single-process score exactly;
* the variant's fingerprint travels with the statistics: partials of
  different variants do not merge;
* the empty partial (no segment, no reference count) is neutral, so an empty
  partition changes neither the score nor the signature's ``nrefs``;
* a variant whose smoothing reads the corpus's last segment (NLTK methods
  5-7) merges only partials that know where they start in the corpus
  (``start``): the merged one keeps the statistics of the partial that ends
  last, whatever order the partials arrive in.
"""

from __future__ import annotations

from typing import Any

from .errors import BleukitError, InputError
from .record import Record, field_names
from .reflen import RefLength, is_fraction
from .stats import Stats

#: the statistics a partial holds: BLEU's ``Stats``, or another metric's
#: additive row (chrF's triples; TER's edits and reference length, which
#: is a fraction where segments have several references)
PartialStats = Stats | tuple[RefLength, ...]


class Partial(Record):
    """Statistics of ``segments`` segments under the variant ``fingerprint``
    names; ``nrefs``, the reference counts seen; ``start``/``end``, where the
    segments lie in the corpus (None: unknown); ``ordered``, whether the
    variant reads the last segment, so that merging needs ``start``."""

    fingerprint: str
    stats: PartialStats
    nrefs: frozenset[int]
    segments: int
    start: int | None = None
    end: int | None = None
    ordered: bool = False

    def __post_init__(self) -> None:
        validate(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        # partials travel between processes: an unpickled one is checked
        # as a constructed one is (pickle restores attributes without
        # __init__)
        if not isinstance(state, dict) or set(state) != set(field_names(Partial)):
            raise InputError("invalid partial statistics: the pickle is not a Partial's")
        for key, value in state.items():
            object.__setattr__(self, key, value)
        validate(self)

    @property
    def nrefs_label(self) -> int | str:
        """The signature's ``nrefs``: the count, or ``var``."""
        if len(self.nrefs) == 1:
            return next(iter(self.nrefs))
        return "var" if self.nrefs else 0

    def __add__(self, other: Partial) -> Partial:
        if not isinstance(other, Partial):
            return NotImplemented
        if other.fingerprint != self.fingerprint:
            raise BleukitError(
                "cannot merge partial statistics of different variants "
                f"(fingerprints {self.fingerprint} and {other.fingerprint})"
            )
        if not other.segments:
            return self
        if not self.segments:
            return other
        first, second = self, other
        if self.ordered:
            if self.start is None or other.start is None:
                raise BleukitError(
                    "this variant's smoothing reads the corpus's last segment, so its "
                    "partials merge only in corpus order: give variant.partial(..., start=) "
                    "the index of each partition's first segment"
                )
            assert self.end is not None and other.end is not None
            if self.end == other.end:
                raise BleukitError(
                    f"two partials end at segment {self.end}: the partitions overlap"
                )
            if other.end < self.end:
                first, second = other, self
        return Partial(
            self.fingerprint,
            _add(first.stats, second.stats),
            self.nrefs | other.nrefs,
            self.segments + other.segments,
            _bound(min, self.start, other.start),
            _bound(max, self.end, other.end),
            self.ordered,
        )

    def __radd__(self, other: Any) -> Partial:
        # sum(partials) starts from 0
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented


def _add(a: PartialStats, b: PartialStats) -> PartialStats:
    """Statistics summed (``Stats.__add__`` keeps the right one's last segment)."""
    if isinstance(a, Stats) and isinstance(b, Stats):
        return a + b
    if isinstance(a, Stats) or isinstance(b, Stats):
        raise BleukitError("cannot merge BLEU statistics with another metric's")
    return tuple(x + y for x, y in zip(a, b))


def _bound(pick: Any, a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else int(pick(a, b))


def _count(value: object) -> bool:
    """A non-negative int (not a bool)."""
    return type(value) is int and value >= 0


def _amount(value: object) -> bool:
    """A non-negative int or Fraction (a mean reference length)."""
    return _count(value) or (is_fraction(value) and value >= 0)  # type: ignore[operator]


def _counts(value: object) -> bool:
    return isinstance(value, tuple) and all(map(_count, value))


def validate(partial: Partial) -> None:
    """The invariants of any partial, whichever variant made it: integer
    counts, none negative, matches never above the n-grams they match
    among, a reference count for every segment. A partial built by hand,
    edited or corrupted in transit fails here with one line, instead of
    scoring above 100 or failing deep in the score."""
    problem = _problem(partial)
    if problem:
        raise InputError(f"invalid partial statistics: {problem}")


def _problem(p: Partial) -> str | None:
    if not isinstance(p.fingerprint, str):
        return f"fingerprint is {type(p.fingerprint).__name__}, not a string"
    if not _count(p.segments):
        return f"segments is {p.segments!r}, not a non-negative integer"
    if not isinstance(p.nrefs, frozenset) or not all(_count(n) and n for n in p.nrefs):
        return f"nrefs is {p.nrefs!r}, not a set of positive integers"
    if bool(p.segments) != bool(p.nrefs):
        return f"{p.segments} segments with reference counts {sorted(p.nrefs)}"
    if (p.start is None) != (p.end is None):
        return f"start {p.start!r} and end {p.end!r}: give both or neither"
    if p.start is not None:
        if not (_count(p.start) and _count(p.end)) or p.end - p.start < p.segments:  # type: ignore[operator]
            return f"segments {p.start!r}..{p.end!r} cannot hold {p.segments} segments"
    if type(p.ordered) is not bool:
        return f"ordered is {p.ordered!r}, not a bool"
    if isinstance(p.stats, Stats):
        if p.stats.segments != p.segments:
            return f"{p.segments} segments, but statistics of {p.stats.segments!r}"
        return _bleu_problem(p.stats)
    return _row_problem(p.stats)


def _bleu_problem(stats: Stats) -> str | None:
    order = len(stats.counts)
    if not _count(stats.sys_len):
        return f"sys_len is {stats.sys_len!r}, not a non-negative integer"
    if not _amount(stats.ref_len):
        return f"ref_len is {stats.ref_len!r}, not a non-negative integer or fraction"
    for name in ("counts", "totals", "last_counts", "last_totals"):
        if not _counts(getattr(stats, name)):
            return f"{name} is {getattr(stats, name)!r}, not a tuple of non-negative integers"
    if not order or len(stats.totals) != order:
        return f"{order} counts and {len(stats.totals)} totals: one of each per n-gram order"
    if len(stats.last_counts) != len(stats.last_totals) or len(stats.last_counts) not in (0, order):
        return "the last segment's counts and totals are not one per n-gram order"
    if not _count(stats.last_len):
        return f"last_len is {stats.last_len!r}, not a non-negative integer"
    for n, (c, t) in enumerate(zip(stats.counts, stats.totals), 1):
        if c > t:
            return f"{c} matched {n}-grams of {t}: matches cannot exceed the n-grams"
    return None


def _row_problem(stats: object) -> str | None:
    # another metric's additive row: what each number means, and how they
    # bound each other, its metric checks (Metric.check_stats)
    if not isinstance(stats, tuple) or not stats or not all(map(_amount, stats)):
        return (
            f"stats is {stats!r}, not BLEU's Stats or a row of non-negative integers "
            "and fractions (chrF's triples, TER's edits and reference length)"
        )
    return None
