"""Parquet input and output (``pip install 'bleukit[arrow]'``): a file or a
directory of parts is read in record batches, a batch at a time, so memory
is bounded by a batch, not by the table; scores come from the batches'
partial statistics (``bleukit.partial``), sentence scores go to a Parquet
file batch by batch.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

from .errors import InputError, MissingDependencyError
from .executor import (
    AnyResult,
    AnyVariant,
    columns,
    partition_partial,
    partition_sentence_scores,
)
from .files import replacing

#: rows per record batch read
BATCH_ROWS = 65536


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.dataset
        import pyarrow.parquet
    except ImportError:
        raise MissingDependencyError(
            "Parquet input needs pyarrow: pip install 'bleukit[arrow]'"
        ) from None
    return pyarrow


def _dataset(path: str, columns: Sequence[str]) -> Any:
    pa = _pyarrow()
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file or directory")
    try:
        dataset = pa.dataset.dataset(path, format="parquet")
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{path}: not Parquet ({exc})") from None
    names = dataset.schema.names
    for column in columns:
        if column not in names:
            raise InputError(f"{path}: no column {column!r} (columns: {', '.join(names)})")
    return dataset


def batches(
    path: str, columns: Sequence[str], batch_rows: int = BATCH_ROWS
) -> Iterator[dict[str, list[Any]]]:
    """The columns of a Parquet file or directory, a record batch at a time
    (in file and row order)."""
    dataset = _dataset(path, columns)
    for batch in dataset.to_batches(columns=list(columns), batch_size=batch_rows):
        yield batch.to_pydict()


def chunks(
    path: str, hyp: str, refs: Sequence[str], batch_rows: int = BATCH_ROWS
) -> Iterator[tuple[list[list[str | None]], list[list[str]]]]:
    """The table as chunks for ``system_stats.collect_chunks``: per record
    batch, the reference streams and the hypotheses (one system)."""
    for batch in batches(path, [hyp, *refs], batch_rows):
        hyps, streams = columns(batch, hyp, refs)
        if hyps:
            yield streams, [hyps]


def corpus_score(
    variant: AnyVariant, path: str, hyp: str, refs: Sequence[str], batch_rows: int = BATCH_ROWS
) -> AnyResult:
    """The corpus score of a Parquet table, summed batch by batch."""
    total = None
    start = 0
    for batch in batches(path, [hyp, *refs], batch_rows):
        part = partition_partial(variant, batch, hyp, refs, start)
        start += part.segments
        total = part if total is None else total + part
    if total is None or not total.segments:
        raise InputError(f"{path}: no rows to score")
    return variant.score(total)


def write_sentence_scores(
    variant: AnyVariant,
    path: str,
    hyp: str,
    refs: Sequence[str],
    out: str,
    column: str = "score",
    batch_rows: int = BATCH_ROWS,
) -> int:
    """Every row of the table with its sentence score in ``column``, written
    to ``out`` batch by batch (``files.replacing``: an error leaves no
    partial output). The number of rows written."""
    pa = _pyarrow()
    dataset = _dataset(path, [hyp, *refs])
    if column in dataset.schema.names:
        raise InputError(f"{path}: already has a column {column!r}")
    rows = 0
    with replacing(out) as target:  # an error leaves no partial output
        schema = dataset.schema.append(pa.field(column, pa.float64()))
        with pa.parquet.ParquetWriter(target, schema) as writer:
            for batch in dataset.to_batches(batch_size=batch_rows):
                scores = partition_sentence_scores(variant, batch.to_pydict(), hyp, refs)
                table = pa.Table.from_batches([batch]).append_column(
                    column, pa.array(scores, pa.float64())
                )
                writer.write_table(table)
                rows += len(scores)
    return rows
