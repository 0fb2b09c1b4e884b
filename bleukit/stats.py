"""Per-segment statistics and their additive corpus sums.

A segment's statistics are its hypothesis length, the reference length chosen
by the policy, and per order n the clipped n-gram matches (``counts``) and the
hypothesis n-gram total (``totals``). Corpus statistics are plain sums, so a
corpus score depends only on the multiset of segments (order-invariant) and
statistics of two corpora add.

``last_*`` keep the statistics of the final segment; only NLTK-compatible
smoothing methods 5-7 read them, reproducing NLTK's use of the last segment
in ``corpus_bleu``. Addition keeps the right-hand side's, which is
associative, so sums stay well defined.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from .ngrams import count_ngrams, max_counts
from .reflen import RefLength

TotalsPolicy = Literal["exact", "at-least-one"]


@dataclass(frozen=True)
class Stats:
    """Additive BLEU sufficient statistics."""

    sys_len: int
    ref_len: RefLength
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    segments: int
    last_len: int = 0
    last_counts: tuple[int, ...] = ()
    last_totals: tuple[int, ...] = ()

    @classmethod
    def zero(cls, order: int) -> Stats:
        return cls(0, 0, (0,) * order, (0,) * order, 0)

    def __add__(self, other: Stats) -> Stats:
        if len(self.counts) != len(other.counts):
            raise ValueError("cannot add statistics of different n-gram orders")
        last = other if other.segments else self
        return Stats(
            self.sys_len + other.sys_len,
            self.ref_len + other.ref_len,
            tuple(a + b for a, b in zip(self.counts, other.counts)),
            tuple(a + b for a, b in zip(self.totals, other.totals)),
            self.segments + other.segments,
            last.last_len,
            last.last_counts,
            last.last_totals,
        )

    @property
    def order(self) -> int:
        return len(self.counts)


def corpus_sum(segments: Sequence[Stats], order: int) -> Stats:
    """Sum of segment statistics (the zero statistics for no segment)."""
    total = Stats.zero(order)
    for seg in segments:
        total = total + seg
    return total


@dataclass(frozen=True)
class References:
    """One segment's references, prepared once and reused for every
    hypothesis scored against them."""

    ngrams: dict[tuple[str, ...], int]
    lengths: tuple[int, ...]


def prepare_references(ref_tokens: Sequence[Sequence[str]], order: int) -> References:
    return References(
        max_counts(count_ngrams(tokens, order) for tokens in ref_tokens),
        tuple(len(tokens) for tokens in ref_tokens),
    )


def segment_stats(
    hyp_tokens: Sequence[str],
    refs: References,
    order: int,
    ref_length: Callable[[int, Sequence[int]], RefLength],
    totals_policy: TotalsPolicy,
) -> Stats:
    """Statistics of one hypothesis against its prepared references."""
    hyp_len = len(hyp_tokens)
    correct = [0] * order
    total = [0] * order
    ref_ngrams = refs.ngrams
    for ngram, count in count_ngrams(hyp_tokens, order).items():
        n = len(ngram) - 1
        total[n] += count
        ref_count = ref_ngrams.get(ngram)
        if ref_count:
            correct[n] += count if count < ref_count else ref_count
    if totals_policy == "at-least-one":
        # Compatibility quirk of NLTK's modified_precision: the denominator of
        # every segment and order is max(1, number of hypothesis n-grams)
        total = [t if t > 0 else 1 for t in total]
    counts_t, totals_t = tuple(correct), tuple(total)
    return Stats(
        hyp_len,
        ref_length(hyp_len, refs.lengths),
        counts_t,
        totals_t,
        1,
        hyp_len,
        counts_t,
        totals_t,
    )
