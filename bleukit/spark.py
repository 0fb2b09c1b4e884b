"""BLEU and chrF on Spark DataFrames (``pip install 'bleukit[spark]'``, and a
Java runtime for Spark): sentence scores as a pandas UDF, corpus scores as a
map-reduce of partial statistics (``bleukit.core.partial``): ``mapInArrow`` maps
each partition to one pickled partial where it lives, and only those travel
to the driver, which sums them. Scores equal the single-process ones
exactly.

A partition does not know where it lies in the DataFrame, so a variant whose
smoothing reads the last segment (NLTK methods 5-7) needs ``order=``, a
column of row positions.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from .core.errors import InputError, MissingDependencyError
from .corpus.partitions import (
    PartialMapper,
    check_new_column,
    check_order,
    finish,
    partition_sentence_scores,
    pickled,
    ref_columns,
)
from .metrics import as_metric
from .metrics.base import AnyMetric, MetricResult

_COLUMN = "bleukit_partial"


def _spark() -> Any:
    try:
        from pyspark.sql import functions
    except ImportError:
        raise MissingDependencyError(
            "bleukit.spark needs PySpark: pip install 'bleukit[spark]'"
        ) from None
    return functions


def sentence_udf(variant: str | AnyMetric = "sacrebleu") -> Any:
    """A pandas UDF of two columns, the hypothesis and a struct of the
    reference columns (``F.struct("ref_a", "ref_b")``), giving the sentence
    score: ``df.withColumn("bleu", sentence_udf()("hyp", F.struct("ref")))``."""
    import pandas as pd

    functions = _spark()
    v = as_metric(variant)

    def score(hyp: pd.Series, refs: pd.DataFrame) -> pd.Series:
        names = [f"ref{i}" for i in range(len(refs.columns))]
        frame = {"hyp": hyp, **dict(zip(names, (refs[c] for c in refs.columns)))}
        return pd.Series(partition_sentence_scores(v, frame, "hyp", names), dtype="float64")

    # Spark picks the UDF's kind (series to series, a struct as a DataFrame)
    # from these hints; pandas is imported here, so they are given as objects
    score.__annotations__ = {"hyp": pd.Series, "refs": pd.DataFrame, "return": pd.Series}
    return functions.pandas_udf(score, "double")


def sentence_scores(
    df: Any,
    hyp: str,
    refs: str | Sequence[str],
    variant: str | AnyMetric = "sacrebleu",
    column: str = "score",
) -> Any:
    """``df`` with a column of sentence scores (``sentence_udf`` on the
    columns ``hyp`` and ``refs``)."""
    functions = _spark()
    columns = ref_columns(refs)
    check_new_column(df.columns, column, "the DataFrame")
    udf = sentence_udf(variant)
    return df.withColumn(column, udf(functions.col(hyp), functions.struct(*columns)))


class _PartialMapper(PartialMapper):
    """One partition's Arrow batches to one row holding its pickled partial
    (or, with ``by``, its pickled partials per group)."""

    unit = "partition"

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        got = list(batches)
        # an empty partition gives no batch: a table of its columns, no rows
        names = (self.hyp, *self.refs, *(c for c in (self.by, self.order) if c is not None))
        empty: dict[str, list[str]] = {name: [] for name in names}
        frame = pa.Table.from_batches(got).to_pydict() if got else empty
        yield pa.RecordBatch.from_pydict({_COLUMN: [pickled(lambda: self.partial(frame))]})


def corpus_score(
    df: Any,
    hyp: str,
    refs: str | Sequence[str],
    variant: str | AnyMetric = "sacrebleu",
    by: str | None = None,
    order: str | None = None,
) -> MetricResult | dict[Hashable, MetricResult]:
    """The corpus score of the column ``hyp`` against the column(s) ``refs``
    (a null: no reference there); with ``by``, a score per value of that
    column. ``order``: a column of row positions, needed by variants that
    read the last segment."""
    _spark()
    v = as_metric(variant)
    check_order(v, order, by)
    references = ref_columns(refs)
    needed = list(dict.fromkeys([hyp, *references, *(c for c in (by, order) if c)]))
    for name in needed:
        if name not in df.columns:
            raise InputError(f"no column {name!r} (columns: {', '.join(df.columns)})")
    mapper = _PartialMapper(v, hyp, references, by, order)
    rows = df.select(*needed).mapInArrow(mapper, f"{_COLUMN} binary").collect()
    return finish(v, (row[_COLUMN] for row in rows), by, "DataFrame")
