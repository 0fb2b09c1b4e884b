"""Several systems under several variants, collected a chunk of segments at
a time (``compare``, ``matrix``, ``agree``, ``report``): what is kept is
statistics, never text, so memory grows with the statistics (a few int64
per segment, system and tokenization), not with the corpus's text.

Per chunk, the references are prepared once per tokenization, and each
system is counted once per tokenization at the highest order among the
BLEU variants that share it (``Variant.reference_key``); each BLEU variant
reads its statistics from those tables (``Variant.stats_from_tables``).
Commands that need only corpus scores (``matrix``, ``score``) ask for no
per-segment statistics (``per_segment=False``): each BLEU variant then keeps
a running sum per system, and memory does not grow with the corpus. chrF
variants always keep a running partial sum per system (``Partial``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from ..core.errors import InputError
from ..core.partial import Partial
from ..core.stats import Stats
from ..engines import SegmentTable
from ..metrics.bleu.variant import RefStreams, Variant, check_hypotheses, check_ref_streams
from ..metrics.chrf.core import ChrfResult
from ..metrics.chrf.variant import ChrfVariant

AnyVariant = Variant | ChrfVariant


class SystemStatistics:
    """The statistics of ``systems`` (names) under ``variants``, filled by
    ``add`` one aligned chunk at a time; ``per_segment``: keep each
    segment's statistics (for resampling, sentence scores), else only each
    system's sums (corpus scores)."""

    def __init__(
        self, variants: Sequence[AnyVariant], systems: Sequence[str], per_segment: bool = True
    ) -> None:
        if len(set(systems)) != len(systems):
            raise InputError(f"system names must differ: {', '.join(systems)}")
        self.systems = list(systems)
        self._index = {name: i for i, name in enumerate(systems)}
        self._orders: dict[tuple[object, ...], int] = {}
        self._bleu: dict[tuple[object, ...], Variant] = {}
        for v in variants:
            if isinstance(v, Variant):
                key = v.reference_key()
                self._orders[key] = max(self._orders.get(key, 0), v.stat_order)
                self._bleu.setdefault(key, v)
        self._chrf = [v for v in variants if isinstance(v, ChrfVariant)]
        self.per_segment = per_segment
        self._tables: dict[tuple[object, ...], list[list[SegmentTable]]] = {
            key: [[] for _ in systems] for key in self._orders
        }
        #: without per-segment statistics, each BLEU variant's running sums
        self._summed = {} if per_segment else {
            v.fingerprint: (v, [Stats.zero(v.stat_order) for _ in systems])
            for v in variants if isinstance(v, Variant)
        }  # fmt: skip
        self._partials: dict[str, list[Partial]] = {}
        self._nrefs: set[int] = set()
        #: the number of segments added
        self.segments = 0

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        """One chunk: reference streams aligned with each system's
        hypotheses (in the order of ``systems``)."""
        if len(hyps) != len(self.systems):
            raise InputError(f"{len(hyps)} hypothesis chunks for {len(self.systems)} systems")
        per_segment, _ = check_ref_streams(ref_streams)
        for lines in hyps:
            check_hypotheses(lines, len(per_segment))
        for key, order in self._orders.items():
            variant = self._bleu[key]
            prepared = variant.prepare_references(ref_streams, order)
            for i, lines in enumerate(hyps):
                tables = variant.tables(lines, prepared, order)
                if self.per_segment:
                    self._tables[key][i].extend(tables)
                    continue
                for v, running in self._summed.values():
                    if v.reference_key() == key:
                        running[i] = running[i] + v.sum_from_tables(tables)
        for chrf in self._chrf:
            prepared_chrf = chrf.prepare_references(ref_streams)
            chunk = [chrf.partial(lines, prepared_chrf) for lines in hyps]
            self._add_partials(chrf.fingerprint, chunk)
        self._nrefs.update(per_segment)
        self.segments += len(per_segment)

    def _add_partials(self, fingerprint: str, partials: list[Partial]) -> None:
        sums = self._partials.get(fingerprint)
        self._partials[fingerprint] = [a + b for a, b in zip(sums, partials)] if sums else partials

    def _chrf_keys(self) -> list[str]:
        return [v.fingerprint for v in self._chrf]

    def extend(self, later: SystemStatistics) -> None:
        """Append the statistics of the chunks that follow these (collected
        elsewhere, e.g. by an executor's worker, for the same variants and
        systems)."""
        if (later.systems, later._orders, later._chrf_keys(), later.per_segment) != (
            self.systems, self._orders, self._chrf_keys(), self.per_segment,
        ):  # fmt: skip
            raise InputError("these statistics were collected for other variants or systems")
        for key, per_system in later._tables.items():
            for tables, more in zip(self._tables[key], per_system):
                tables.extend(more)
        for fingerprint, (_, running) in self._summed.items():
            after = later._summed[fingerprint][1]
            running[:] = [a + b for a, b in zip(running, after)]
        for fingerprint, partials in later._partials.items():
            self._add_partials(fingerprint, partials)
        self._nrefs.update(later._nrefs)
        self.segments += later.segments

    @property
    def nrefs(self) -> int | str:
        """The signature's ``nrefs`` over every chunk: the count, or ``var``."""
        if not self.segments:
            raise InputError("no segments to score (the hypotheses are empty)")
        return next(iter(self._nrefs)) if len(self._nrefs) == 1 else "var"

    def _system_tables(self, variant: Variant, system: str) -> list[SegmentTable]:
        if not self.segments:
            raise InputError("no segments to score (the hypotheses are empty)")
        if not self.per_segment:
            raise ValueError("these statistics were collected as sums (per_segment=False)")
        key = variant.reference_key()
        if key not in self._tables or self._orders[key] < variant.stat_order:
            raise InputError(f"variant {variant.name} was not collected")
        return self._tables[key][self._index[system]]

    def segment_stats(self, variant: Variant, system: str) -> TableSegments:
        """The system's per-segment statistics under a BLEU variant as a
        sequence computed from the tables as it is read (one pass costs one
        table's Stats at a time)."""
        return TableSegments(variant, self._system_tables(variant, system))

    def sentence_values(self, variant: Variant, system: str) -> list[float]:
        """The system's sentence scores under a BLEU variant, computed a
        table at a time (no Stats per segment held)."""
        return [
            score
            for table in self._system_tables(variant, system)
            for score in variant.score_values(variant.stats_from_tables([table]))
        ]

    def total(self, variant: Variant, system: str) -> Stats:
        """The system's summed statistics under a BLEU variant (no Stats
        per segment)."""
        if self.per_segment:
            return variant.sum_from_tables(self._system_tables(variant, system))
        if not self.segments:
            raise InputError("no segments to score (the hypotheses are empty)")
        if variant.fingerprint not in self._summed:
            raise InputError(f"variant {variant.name} was not collected")
        return self._summed[variant.fingerprint][1][self._index[system]]

    def chrf_score(self, variant: ChrfVariant, system: str) -> ChrfResult:
        """The system's corpus score under a chrF variant."""
        if variant.fingerprint not in self._partials:
            raise InputError(f"variant {variant.name} was not collected")
        return variant.score(self._partials[variant.fingerprint][self._index[system]])


class TableSegments(Sequence[Stats]):
    """A variant's per-segment ``Stats`` of a system, read from its tables
    when asked for: iterating holds one table's Stats at a time."""

    def __init__(self, variant: Variant, tables: list[SegmentTable]) -> None:
        self._variant = variant
        self._tables = tables
        self._size = sum(len(t.hyp_len) for t in tables)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Stats]:
        for table in self._tables:
            yield from self._variant.stats_from_tables([table])

    @overload
    def __getitem__(self, index: int) -> Stats: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Stats]: ...

    def __getitem__(self, index: int | slice) -> Stats | Sequence[Stats]:
        if isinstance(index, slice):
            return list(self)[index]
        i = range(self._size)[index]  # IndexError past either end
        for table in self._tables:
            if i < len(table.hyp_len):
                break
            i -= len(table.hyp_len)
        return self._variant.stats_from_tables([table])[i]


def collect(
    variants: Sequence[AnyVariant],
    named_hyps: Sequence[tuple[str, Sequence[str]]],
    streams: RefStreams,
) -> SystemStatistics:
    """The statistics of systems held in memory (one chunk)."""
    stats = SystemStatistics(variants, [name for name, _ in named_hyps])
    stats.add(streams, [lines for _, lines in named_hyps])
    return stats


def collect_chunks(
    variants: Sequence[AnyVariant],
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
