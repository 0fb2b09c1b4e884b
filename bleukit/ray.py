"""BLEU and chrF on Ray Datasets (``pip install 'bleukit[ray]'``): a
``map_batches`` callable that adds sentence scores, and corpus scores as a
map-reduce of partial statistics (``bleukit.partial``): each batch maps to a
pickled partial where it lives, and only those travel to the caller. Scores
equal the single-process ones exactly.

Ray does not say where a batch lies in the dataset, so a variant whose
smoothing reads the last segment (NLTK methods 5-7) needs ``order=``, a
column of row positions.
"""

from __future__ import annotations

import pickle
from collections.abc import Hashable, Sequence
from typing import Any

from .errors import BleukitError, InputError
from .executor import (
    AnyResult,
    AnyVariant,
    as_variant,
    merge_groups,
    partition_groups,
    partition_partial,
    partition_sentence_scores,
    reads_last_segment,
    ref_columns,
)


class SentenceScorer:
    """``ds.map_batches(SentenceScorer("chrF", hyp="hyp", refs=["ref"]),
    batch_format="pandas")``: every row gains its sentence score."""

    def __init__(
        self,
        variant: str | AnyVariant = "sacrebleu",
        hyp: str = "hyp",
        refs: str | Sequence[str] = "ref",
        column: str = "score",
    ) -> None:
        self.variant = as_variant(variant)
        self.hyp = hyp
        self.refs = ref_columns(refs)
        self.column = column

    def __call__(self, batch: Any) -> Any:
        scores = partition_sentence_scores(self.variant, batch, self.hyp, self.refs)
        return batch.assign(**{self.column: scores})


class _PartialMapper:
    """One batch to one row holding its pickled partial (or, with ``by``,
    its pickled partial per group)."""

    def __init__(self, variant: AnyVariant, hyp: str, refs: list[str], by: str | None,
                 order: str | None) -> None:  # fmt: skip
        self.variant, self.hyp, self.refs, self.by, self.order = variant, hyp, refs, by, order

    def __call__(self, batch: Any) -> Any:
        import pandas as pd

        try:
            data = self._partial(batch)
        except BleukitError as exc:  # back to the caller as itself, not as Ray's wrapper
            data = exc
        return pd.DataFrame({"bleukit_partial": [pickle.dumps(data)]})

    def _partial(self, batch: Any) -> object:
        if self.by is not None:
            return partition_groups(self.variant, batch, self.hyp, self.refs, self.by)
        start = None
        if self.order is not None and len(batch):
            batch = batch.sort_values(self.order, kind="stable")
            first, last = int(batch[self.order].iloc[0]), int(batch[self.order].iloc[-1])
            if last - first + 1 != len(batch):
                raise InputError(
                    f"order=: the rows of a batch must be consecutive positions "
                    f"(found {len(batch)} rows from {first} to {last})"
                )
            start = first
        return partition_partial(self.variant, batch, self.hyp, self.refs, start)


def corpus_score(
    ds: Any,
    hyp: str,
    refs: str | Sequence[str],
    variant: str | AnyVariant = "sacrebleu",
    by: str | None = None,
    order: str | None = None,
) -> AnyResult | dict[Hashable, AnyResult]:
    """The corpus score of the column ``hyp`` against the column(s) ``refs``
    (a missing value: no reference there); with ``by``, a score per value of
    that column. ``order``: a column of row positions, needed by variants
    that read the last segment."""
    v = as_variant(variant)
    if reads_last_segment(v) and (order is None or by is not None):
        raise InputError(
            f"{v.name}'s smoothing reads the corpus's last segment: give order= (a column "
            "of row positions), and no by="
        )
    mapper = _PartialMapper(v, hyp, ref_columns(refs), by, order)
    pickled = ds.map_batches(mapper, batch_format="pandas").to_pandas()["bleukit_partial"]
    parts = [pickle.loads(p) for p in pickled]  # from this job's own workers
    for part in parts:
        if isinstance(part, BleukitError):
            raise part
    if by is not None:
        return {key: v.score(p) for key, p in merge_groups(parts).items()}
    total = sum(parts)
    if total == 0:
        raise InputError("no segments to score (the dataset is empty)")
    return v.score(total)
