"""Why systems differ: compare-mt's analyses (Neubig et al. 2019,
neulab/compare-mt 0.2.10), written again over bleukit's statistics.

- ``sentence_buckets``: segments grouped by a per-segment value (the
  reference's length, the hypothesis's length minus it, or their ratio),
  and each group scored as a corpus under any metric: its segments'
  additive statistics summed, so a bucket's score is exactly the metric's
  corpus score of those segments.
- ``word_accuracy``: compare-mt's word F-measure by frequency bucket
  (``FreqWordBucketer``): a hypothesis word matches the reference word of
  the same form at its k-th occurrence, a word's bucket is its frequency
  in a training corpus or the references.
- ``ngram_wins``: compare-mt's ``compare_ngrams`` (match): the n-grams one
  system matches in the reference more often than the other, by its
  Laplace-smoothed share of the two systems' matches.
- ``largest_differences``: the segments whose sentence scores differ most.

Words are token lists; which tokenization gives them is the caller's
choice (compare-mt splits lines on spaces: ``compare_mt_words``).
"""

from __future__ import annotations

import heapq
import itertools
import sys
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import InputError
from ..core.matches import MatchCounts, MatchStore, Ranked, Text, line_count, salience
from ..core.ngrams import Ngram
from ..core.resampling import Columns

Words = Sequence[str]

#: compare-mt's default cutoffs (LengthSentenceBucketer,
#: LengthDiffSentenceBucketer, FreqWordBucketer)
LENGTH_CUTOFFS: tuple[int, ...] = (10, 20, 30, 40, 50, 60)
LENGTH_DIFF_CUTOFFS: tuple[int, ...] = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)
#: compare-mt's sentence-score buckets (``ScoreSentenceBucketer``: tenths of
#: the scorer's 0-100 scale)
SCORE_CUTOFFS: tuple[float, ...] = tuple(x * 100.0 / 10.0 for x in range(1, 10))
FREQUENCY_CUTOFFS: tuple[int, ...] = (1, 2, 3, 4, 5, 10, 100, 1000)
#: bleukit's: hypothesis length over reference length (compare-mt has none)
RATIO_CUTOFFS: tuple[float, ...] = (0.5, 0.8, 0.9, 1.0, 1.1, 1.2, 1.5)


def compare_mt_words(line: str) -> list[str]:
    """A line's words as compare-mt reads them (``corpus_utils.iterate_tokens``):
    stripped, then split on single spaces, so an empty line is one empty
    word and two spaces make an empty word between them (compatibility
    quirk)."""
    return line.strip().split(" ")


def bucket_labels(cutoffs: Sequence[float], integer: bool = True) -> tuple[str, ...]:
    """compare-mt's bucket names (``Bucketer.set_bucket_cutoffs``): "<c0",
    then "[a,b)", or "a" when an integer bucket holds one value, then ">=cN"."""
    labels = []
    for i, x in enumerate(cutoffs):
        if i == 0:
            labels.append(f"<{x}")
        elif integer and x - 1 == cutoffs[i - 1]:
            labels.append(f"{x - 1}")
        else:
            labels.append(f"[{cutoffs[i - 1]},{x})")
    labels.append(f">={cutoffs[-1]}")
    return tuple(labels)


def bucket_index(value: float, cutoffs: Sequence[float]) -> int:
    """The bucket of ``value``: the first cutoff it is below, else the last
    (``cutoffs`` increasing)."""
    return bisect_right(cutoffs, value)


def check_cutoffs(cutoffs: Sequence[float], what: str) -> None:
    if not cutoffs or any(b <= a for a, b in itertools.pairwise(cutoffs)):
        raise InputError(f"{what}: cutoffs must be increasing, and at least one")


# ------------------------------------------------------------ sentence buckets


@dataclass(frozen=True)
class SentenceBuckets:
    """Segments bucketed by ``by``; per system (in ``systems`` order) and
    bucket: how many segments, and their corpus score under ``variant``
    (None where a bucket is empty)."""

    by: str
    variant: str
    labels: tuple[str, ...]
    systems: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    scores: tuple[tuple[float | None, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "variant": self.variant,
            "buckets": list(self.labels),
            "systems": [
                {"system": s, "counts": list(c), "scores": list(v)}
                for s, c, v in zip(self.systems, self.counts, self.scores)
            ],
        }


@dataclass(frozen=True)
class CountBuckets:
    """Segments counted by bucket of ``by`` (compare-mt's count tables):
    per system (in ``systems`` order), how many segments fall in each."""

    by: str
    labels: tuple[str, ...]
    systems: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "buckets": list(self.labels),
            "systems": [
                {"system": s, "counts": list(c)} for s, c in zip(self.systems, self.counts)
            ],
        }


def count_buckets(
    by: str,
    systems: Sequence[str],
    values: Sequence[Sequence[float]],
    cutoffs: Sequence[float],
    integer: bool = True,
) -> CountBuckets:
    """Each system's ``values`` (one per segment) counted by bucket of
    ``cutoffs`` (compare-mt's ``cutoff_into_bucket``)."""
    return CountBuckets(by, bucket_labels(cutoffs, integer), tuple(systems),
                        tuple(tuple(histogram(v, cutoffs)) for v in values))  # fmt: skip


def _bucket_scores(
    metric: Any,
    segs: Sequence[Any],
    cols: Columns,
    nrefs: int | str,
    groups: bytes,
    n: int,
) -> tuple[tuple[int, ...], tuple[float | None, ...]]:
    """Per bucket, how many segments and their corpus score: the bucket's
    statistics summed by the metric's engine (``Engine.group_sums``), the
    same as adding its segments' statistics in order (its last segment
    kept, as ``add_stats`` keeps it)."""
    sums = metric.engine.group_sums(cols, groups, n)
    counts = tuple(groups.count(b) for b in range(n))
    scores = tuple(
        metric.score_stats(metric.from_row(s, c, segs[groups.rindex(b)]), nrefs).score
        if c else None
        for b, (s, c) in enumerate(zip(sums, counts))
    )  # fmt: skip
    return counts, scores


def sentence_buckets(
    metric: Any,
    systems: Sequence[tuple[str, Sequence[Any]]],
    nrefs: int | str,
    values: Sequence[Sequence[float]],
    cutoffs: Sequence[float],
    by: str,
    integer: bool = True,
    columns: Sequence[Columns] | None = None,
) -> SentenceBuckets:
    """Each system's segments (name, per-segment statistics under
    ``metric``) bucketed by its per-segment ``values`` at ``cutoffs``, and
    each bucket scored from its summed statistics; ``columns``: the
    systems' statistics as resampling columns, where the caller has them."""
    check_cutoffs(cutoffs, by)
    n = len(cutoffs) + 1
    if n > 256:
        raise InputError(f"{by}: at most 255 cutoffs")
    counts: list[tuple[int, ...]] = []
    scores: list[tuple[float | None, ...]] = []
    for k, ((_, segs), vals) in enumerate(zip(systems, values)):
        if len(segs) != len(vals):
            raise InputError(f"{by}: {len(vals)} values for {len(segs)} segments")
        if not segs:
            counts.append((0,) * n)
            scores.append((None,) * n)
            continue
        groups = bytes(bucket_index(v, cutoffs) for v in vals)
        cols = Columns(segs, metric) if columns is None else columns[k]
        count, score = _bucket_scores(metric, segs, cols, nrefs, groups, n)
        counts.append(count)
        scores.append(score)
    return SentenceBuckets(
        by,
        metric.name,
        bucket_labels(cutoffs, integer),
        tuple(name for name, _ in systems),
        tuple(counts),
        tuple(scores),
    )


def reference_lengths(refs: Sequence[Words]) -> list[int]:
    return [len(r) for r in refs]


def length_differences(hyps: Sequence[Words], refs: Sequence[Words]) -> list[int]:
    """len(hypothesis) - len(reference), compare-mt's "lengthdiff"."""
    return [len(h) - len(r) for h, r in zip(hyps, refs)]


def length_ratios(hyps: Sequence[Words], refs: Sequence[Words]) -> list[float]:
    """len(hypothesis) / len(reference); an empty reference counts as one word."""
    return [len(h) / max(1, len(r)) for h, r in zip(hyps, refs)]


# ------------------------------------------------------------- word accuracy


@dataclass(frozen=True)
class WordAccuracy:
    """Per system and frequency bucket, compare-mt's word statistics:
    matched words, reference words, hypothesis words, and recall,
    precision and F-measure (0 where nothing matched, as compare-mt)."""

    labels: tuple[str, ...]
    systems: tuple[str, ...]
    matches: tuple[tuple[int, ...], ...]
    ref_totals: tuple[int, ...]
    hyp_totals: tuple[tuple[int, ...], ...]

    def measures(self, system: int, bucket: int) -> tuple[float, float, float]:
        """(recall, precision, F-measure), computed as compare-mt does."""
        m = self.matches[system][bucket]
        if m == 0:
            return 0.0, 0.0, 0.0
        rec = m / float(self.ref_totals[bucket])
        prec = m / float(self.hyp_totals[system][bucket])
        return rec, prec, 2 * prec * rec / (prec + rec)

    def to_dict(self) -> dict[str, Any]:
        systems = []
        for k, name in enumerate(self.systems):
            rows = [self.measures(k, b) for b in range(len(self.labels))]
            systems.append(
                {
                    "system": name,
                    "matches": list(self.matches[k]),
                    "hyp_words": list(self.hyp_totals[k]),
                    "recall": [r for r, _, _ in rows],
                    "precision": [p for _, p, _ in rows],
                    "f_measure": [f for _, _, f in rows],
                }
            )
        return {"buckets": list(self.labels), "ref_words": list(self.ref_totals),
                "systems": systems}  # fmt: skip


@dataclass(frozen=True)
class NgramWin:
    """An n-gram, how often each of two systems matched it in the
    references, and compare-mt's salience: (a + alpha) / (a + b + 2 alpha)."""

    ngram: tuple[str, ...]
    matches_a: int
    matches_b: int
    salience: float


def word_frequencies(corpus: Iterable[Words]) -> Counter[str]:
    return Counter(itertools.chain.from_iterable(corpus))


class CorpusCounts:
    """What the word and n-gram analyses need of a corpus, added a chunk
    at a time so that no text is kept: per segment the (first) reference's
    length and each system's, and ``store``'s counts (``core.matches``):
    each side's words, and per system how often each n-gram (orders 1 to
    ``max_order``) matched its segment's reference, each reference
    occurrence used once (compare-mt ``ngram_utils.compare_ngrams``, its
    ``match``). ``store``: an engine's ``match_counts`` (default: the
    reference, ``MatchCounts``)."""

    def __init__(
        self, systems: Sequence[str], max_order: int = 4, store: MatchStore | None = None
    ) -> None:
        self.systems = tuple(systems)
        self.max_order = max_order
        self.store = MatchCounts(len(systems), max_order) if store is None else store
        if (self.store.systems, self.store.order) != (len(systems), max_order):
            raise InputError("the match counts were made for other systems or another order")
        # int32: a line's words (a million lines and three sides: 12 MB less than int64)
        self.ref_lengths: array[int] = array("i")
        self.hyp_lengths: list[array[int]] = [array("i") for _ in systems]

    @property
    def segments(self) -> int:
        return len(self.ref_lengths)

    def add(self, refs: Text, hyps: Sequence[Text], keep_empty: bool = False) -> None:
        """One chunk: a reference per segment, each system's hypotheses,
        as token lists or blocks (``core.matches``; ``keep_empty``: a
        block's empty words count)."""
        if len(hyps) != len(self.systems):
            raise InputError(f"{len(hyps)} hypothesis chunks for {len(self.systems)} systems")
        for name, lines in zip(self.systems, hyps):
            if line_count(lines) != line_count(refs):
                raise InputError(
                    f"{name}: {line_count(lines)} hypotheses for {line_count(refs)} references"
                )
        ref_lengths, *hyp_lengths = self.store.add(refs, hyps, keep_empty)
        self.ref_lengths.extend(array("i", ref_lengths))
        for lengths, more in zip(self.hyp_lengths, hyp_lengths):
            lengths.extend(array("i", more))

    @property
    def ref_words(self) -> Counter[str]:
        """How often each word occurs in the references."""
        return Counter(self.store.words(0))

    def word_accuracy(
        self, frequencies: Mapping[str, int], cutoffs: Sequence[int] = FREQUENCY_CUTOFFS
    ) -> WordAccuracy:
        """Word recall, precision and F-measure by frequency bucket, as
        compare-mt's ``--compare_word_accuracies bucket_type=freq``: a
        word's bucket is its count in ``frequencies``. compare-mt matches
        the k-th occurrence of a hypothesis word to the k-th occurrence of
        the same word in the reference, and buckets a match by that
        reference word: the same word, so per segment and word, min(its
        hypothesis count, its reference count) match, the clipped unigram
        matches (``WordBucketer._calc_trg_matches``)."""
        check_cutoffs(cutoffs, "word frequency")

        def by_bucket(words: Iterable[tuple[str, int]]) -> tuple[int, ...]:
            sums = [0] * (len(cutoffs) + 1)
            for word, c in words:
                sums[bucket_index(frequencies.get(word, 0), cutoffs)] += c
            return tuple(sums)

        systems = range(len(self.systems))
        matches = tuple(by_bucket((g[0], c) for g, c in self.store.matched(k, 1, 1).items())
                        for k in systems)  # fmt: skip
        return WordAccuracy(
            bucket_labels(cutoffs),
            self.systems,
            matches,
            by_bucket(self.store.words(0).items()),
            tuple(by_bucket(self.store.words(1 + k).items()) for k in systems),
        )

    def ngram_wins(self, a: int, b: int, min_order: int = 1, alpha: float = 1.0) -> list[NgramWin]:
        """Every n-gram system ``a`` or ``b`` matched (orders ``min_order``
        up), A's wins first: by compare-mt's salience, then by how often
        the two matched it together (the most frequent first), then by the
        n-gram itself (compare-mt leaves ties in hash order, which changes
        from run to run)."""
        return _wins(self.store.ranked(a, b, min_order, alpha, sys.maxsize, False), alpha)

    def strongest(
        self, a: int, b: int, count: int, min_order: int = 1, alpha: float = 1.0
    ) -> tuple[list[NgramWin], list[NgramWin]]:
        """The first ``count`` of ``ngram_wins`` (A's strongest wins) and
        of ``losses`` of it (B's), without ranking every n-gram."""
        return (
            _wins(self.store.ranked(a, b, min_order, alpha, count, False), alpha),
            _wins(self.store.ranked(a, b, min_order, alpha, count, True), alpha),
        )


def _wins(ranked: Sequence[Ranked], alpha: float) -> list[NgramWin]:
    return [NgramWin(g, a, b, salience(a, b, alpha)) for g, a, b in ranked]


def word_accuracy(
    refs: Sequence[Words],
    systems: Sequence[tuple[str, Sequence[Words]]],
    frequencies: Mapping[str, int],
    cutoffs: Sequence[int] = FREQUENCY_CUTOFFS,
) -> WordAccuracy:
    """``CorpusCounts.word_accuracy`` of systems held in memory."""
    counts = CorpusCounts([name for name, _ in systems], 1)
    counts.add(refs, [hyps for _, hyps in systems])
    return counts.word_accuracy(frequencies, cutoffs)


# ------------------------------------------------------------- n-gram wins


def matched_ngrams(
    refs: Sequence[Words], hyps: Sequence[Words], min_order: int = 1, max_order: int = 4
) -> Counter[Ngram]:
    """How often each n-gram of the hypotheses matched its segment's
    reference (the match counts' ``matched``), orders ``min_order`` up."""
    counts = CorpusCounts(["s"], max_order)
    counts.add(refs, [hyps])
    return Counter(counts.store.matched(0, min_order, max_order))


def ngram_wins(
    refs: Sequence[Words],
    hyps_a: Sequence[Words],
    hyps_b: Sequence[Words],
    min_order: int = 1,
    max_order: int = 4,
    alpha: float = 1.0,
) -> list[NgramWin]:
    """``CorpusCounts.ngram_wins`` of two systems held in memory."""
    counts = CorpusCounts(["a", "b"], max_order)
    counts.add(refs, [hyps_a, hyps_b])
    return counts.ngram_wins(0, 1, min_order, alpha)


def losses(wins: Sequence[NgramWin]) -> list[NgramWin]:
    """System B's wins, its strongest first (``ngram_wins`` reversed within
    salience, the most frequent first)."""
    return sorted(wins, key=lambda w: (w.salience, -(w.matches_a + w.matches_b), w.ngram))


# ------------------------------------------------------ largest differences


def largest_differences(
    scores_a: Sequence[float], scores_b: Sequence[float], count: int
) -> tuple[list[int], list[int]]:
    """The ``count`` segments where A scores most above B, and those where B
    scores most above A (0-based, ties by position)."""
    diffs = array("d", (a - b for a, b in zip(scores_a, scores_b)))
    # nsmallest is sorted(...)[:count] (the same ties), in memory for
    # ``count`` segments, not a sort key per segment (a million: 200 MB)
    ahead = heapq.nsmallest(count, range(len(diffs)), key=lambda i: (-diffs[i], i))
    behind = heapq.nsmallest(count, range(len(diffs)), key=lambda i: (diffs[i], i))
    return [i for i in ahead if diffs[i] > 0], [i for i in behind if diffs[i] < 0]


def histogram(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """Counts of ``values`` per bucket of ``edges`` (as ``bucket_index``)."""
    counts = [0] * (len(edges) + 1)
    for v in values:
        counts[bucket_index(v, edges)] += 1
    return counts
