"""Tokens to n-gram counts.

N-grams are tuples of tokens, counted for every order from 1 to
``max_order`` in one Counter; the order of an n-gram is its length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence


def count_ngrams(tokens: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """Counts of all n-grams of ``tokens`` with 1 <= n <= ``max_order``."""
    counts: Counter[tuple[str, ...]] = Counter()
    for n in range(1, min(max_order, len(tokens)) + 1):
        counts.update(zip(*(tokens[i:] for i in range(n))))
    return counts


def max_counts(counters: Iterable[Counter[tuple[str, ...]]]) -> dict[tuple[str, ...], int]:
    """Per n-gram, the largest count over several references (the clipping
    ceiling of Papineni et al. 2002, section 2.1)."""
    merged: dict[tuple[str, ...], int] = {}
    for counter in counters:
        for ngram, count in counter.items():
            if count > merged.get(ngram, 0):
                merged[ngram] = count
    return merged
