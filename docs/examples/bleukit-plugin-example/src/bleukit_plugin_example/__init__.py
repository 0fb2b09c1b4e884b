"""Example bleukit plugin.

``nopunct.v1``: 13a tokenization, then tokens made only of punctuation are
dropped (a way to ask how much of a score comes from punctuation).
``longest.v1``: the longest reference length (a deliberately harsh brevity
penalty).
``half-match.v1``: a smoothing method, an order with no match counts half a
match.
"""

import math
import unicodedata

from bleukit.core.smoothing import Smoothed, Smoothing
from bleukit.tokenizers import TOKENIZERS


class NoPunctTokenizer:
    """13a tokens without the tokens made only of punctuation."""

    def __init__(self):
        self._13a = TOKENIZERS.get("13a.v1")

    def __call__(self, line: str) -> str:
        tokens = self._13a(line).split()
        kept = [t for t in tokens if not all(unicodedata.category(c).startswith("P") for c in t)]
        return " ".join(kept)


def longest(hyp_len, ref_lens):
    """Longest reference length."""
    return max(ref_lens)


class HalfMatch(Smoothing):
    """An order with no match counts half a match (effective order ignored)."""

    def __call__(self, stats, order, weights, effective_order, value):
        pairs = zip(stats.counts[:order], stats.totals[:order])
        precisions = tuple(100.0 * (c or 0.5) / t if t else 0.0 for c, t in pairs)
        if not all(precisions):
            return Smoothed(precisions, 0.0)
        w = weights or [1 / order] * order
        return Smoothed(
            precisions, math.exp(math.fsum(x * math.log(p) for x, p in zip(w, precisions)))
        )
