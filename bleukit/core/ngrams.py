"""Tokens to n-gram counts.

N-grams are tuples of tokens, counted for every order from 1 to
``max_order`` in one Counter; the order of an n-gram is its length. When a
tokenizer guarantees one-character tokens (``char.v1``) the tokens arrive as
one string and its n-grams are substrings: the same counts, several times
faster than tuples for character 18-grams.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

#: an n-gram: a tuple of tokens, or for one-character tokens a substring
Ngram = tuple[str, ...] | str


def count_ngrams(tokens: Sequence[str] | str, max_order: int, min_order: int = 1) -> Counter[Ngram]:
    """Counts of all n-grams of ``tokens`` with ``min_order`` <= n <=
    ``max_order``; substrings when ``tokens`` is a string of one-character
    tokens."""
    counts: Counter[Ngram] = Counter()
    length = len(tokens)
    if isinstance(tokens, str):
        for n in range(min_order, min(max_order, length) + 1):
            counts.update([tokens[i : i + n] for i in range(length - n + 1)])
        return counts
    for n in range(min_order, min(max_order, length) + 1):
        counts.update(zip(*(tokens[i:] for i in range(n))))
    return counts


def max_counts(counters: Iterable[Counter[Ngram]]) -> dict[Ngram, int]:
    """Per n-gram, the largest count over several references (the clipping
    ceiling of Papineni et al. 2002, section 2.1)."""
    it = iter(counters)
    merged: dict[Ngram, int] = dict(next(it, {}))
    for counter in it:
        get = merged.get
        for ngram, count in counter.items():
            if count > get(ngram, 0):
                merged[ngram] = count
    return merged
