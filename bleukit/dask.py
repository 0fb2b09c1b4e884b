"""BLEU and chrF on Dask DataFrames (``pip install 'bleukit[dask]'``): corpus
scores as a map-reduce of partial statistics (``bleukit.core.partial``), sentence
scores as a map. Each partition is scored where it lives, with one engine
thread unless the variant sets ``threads``; only partials (a few integers)
travel. Scores equal the single-process ones exactly.

A runnable example: docs/examples/scale/dask_scores.py (docs/scale.md).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from .core.errors import InputError, MissingDependencyError
from .corpus.partitions import (
    check_new_column,
    chunk_statistics,
    merge_groups,
    partition_groups,
    partition_partial,
    partition_sentence_scores,
    ref_columns,
)
from .corpus.systems import SystemStatistics
from .metrics import as_metric
from .metrics.base import AnyMetric, MetricResult
from .metrics.inputs import RefStreams


def _dask() -> Any:
    try:
        import dask
    except ImportError:
        raise MissingDependencyError(
            "bleukit.dask needs Dask: pip install 'bleukit[dask]'"
        ) from None
    return dask


def corpus_score(
    ddf: Any,
    hyp: str,
    refs: str | Sequence[str],
    variant: str | AnyMetric = "sacrebleu",
    by: str | None = None,
) -> MetricResult | dict[Hashable, MetricResult]:
    """The corpus score of the column ``hyp`` against the column(s) ``refs``
    (a missing value: no reference in that column for that row); with
    ``by``, a score per value of that column."""
    dask = _dask()
    v = as_metric(variant)
    v.check_partitioned()
    columns = ref_columns(refs)
    parts = ddf.to_delayed()
    if by is not None:
        if v.reads_last_segment:
            raise InputError(
                f"by=: {v.name}'s smoothing reads the last segment of each corpus, which "
                "groups spread over partitions do not have; score each group on its own"
            )
        tasks = [dask.delayed(partition_groups)(v, p, hyp, columns, by) for p in parts]
        merged = dask.delayed(merge_groups)(tasks).compute()
        return {key: v.score(partial) for key, partial in merged.items()}
    starts: list[int | None] = [None] * len(parts)
    if v.reads_last_segment:
        # the corpus order: each partition's first row, from the lengths
        lengths = dask.compute(*[dask.delayed(len)(p) for p in parts])
        starts = [sum(lengths[:i]) for i in range(len(parts))]
    tasks = [
        dask.delayed(partition_partial)(v, p, hyp, columns, start)
        for p, start in zip(parts, starts)
    ]
    total = dask.delayed(sum)(tasks).compute()
    if total == 0:  # no partition at all
        raise InputError("no segments to score (the DataFrame has no partition)")
    return v.score(total)


def sentence_scores(
    ddf: Any,
    hyp: str,
    refs: str | Sequence[str],
    variant: str | AnyMetric = "sacrebleu",
    column: str = "score",
) -> Any:
    """The DataFrame with a column of sentence scores (float64), computed
    partition by partition."""
    _dask()
    v = as_metric(variant)
    columns = ref_columns(refs)
    check_new_column(ddf.columns, column, "the DataFrame")

    def add(frame: Any) -> Any:
        return frame.assign(**{column: partition_sentence_scores(v, frame, hyp, columns)})

    meta = ddf._meta.assign(**{column: 0.0})
    return ddf.map_partitions(add, meta=meta)


def collect_chunks(
    scheduler: str,
    variants: Sequence[AnyMetric],
    systems: Sequence[str],
    chunks: Iterable[tuple[RefStreams, Sequence[Sequence[str]]]],
    per_segment: bool = True,
) -> SystemStatistics:
    """The statistics of several systems' chunks (``bleukit compare ...
    --executor dask --scheduler ADDR``), each chunk counted by a worker of
    the running Dask cluster at ``scheduler`` and merged here in chunk
    order (``per_segment``: as ``SystemStatistics``). At most two chunks
    per worker thread are in flight, so the client's memory stays bounded
    by them and the statistics."""
    _dask()
    from distributed import Client

    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"--scheduler {scheduler}: cannot connect: {exc}") from None
    with client:
        limit = 2 * max(1, sum(client.nthreads().values()))
        stats = SystemStatistics(variants, systems, per_segment)
        pending: deque[Any] = deque()
        for refs, hyps in chunks:
            pending.append(
                client.submit(
                    chunk_statistics, variants, systems, refs, hyps, per_segment, pure=False
                )
            )
            if len(pending) >= limit:
                stats.extend(pending.popleft().result())
        while pending:
            stats.extend(pending.popleft().result())
    return stats
