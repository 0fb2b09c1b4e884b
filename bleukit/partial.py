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

from dataclasses import dataclass
from typing import Any

from .errors import BleukitError
from .stats import Stats

#: the statistics a partial holds: BLEU's ``Stats``, or chrF's triples
PartialStats = Stats | tuple[int, ...]


@dataclass(frozen=True)
class Partial:
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
        raise BleukitError("cannot merge BLEU and chrF statistics")
    return tuple(x + y for x, y in zip(a, b))


def _bound(pick: Any, a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else int(pick(a, b))
