"""Several systems under several variants of any metrics, collected a chunk
of segments at a time (``compare``, ``matrix``, ``agree``, ``report``):
what is kept is statistics, never text, so memory grows with the
statistics (a few integers per segment, system and counting pass), not
with the corpus's text.

Variants whose statistics come from one counting pass share a store
(``Metric.store_key``: BLEU variants of one tokenization read one table per
system and chunk, at the highest order among them); each store keeps every
segment's statistics (for resampling, sentence scores) or, with
``per_segment=False``, only each system's sums (corpus scores), so that
memory does not grow with the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..core.errors import InputError
from ..core.resampling import Columns
from ..metrics.base import Metric, StatisticsStore
from ..metrics.inputs import RefStreams, check_hypotheses, check_ref_streams, nrefs_of


class SystemStatistics:
    """The statistics of ``systems`` (names) under ``variants``, filled by
    ``add`` one aligned chunk at a time; ``per_segment``: keep each
    segment's statistics (for resampling, sentence scores), else only each
    system's sums (corpus scores)."""

    def __init__(
        self,
        variants: Sequence[Metric[Any, Any]],
        systems: Sequence[str],
        per_segment: bool = True,
    ) -> None:
        if len(set(systems)) != len(systems):
            raise InputError(f"system names must differ: {', '.join(systems)}")
        self.systems = list(systems)
        self._index = {name: i for i, name in enumerate(systems)}
        groups: dict[tuple[object, ...], list[Metric[Any, Any]]] = {}
        for v in variants:
            groups.setdefault(v.store_key(), []).append(v)
        self.per_segment = per_segment
        #: one store per counting pass, by store key
        self._stores: dict[tuple[object, ...], StatisticsStore[Any]] = {
            key: group[0].new_store(group, len(systems), per_segment)
            for key, group in groups.items()
        }
        #: what each store was made for: the variants' fingerprints
        self._collected = {key: sorted(v.fingerprint for v in g) for key, g in groups.items()}
        self._nrefs: set[int] = set()
        #: the number of segments added
        self.segments = 0
        #: resampling columns made by ``columns``, by (variant, system)
        self._columns: dict[tuple[str, str], Columns] = {}

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        """One chunk: reference streams aligned with each system's
        hypotheses (in the order of ``systems``)."""
        if len(hyps) != len(self.systems):
            raise InputError(f"{len(hyps)} hypothesis chunks for {len(self.systems)} systems")
        per_segment, _ = check_ref_streams(ref_streams)
        for lines in hyps:
            check_hypotheses(lines, len(per_segment))
        for store in self._stores.values():
            store.add(ref_streams, hyps)
        self._nrefs.update(per_segment)
        self.segments += len(per_segment)
        self._columns.clear()

    def extend(self, later: SystemStatistics) -> None:
        """Append the statistics of the chunks that follow these (collected
        elsewhere, e.g. by an executor's worker, for the same variants and
        systems)."""
        if (later.systems, later._collected, later.per_segment) != (
            self.systems, self._collected, self.per_segment,
        ):  # fmt: skip
            raise InputError("these statistics were collected for other variants or systems")
        for key, store in self._stores.items():
            store.extend(later._stores[key])
        self._nrefs.update(later._nrefs)
        self.segments += later.segments
        self._columns.clear()

    @property
    def nrefs(self) -> int | str:
        """The signature's ``nrefs`` over every chunk: the count, or ``var``."""
        if not self.segments:
            raise InputError("no segments to score (the hypotheses are empty)")
        return nrefs_of(self._nrefs)

    def _store(self, variant: Metric[Any, Any], system: str) -> tuple[StatisticsStore[Any], int]:
        if not self.segments:
            raise InputError("no segments to score (the hypotheses are empty)")
        store = self._stores.get(variant.store_key())
        if store is None:
            raise InputError(f"variant {variant.name} was not collected")
        return store, self._index[system]

    def segment_stats(self, variant: Metric[Any, Any], system: str) -> Sequence[Any]:
        """The system's per-segment statistics under a variant (computed as
        they are read where the store allows it)."""
        store, i = self._store(variant, system)
        return store.segments(variant, i)

    def columns(self, variant: Metric[Any, Any], system: str) -> Columns:
        """The system's per-segment statistics under a variant as resampling
        columns, made once for every analysis and test that reads them
        (until ``release_columns``)."""
        key = (variant.fingerprint, system)
        if key not in self._columns:
            self._columns[key] = Columns(self.segment_stats(variant, system), variant)
        return self._columns[key]

    def release_columns(self, variant: Metric[Any, Any]) -> None:
        """Forget the columns ``columns`` made for a variant (their memory)."""
        for key in [k for k in self._columns if k[0] == variant.fingerprint]:
            del self._columns[key]

    def sentence_values(self, variant: Metric[Any, Any], system: str) -> list[float]:
        """The system's sentence scores under a variant."""
        store, i = self._store(variant, system)
        return store.sentence_values(variant, i)

    def sentence_values_many(
        self, variants: Sequence[Metric[Any, Any]], system: str
    ) -> list[Sequence[float]]:
        """The system's sentence scores under variants of one
        ``Metric.sentence_batch_key``, one sequence each (a list, or a
        float64 array), made together where their store can."""
        keys = {v.sentence_batch_key() for v in variants}
        if len(keys) != 1:
            raise InputError(f"{len(keys)} sentence batch keys: expected variants of one")
        store, i = self._store(variants[0], system)
        return store.sentence_values_many(variants, i)

    def total(self, variant: Metric[Any, Any], system: str) -> Any:
        """The system's summed statistics under a variant."""
        store, i = self._store(variant, system)
        return store.total(variant, i)

    def columns_of(
        self, variant: Metric[Any, Any], system: str, rows: Sequence[int | None]
    ) -> Columns:
        """Resampling columns of some of the system's segments (numbered
        from 0, in that order; None: a row of zeros), made anew from the
        rows of ``columns``, which keeps all of them (a study takes many
        selections of one system: each pair of systems' common segments)."""
        last = rows[-1] if rows else None
        segments = self.segment_stats(variant, system)
        return self.columns(variant, system).select(
            rows, variant.zero_stats() if last is None else segments[last], variant.zero_stats()
        )

    def subtotal(self, variant: Metric[Any, Any], system: str, rows: Sequence[int]) -> Any:
        """The system's statistics summed over some segments (numbered from
        0), as resampling columns of those segments sum them."""
        store, i = self._store(variant, system)
        return store.subtotal(variant, i, rows)

    def score(self, variant: Metric[Any, Any], system: str) -> Any:
        """The system's corpus result under a variant."""
        return variant.score_stats(self.total(variant, system), self.nrefs)


def collect(
    variants: Sequence[Metric[Any, Any]],
    named_hyps: Sequence[tuple[str, Sequence[str]]],
    streams: RefStreams,
) -> SystemStatistics:
    """The statistics of systems held in memory (one chunk)."""
    stats = SystemStatistics(variants, [name for name, _ in named_hyps])
    stats.add(streams, [lines for _, lines in named_hyps])
    return stats


def collect_chunks(
    variants: Sequence[Metric[Any, Any]],
    systems: Sequence[str],
    chunks: Iterable[tuple[RefStreams, Sequence[Sequence[str]]]],
    per_segment: bool = True,
) -> SystemStatistics:
    """The statistics of systems read a chunk at a time: each chunk gives
    its reference streams and each system's hypotheses."""
    stats = SystemStatistics(variants, systems, per_segment)
    for refs, hyps in chunks:
        stats.add(refs, hyps)
    return stats
