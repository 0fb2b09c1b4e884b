"""BLEU and chrF on Ray Datasets (``pip install 'bleukit[ray]'``): a
``map_batches`` callable that adds sentence scores, and corpus scores as a
map-reduce of partial statistics (``bleukit.core.partial``): each batch maps to a
pickled partial where it lives, and only those travel to the caller. Scores
equal the single-process ones exactly.

Ray does not say where a batch lies in the dataset, so a variant whose
smoothing reads the last segment (NLTK methods 5-7) needs ``order=``, a
column of row positions.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

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


class SentenceScorer:
    """``ds.map_batches(SentenceScorer("chrF", hyp="hyp", refs=["ref"]),
    batch_format="pandas")``: every row gains its sentence score."""

    def __init__(
        self,
        variant: str | AnyMetric = "sacrebleu",
        hyp: str = "hyp",
        refs: str | Sequence[str] = "ref",
        column: str = "score",
    ) -> None:
        self.variant = as_metric(variant)
        self.hyp = hyp
        self.refs = ref_columns(refs)
        self.column = column

    def __call__(self, batch: Any) -> Any:
        check_new_column(batch.columns, self.column, "the batch")
        scores = partition_sentence_scores(self.variant, batch, self.hyp, self.refs)
        return batch.assign(**{self.column: scores})


class _PartialMapper(PartialMapper):
    """One batch (a pandas DataFrame) to one row holding its pickled partial
    (or, with ``by``, its pickled partials per group)."""

    def __call__(self, batch: Any) -> Any:
        import pandas as pd

        return pd.DataFrame({"bleukit_partial": [pickled(lambda: self.partial(batch))]})


def corpus_score(
    ds: Any,
    hyp: str,
    refs: str | Sequence[str],
    variant: str | AnyMetric = "sacrebleu",
    by: str | None = None,
    order: str | None = None,
) -> MetricResult | dict[Hashable, MetricResult]:
    """The corpus score of the column ``hyp`` against the column(s) ``refs``
    (a missing value: no reference there); with ``by``, a score per value of
    that column. ``order``: a column of row positions, needed by variants
    that read the last segment."""
    v = as_metric(variant)
    check_order(v, order, by)
    mapper = _PartialMapper(v, hyp, ref_columns(refs), by, order)
    parts = ds.map_batches(mapper, batch_format="pandas").to_pandas()["bleukit_partial"]
    return finish(v, parts, by, "dataset")
