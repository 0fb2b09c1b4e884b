"""sacrebleu 2.6.0's TER API (``sacrebleu.metrics.TER``, its score and
signature classes, ``corpus_ter``, ``sentence_ter``), computed by a bleukit
TER variant (``bleukit.metrics.ter``; equal to sacrebleu's on the WMT golden
data).

>>> from bleukit.compat.sacrebleu import TER
>>> ter = TER()
>>> print(ter.corpus_score(["the saudis denied this"], [["saudi arabia denied this"]]))
TER = 50.00
>>> print(ter.get_signature())
nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...metrics import metric_for
from ...metrics.base import AnyMetric
from ...metrics.registry import validate_any
from ...metrics.ter.config import TER_METRIC
from ...metrics.ter.variant import TerReferences
from .metrics import Metric, Score, Signature


class TERSignature(Signature):
    """sacrebleu's TER signature."""

    def __init__(self, metric: TER) -> None:
        super().__init__(metric.num_refs if metric.num_refs is not None else 1)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"})
        self.info.update(
            {
                "case": "mixed" if metric.case_sensitive else "lc",
                "tok": "tercom",
                "norm": "yes" if metric.normalized else "no",
                "punct": "no" if metric.no_punct else "yes",
                "asian": "yes" if metric.asian_support else "no",
            }
        )


class TERScore(Score):
    """sacrebleu's TER score: the edits and the (summed mean) reference length."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TER(Metric[TerReferences, TERScore]):
    """sacrebleu 2.6.0's ``TER`` metric: the same arguments, methods and
    results. ``variant`` is the bleukit TER variant it computes with."""

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.num_refs = None
        config = validate_any(
            {
                "metric": TER_METRIC,
                "normalized": normalized,
                "no_punct": no_punct,
                "asian_support": asian_support,
                "case_sensitive": case_sensitive,
            },
            "TER",
        )
        self.variant: AnyMetric = metric_for(config)
        self._ref_cache = None
        if references is not None:
            self._ref_cache = self._cache(references)

    def _from_stats(self, stats: Any) -> TERScore:
        return TERScore(self.variant.score_value(stats), stats[0], float(stats[1]))

    def get_signature(self) -> TERSignature:
        """sacrebleu's signature (known once references were given)."""
        self._nrefs()  # known once references were given
        return self._resampled(TERSignature(self))


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER against one or more reference streams."""
    metric = TER(normalized, no_punct, asian_support, case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str | None],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """TER of one hypothesis against its references."""
    metric = TER(normalized, no_punct, asian_support, case_sensitive)
    return metric.sentence_score(hypothesis, references)
