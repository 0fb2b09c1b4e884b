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

# no ``from __future__ import annotations``: Stats's annotations are
# values, since typing would compile each string into a forward reference
# (see core.reflen.RefLength)
import functools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from .ngrams import Ngram, count_ngrams, max_counts
from .record import Record
from .reflen import RefLength

__all__ = ["RefLength", "References", "Stats", "corpus_sum", "ngram_totals", "segment_stats"]

TotalsPolicy = Literal["exact", "at-least-one"]


class Stats(NamedTuple):
    """Additive BLEU sufficient statistics (a named tuple: a sentence-level
    batch makes one per segment, and a tuple is made several times faster
    than a frozen dataclass)."""

    sys_len: int
    ref_len: RefLength
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    segments: int
    last_len: int = 0
    last_counts: tuple[int, ...] = ()
    last_totals: tuple[int, ...] = ()

    @classmethod
    def zero(cls, order: int) -> "Stats":
        return cls(0, 0, (0,) * order, (0,) * order, 0)

    def __add__(self, other: "Stats") -> "Stats":  # type: ignore[override]
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
    """Sum of segment statistics (the zero statistics for no segment): the
    same as adding them one by one with ``+``, column by column."""
    segs = list(segments)
    if any(len(s.counts) != order or len(s.totals) != order for s in segs):
        raise ValueError("cannot add statistics of different n-gram orders")
    if not segs:
        return Stats.zero(order)
    # the last segment that is one carries the corpus's last-segment fields
    last = next((s for s in reversed(segs) if s.segments), Stats.zero(order))
    return Stats(
        sum(s.sys_len for s in segs),
        sum(s.ref_len for s in segs),
        tuple(map(sum, zip(*(s.counts for s in segs)))),
        tuple(map(sum, zip(*(s.totals for s in segs)))),
        sum(s.segments for s in segs),
        last.last_len,
        last.last_counts,
        last.last_totals,
    )


class References(Record):
    """One segment's references, prepared once and reused for every
    hypothesis scored against them: the clipping ceilings, the n-grams whose
    ceiling is above 1, and the reference lengths."""

    ngrams: dict[Ngram, int]
    repeated: dict[Ngram, int]
    lengths: tuple[int, ...]


def prepare_references(ref_tokens: Sequence[Sequence[str] | str], order: int) -> References:
    ngrams = max_counts(count_ngrams(tokens, order) for tokens in ref_tokens)
    return References(
        ngrams,
        {g: c for g, c in ngrams.items() if c > 1},
        tuple(len(tokens) for tokens in ref_tokens),
    )


@functools.lru_cache(maxsize=4096)
def ngram_totals(hyp_len: int, order: int, at_least_one: bool) -> tuple[int, ...]:
    """The hypothesis n-grams of each order: a sentence of L tokens has
    L - n + 1 of order n. Compatibility quirk of NLTK's modified_precision
    (totals "at-least-one"): the denominator of every segment and order is
    max(1, that number)."""
    floor = 1 if at_least_one else 0
    return tuple(hyp_len - n if hyp_len > n else floor for n in range(order))


def segment_stats(
    hyp_tokens: Sequence[str] | str,
    refs: References,
    order: int,
    ref_length: Callable[[int, Sequence[int]], RefLength],
    totals_policy: TotalsPolicy,
) -> Stats:
    """Statistics of one hypothesis against its prepared references.

    Clipped matches are sum(min(hyp count, reference ceiling)) over the
    n-grams both have (Papineni et al. 2002, section 2.1), computed as the
    size of the set intersection (each common n-gram counts once, in C) plus
    min - 1 for the few n-grams repeated on both sides. Totals need no
    counting: a sentence of L tokens has L - n + 1 n-grams of order n.
    """
    hyp_len = len(hyp_tokens)
    hyp_counts = count_ngrams(hyp_tokens, order)
    common = hyp_counts.keys() & refs.ngrams.keys()
    matched = Counter(map(len, common))
    if refs.repeated and len(hyp_counts) < sum(ngram_totals(hyp_len, order, False)):
        ceilings = refs.repeated
        for g in [g for g, c in hyp_counts.items() if c > 1 and g in ceilings]:
            c, r = hyp_counts[g], ceilings[g]
            matched[len(g)] += (c if c < r else r) - 1
    counts_t = tuple(matched[n] for n in range(1, order + 1))
    totals_t = ngram_totals(hyp_len, order, totals_policy == "at-least-one")
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
