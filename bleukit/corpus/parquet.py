"""Parquet input and output (``pip install 'bleukit[arrow]'``): a file or a
directory of parts is read in record batches, a batch at a time, so memory
is bounded by a batch, not by the table; scores come from the batches'
partial statistics (``bleukit.core.partial``), sentence scores go to a Parquet
file batch by batch.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any

from ..core.errors import InputError, MissingDependencyError
from ..io.files import replacing, same_file
from ..metrics.base import AnyMetric, MetricResult
from .partitions import (
    check_new_column,
    columns,
    partition_partial,
    partition_sentence_scores,
)
from .systems import SystemStatistics, collect_chunks

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
    # every part's own schema (its footer): Arrow casts a later part to the
    # first one's schema, so numbers would be read as text ("7") and a part
    # without a column as rows without it
    for fragment in dataset.get_fragments():
        where = fragment.path
        try:
            schema = fragment.physical_schema
        except (pa.ArrowInvalid, OSError) as exc:
            raise InputError(f"{where}: not Parquet ({exc})") from None
        for column in columns:
            if column not in schema.names:
                raise InputError(
                    f"{where}: no column {column!r} (columns: {', '.join(schema.names)})"
                )
            kind = schema.field(column).type
            if not _is_text(pa, kind):
                raise InputError(f"{where}: column {column!r} holds {kind}, not text")
    return dataset


def _is_text(pa: Any, kind: Any) -> bool:
    """Whether a column type holds text (or only nulls)."""
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return bool(
        pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_null(kind)
        or str(kind) == "string_view"
    )  # fmt: skip


def _record_batches(path: str, dataset: Any, **options: Any) -> Iterator[Any]:
    """The dataset's record batches; a part that cannot be read (a corrupt
    page, a type Arrow cannot bring to the table's) is an error naming the
    path."""
    pa = _pyarrow()
    batches = dataset.to_batches(**options)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (pa.ArrowInvalid, pa.ArrowTypeError, OSError) as exc:
            raise InputError(f"{path}: cannot be read ({exc})") from None
        yield batch


def batches(
    path: str, columns: Sequence[str], batch_rows: int = BATCH_ROWS
) -> Iterator[dict[str, list[Any]]]:
    """The columns of a Parquet file or directory, a record batch at a time
    (in file and row order)."""
    dataset = _dataset(path, columns)
    for batch in _record_batches(path, dataset, columns=list(columns), batch_size=batch_rows):
        yield batch.to_pydict()


def chunks(
    path: str, hyp: str, refs: Sequence[str], batch_rows: int = BATCH_ROWS
) -> Iterator[tuple[list[list[str | None]], list[list[str]]]]:
    """The table as chunks for ``system_stats.collect_chunks``: per record
    batch, the reference streams and the hypotheses (one system)."""
    first_row = 0
    for batch in batches(path, [hyp, *refs], batch_rows):
        hyps, streams = columns(batch, hyp, refs, first_row)
        first_row += len(hyps)
        if hyps:
            yield streams, [hyps]


def corpus_score(
    variant: AnyMetric, path: str, hyp: str, refs: Sequence[str], batch_rows: int = BATCH_ROWS
) -> MetricResult:
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


def statistics(variant: AnyMetric, path: str, hyp: str, refs: Sequence[str]) -> SystemStatistics:
    """The per-segment statistics of a table under one variant (one system,
    ``"0"``), for resampling (``bleukit score --parquet --confidence``)."""
    stats = collect_chunks([variant], ["0"], chunks(path, hyp, refs))
    if not stats.segments:
        raise InputError(f"{path}: no rows to score")
    return stats


def write_sentence_scores(
    variant: AnyMetric,
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
    check_new_column(dataset.schema.names, column, path)
    _check_output_outside(path, out)
    rows = 0
    with replacing(out) as target:  # an error leaves no partial output
        schema = dataset.schema.append(pa.field(column, pa.float64()))
        with pa.parquet.ParquetWriter(target, schema) as writer:
            for batch in _record_batches(path, dataset, batch_size=batch_rows):
                frame = batch.to_pydict()
                scores = partition_sentence_scores(variant, frame, hyp, refs, rows)
                table = pa.Table.from_batches([batch]).append_column(
                    column, pa.array(scores, pa.float64())
                )
                writer.write_table(table)
                rows += len(scores)
    return rows


def _check_output_outside(path: str, out: str) -> None:
    """The output may not be the input, nor go inside an input directory:
    the next run would read the scores as another part of the table and
    count every row twice."""
    source, target = os.path.realpath(path), os.path.realpath(out)
    # the same file by device and inode, as every command's outputs are
    # checked (cli.arguments.check_output): a hard link is caught too
    if target == source or same_file(out, path):
        raise InputError(f"--out {out}: that is the input table; write the scores elsewhere")
    if os.path.isdir(source) and os.path.commonpath([source, target]) == source:
        raise InputError(
            f"--out {out}: inside the input directory {path}, where the next run would read "
            "it as part of the table; write the scores elsewhere"
        )
