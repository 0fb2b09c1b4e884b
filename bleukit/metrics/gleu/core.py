"""The GLEU stage: Wu et al.'s (2016, "Google's neural machine translation
system", section 7) sentence-friendly BLEU, as NLTK 3.10's ``corpus_gleu``
computes it (HF evaluate's ``google_bleu`` calls it on 13a tokens).

tokens -> the n-grams of orders ``min_order`` to ``max_order`` -> per
reference, the matches (clipped counts) and the larger of the hypothesis's
and the reference's n-gram totals -> per segment, the reference with the
best ratio (the first where ratios tie, as Python's ``max``) -> additive
corpus sums -> matches over totals: the lesser of precision and recall
(0-100).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.ngrams import count_ngrams
from ..fields import FieldForm, FieldResult, OwnSignature
from ..nist.core import TOKENIZATION_KEYS, TOKENIZATION_SPELLING
from .config import GLEU_METRIC, GLEU_SCORING_FIELDS, GleuConfig

#: GLEU's statistics: the matches and the totals of the chosen references
GleuStats = tuple[int, int]

#: how GLEU's fields are written in a signature
GLEU_FORM = FieldForm(
    GLEU_METRIC,
    GLEU_SCORING_FIELDS,
    keys={**TOKENIZATION_KEYS, "min_order": ("min", "mn"), "max_order": ("order", "n")},
    spelling=TOKENIZATION_SPELLING,
    texts=frozenset({"tokenizer", "split"}),
)


@dataclass(frozen=True)
class GleuSignature(OwnSignature):
    """The complete signature of a GLEU score: tokenization, case, orders,
    the number of references and the version (docs/signatures.md)."""

    config: GleuConfig
    form = GLEU_FORM


def segment_stats(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], low: int, high: int
) -> GleuStats:
    """One segment's (matches, totals) against its best reference (NLTK's
    corpus_gleu loop body): per reference, the clipped matches and the
    larger of the two n-gram totals; references with no n-gram on either
    side are passed over, and with none left the segment adds nothing."""
    hyp_counts = count_ngrams(hyp, high, low)
    hyp_total = sum(hyp_counts.values())
    best: GleuStats = (0, 0)
    best_ratio = -1.0
    for ref in refs:
        ref_counts = count_ngrams(ref, high, low)
        total = max(hyp_total, sum(ref_counts.values()))
        if total == 0:
            continue
        get = hyp_counts.get
        matches = sum(min(c, get(g, 0)) for g, c in ref_counts.items())
        # compared as NLTK's key compares them: float ratios, the first of
        # equal ones kept
        ratio = matches / total
        if ratio > best_ratio:
            best, best_ratio = (matches, total), ratio
    return best


def gleu_score(stats: GleuStats) -> float:
    """GLEU (0-100) of summed statistics; 0 without any n-gram."""
    matches, total = stats
    return 100 * (matches / total) if total else 0.0


@dataclass(frozen=True)
class GleuResult(FieldResult):
    """A GLEU score with its statistics: matches and totals."""

    score: float
    matches: int
    total: int
    signature: GleuSignature | None = None

    name = "GLEU"

    def statistics(self) -> dict[str, Any]:
        return {"matches": self.matches, "total": self.total}
