"""What every executor (``bleukit.dask``, ``bleukit.ray``, ``bleukit.spark``)
does inside a worker, on one partition: read the hypothesis and reference
columns, and map them to a ``Partial`` (or to sentence scores), with one
engine thread unless the variant says otherwise; or count one chunk of
several systems' files (``bleukit ... --executor``). Also what the caller
does with what comes back (``pickled``, ``finish``). Executors are thin
layers over this and ``Partial``'s merge; nothing here imports them.
"""

from __future__ import annotations

import logging
import math
import pickle
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from ..core.errors import BleukitError, InputError
from ..core.partial import Partial
from ..engines import limited_threads
from ..metrics.base import AnyMetric, MetricResult
from ..metrics.inputs import RefStreams
from .systems import SystemStatistics

logger = logging.getLogger("bleukit")
_warned = False


def ref_columns(refs: str | Sequence[str]) -> list[str]:
    columns = [refs] if isinstance(refs, str) else list(refs)
    if not columns:
        raise InputError("refs: give at least one reference column")
    return columns


def text_value(value: Any) -> str | None:
    """A cell as text: None where it is missing (None, NaN, pandas NA)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        return value
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    raise InputError(f"{type(value).__name__} {value!r}, not a string")


def row_name(row: int, first_row: int | None, unit: str = "row") -> str:
    """A row for an error message: its position in the table, or in its
    partition where the partition's place is unknown (None)."""
    return f"{unit} {row} of its partition" if first_row is None else f"{unit} {first_row + row}"


def text_values(
    values: Iterable[Any], what: str, first_row: int | None = 0, unit: str = "row"
) -> list[str | None]:
    """A column's cells as text (``text_value``); a cell that is not text
    is an error naming ``what`` (the column) and the row (the ``unit``)."""
    cells = values if isinstance(values, list) else list(values)
    try:
        return [text_value(v) for v in cells]
    except InputError:
        pass
    for row, value in enumerate(cells):
        try:
            text_value(value)
        except InputError as exc:
            raise InputError(f"{what}, {row_name(row, first_row, unit)}: {exc}") from None
    raise AssertionError("unreachable: a cell failed, then none did")


def require_columns(frame: Any, names: Iterable[str]) -> None:
    for name in names:
        if name not in frame:
            raise InputError(f"no column {name!r} (columns: {', '.join(map(str, frame))})")


def check_new_column(existing: Iterable[Any], column: str, where: str) -> None:
    """Scores go to a new column: one of the table's would be overwritten
    (the hypotheses, say) without a word."""
    if column in existing:
        raise InputError(
            f"{where} already has a column {column!r}: name another for the scores (column=)"
        )


def columns(
    frame: Any, hyp: str, refs: Sequence[str], first_row: int | None = None
) -> tuple[list[str], list[list[str | None]]]:
    """The hypotheses and reference streams of a table (anything indexable
    by column name giving an iterable: a pandas DataFrame, a dict of lists,
    a pyarrow Table's to_pydict()); ``first_row``: the table's first row's
    place in the whole table, for error messages (None: unknown)."""
    require_columns(frame, (hyp, *refs))
    hyps = text_values(frame[hyp], f"column {hyp!r}", first_row)
    if None in hyps:
        row = row_name(hyps.index(None), first_row)
        raise InputError(f"column {hyp!r}, {row}: the hypothesis is missing")
    streams = [text_values(frame[name], f"column {name!r}", first_row) for name in refs]
    return hyps, streams  # type: ignore[return-value]  # no None hypothesis left


def _warn_python_engine(variant: AnyMetric) -> None:
    global _warned
    if variant.engine.name == "python" and not _warned:
        _warned = True
        logger.warning(
            "bleukit runs on its pure-Python engine in this worker (13-157x slower): "
            "install bleukit where a C compiler is available, or a wheel with bleukit._accel"
        )


def partition_partial(
    variant: AnyMetric, frame: Any, hyp: str, refs: Sequence[str], start: int | None = None
) -> Partial:
    """One partition's partial statistics (one engine thread unless the
    variant sets its own)."""
    _warn_python_engine(variant)
    hyps, streams = columns(frame, hyp, refs, start)
    with limited_threads(1):  # no rows: the neutral partial
        return variant.partial(hyps, streams, start=start)


def partition_groups(
    variant: AnyMetric, frame: Any, hyp: str, refs: Sequence[str], by: str
) -> dict[Hashable, Partial]:
    """One partition's partial statistics per value of the column ``by``."""
    if by not in frame:
        raise InputError(f"no column {by!r} to group by")
    keys = list(frame[by])
    rows: dict[Hashable, list[int]] = {}
    for i, key in enumerate(keys):
        rows.setdefault(key, []).append(i)
    hyps, streams = columns(frame, hyp, refs)
    _warn_python_engine(variant)
    with limited_threads(1):
        return {
            key: variant.partial([hyps[i] for i in idx], [[s[i] for i in idx] for s in streams])
            for key, idx in rows.items()
        }


def merge_groups(parts: Iterable[dict[Hashable, Partial]]) -> dict[Hashable, Partial]:
    out: dict[Hashable, Partial] = {}
    for part in parts:
        for key, partial in part.items():
            out[key] = out[key] + partial if key in out else partial
    return out


def chunk_statistics(
    variants: Sequence[AnyMetric], systems: Sequence[str], refs: RefStreams,
    hyps: Sequence[Sequence[str]], per_segment: bool = True,
) -> SystemStatistics:  # fmt: skip
    """One chunk of several systems' files (``bleukit ... --executor``):
    its statistics (``per_segment``: as ``SystemStatistics``), one engine
    thread, for the client to ``extend`` its own with in chunk order."""
    for variant in variants:
        _warn_python_engine(variant)
    stats = SystemStatistics(variants, systems, per_segment)
    with limited_threads(1):
        stats.add(refs, hyps)
    return stats


def partition_sentence_scores(
    variant: AnyMetric, frame: Any, hyp: str, refs: Sequence[str], first_row: int | None = None
) -> list[float]:
    """The sentence score of every row of one partition (``first_row``: its
    place in the table, where known)."""
    hyps, streams = columns(frame, hyp, refs, first_row)
    if not hyps:
        return []
    _warn_python_engine(variant)
    with limited_threads(1):
        return [r.score for r in variant.sentence_scores(hyps, streams)]


def check_order(variant: AnyMetric, order: str | None, by: str | None) -> None:
    """Executors that do not know where a partition lies need ``order=`` (a
    column of row positions) for variants that read the last segment; and
    a variant whose statistics need the whole corpus cannot be partitioned."""
    variant.check_partitioned()
    if variant.reads_last_segment and (order is None or by is not None):
        raise InputError(
            f"{variant.name}'s smoothing reads the corpus's last segment: give order= (a column "
            "of row positions), and no by="
        )


class PartialMapper:
    """What executors that do not know where a batch lies (Ray, Spark) do
    with one: its partial statistics, or with ``by`` its partials per group;
    with ``order`` (a column of corpus positions) the rows are put in order
    first, and must be consecutive positions. Each executor wraps it for
    its own batch format."""

    #: what the executor calls a batch, for error messages
    unit = "batch"

    def __init__(self, variant: AnyMetric, hyp: str, refs: list[str], by: str | None,
                 order: str | None) -> None:  # fmt: skip
        self.variant, self.hyp, self.refs, self.by, self.order = variant, hyp, refs, by, order

    def partial(self, frame: Any) -> object:
        """The statistics of one batch (a table indexable by column name)."""
        if self.by is not None:
            return partition_groups(self.variant, frame, self.hyp, self.refs, self.by)
        if self.order is None:
            return partition_partial(self.variant, frame, self.hyp, self.refs)
        require_columns(frame, (self.hyp, *self.refs, self.order))
        positions = [int(p) for p in frame[self.order]]
        if not positions:
            return partition_partial(self.variant, frame, self.hyp, self.refs)
        rank = sorted(range(len(positions)), key=positions.__getitem__)
        first, last = positions[rank[0]], positions[rank[-1]]
        if last - first + 1 != len(rank):
            raise InputError(
                f"order=: the rows of a {self.unit} must be consecutive positions "
                f"(found {len(rank)} rows from {first} to {last})"
            )
        ordered = {}
        for name in (self.hyp, *self.refs):
            values = list(frame[name])
            ordered[name] = [values[i] for i in rank]
        return partition_partial(self.variant, ordered, self.hyp, self.refs, first)


def pickled(compute: Callable[[], object]) -> bytes:
    """A worker's partial (or partials per group) pickled; a bleukit error
    is pickled in its place, to reach the caller as itself, not wrapped in
    the executor's exceptions."""
    try:
        return pickle.dumps(compute())
    except BleukitError as exc:
        return pickle.dumps(exc)


def finish(
    variant: AnyMetric, parts: Iterable[bytes], by: str | None, what: str
) -> MetricResult | dict[Hashable, MetricResult]:
    """The scores of the pickled partials that this job's own workers sent
    back (``pickled``): one corpus score, or with ``by`` one per group."""
    loaded = [pickle.loads(p) for p in parts]  # from this job's own workers
    for part in loaded:
        if isinstance(part, BleukitError):
            raise part
    if by is not None:
        return {key: variant.score(p) for key, p in merge_groups(loaded).items()}
    total = sum(loaded)
    if total == 0:
        raise InputError(f"no segments to score (the {what} is empty)")
    return variant.score(total)
