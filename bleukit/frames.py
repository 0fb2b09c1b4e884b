"""Dataframe columns in, scores out: a pandas Series, a Polars Series, a
PyArrow array (chunked or not) or a plain list, scored in one call instead
of ``df.apply`` row by row.

    df["bleu"] = bleukit.frames.sentence_scores(df["hyp"], df["ref"])

A reference column holds a reference per row, or a list of references per
row (a list column); several reference columns go in a tuple, or a list of
column objects (a list of plain lists is one column of rows). A
missing value (None, NaN) in a reference column means no reference there.
Nothing here imports pandas, Polars or PyArrow: a column is read through
its own ``to_pylist``/``to_list``/``tolist``, which hands over the strings
it holds (one list of them, no copy of the text).
"""

from __future__ import annotations

from typing import Any

from .core.errors import InputError
from .corpus.partitions import text_values
from .metrics import as_metric
from .metrics.base import AnyMetric, MetricResult
from .metrics.inputs import streams_from_rows

#: what one row's sentence score is by default: sacrebleu.sentence_bleu's
DEFAULT_SENTENCE_VARIANT = "sacrebleu[effective_order=true]"
_COLUMN_LIBRARIES = ("pandas", "polars", "pyarrow", "numpy")


def _is_column(value: object) -> bool:
    return type(value).__module__.split(".")[0] in _COLUMN_LIBRARIES


def _values(column: Any, what: str) -> list[Any]:
    if isinstance(column, list):
        return column
    if isinstance(column, tuple):
        return list(column)
    if _is_column(column):
        for method in ("to_pylist", "to_list", "tolist"):  # PyArrow; pandas, Polars; NumPy
            convert = getattr(column, method, None)
            if callable(convert):
                return list(convert())
    raise InputError(
        f"{what}: expected a column (pandas, Polars, PyArrow, NumPy) or a list, "
        f"not {type(column).__name__}"
    )


def hypotheses(column: Any) -> list[str]:
    """A hypothesis column as strings; a missing hypothesis is an error."""
    values = text_values(_values(column, "hypotheses"), "hypotheses")
    if None in values:
        raise InputError(f"hypotheses: row {values.index(None)} is missing")
    return values  # type: ignore[return-value]  # no None left


def _row_references(value: Any, column: str, row: int) -> list[str | None]:
    if isinstance(value, str) or value is None:
        return [value]
    if isinstance(value, (list, tuple)) or _is_column(value):
        what = f"{column}, row {row}"
        return text_values(_values(value, what), what, unit="item")
    return text_values([value], column, row)


def reference_streams(refs: Any, size: int) -> list[list[str | None]]:
    """Reference streams from a reference column (a reference, or a list of
    them, per row) or a list of such columns."""
    several = isinstance(refs, tuple) or (isinstance(refs, list) and refs and _is_column(refs[0]))
    columns = list(refs) if several else [refs]
    per_row: list[list[str | None]] = [[] for _ in range(size)]
    for k, column in enumerate(columns):
        values = _values(column, f"reference column {k}")
        if len(values) != size:
            raise InputError(f"reference column {k} has {len(values)} rows for {size} hypotheses")
        for row, value in enumerate(values):
            per_row[row].extend(_row_references(value, f"reference column {k}", row))
    return streams_from_rows(per_row)


def sentence_scores(
    hyps: Any, refs: Any, variant: str | AnyMetric = DEFAULT_SENTENCE_VARIANT
) -> list[float]:
    """Every row's sentence score (default: what sacrebleu.sentence_bleu
    computes), in one call."""
    texts = hypotheses(hyps)
    streams = reference_streams(refs, len(texts))
    if not texts:
        return []
    return as_metric(variant).sentence_values(texts, streams)


def corpus_score(hyps: Any, refs: Any, variant: str | AnyMetric = "sacrebleu") -> MetricResult:
    """The corpus score of a hypothesis column against its reference
    column(s)."""
    texts = hypotheses(hyps)
    return as_metric(variant).corpus_score(texts, reference_streams(refs, len(texts)))
