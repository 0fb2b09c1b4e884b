"""sacrebleu 2.6.0's chrF API (``sacrebleu.metrics.CHRF``, its score and
signature classes, ``corpus_chrf``, ``sentence_chrf``), computed by a bleukit
chrF variant (``bleukit.metrics.chrf.core``; equal to sacrebleu's to the last bit on the
WMT golden data).

>>> from bleukit.compat.sacrebleu import CHRF
>>> chrf = CHRF(word_order=2)
>>> print(chrf.corpus_score(["the cat sat on the mat"], [["the cat sat on a mat"]]))
chrF2++ = 72.03
>>> print(chrf.get_signature())
nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ...metrics import metric_for
from ...metrics.base import AnyMetric
from ...metrics.chrf.config import CHRF_METRIC
from ...metrics.chrf.variant import ChrfReferences
from ...metrics.registry import validate_any
from .metrics import Metric, Score, Signature


class CHRFSignature(Signature):
    """sacrebleu's chrF signature (it states neither beta nor the metric:
    the score's name carries beta)."""

    def __init__(self, metric: CHRF) -> None:
        super().__init__(metric.num_refs if metric.num_refs is not None else 1)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update(
            {
                "case": "lc" if metric.lowercase else "mixed",
                "eff": "yes" if not metric.eps_smoothing else "no",
                "nc": metric.char_order,
                "nw": metric.word_order,
                "space": "yes" if metric.whitespace else "no",
            }
        )


class CHRFScore(Score):
    """sacrebleu's chrF score: named ``chrF{beta}`` with a ``+`` per word order."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRF(Metric[ChrfReferences, CHRFScore]):
    """sacrebleu 2.6.0's ``CHRF`` metric: the same arguments, methods and
    results. ``variant`` is the bleukit chrF variant it computes with."""

    CHAR_ORDER: ClassVar[int] = 6
    WORD_ORDER: ClassVar[int] = 0
    BETA: ClassVar[int] = 2

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self.num_refs = None
        config = validate_any(
            {
                "metric": CHRF_METRIC,
                "char_order": char_order,
                "word_order": word_order,
                "beta": beta,
                "lowercase": lowercase,
                "whitespace": whitespace,
                "eps_smoothing": eps_smoothing,
            },
            "CHRF",
        )
        self.variant: AnyMetric = metric_for(config)
        self._ref_cache = None
        if references is not None:
            self._ref_cache = self._cache(references)

    def _from_stats(self, stats: Sequence[Any]) -> CHRFScore:
        return CHRFScore(
            self.variant.score_value(stats), self.char_order, self.word_order, self.beta
        )

    def get_signature(self) -> CHRFSignature:
        """sacrebleu's signature (known once references were given)."""
        self._nrefs()  # known once references were given
        return self._resampled(CHRFSignature(self))


def _metric(
    char_order: int, word_order: int, beta: int, remove_whitespace: bool, eps_smoothing: bool
) -> CHRF:
    return CHRF(
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        whitespace=not remove_whitespace,
        eps_smoothing=eps_smoothing,
    )


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF (chrF++ with ``word_order=2``)."""
    metric = _metric(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str | None],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """chrF of one hypothesis against its references."""
    metric = _metric(char_order, word_order, beta, remove_whitespace, eps_smoothing)
    return metric.sentence_score(hypothesis, references)
