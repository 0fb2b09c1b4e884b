"""Why systems differ, all analyses at once (``analyze``, the report):
compare-mt's analyses (``buckets``) of several systems against the first,
over every segment, from the statistics the scores came from
(``SystemStatistics``) and the counts of their tokens (``CorpusCounts``).

- Per variant, each system's corpus score by reference-length bucket and
  by hypothesis/reference length-ratio bucket (lengths in the tokens of
  ``CorpusCounts``: the first reference, as compare-mt reads one).
- Word F-measure by frequency bucket (frequencies from a training corpus,
  else from the references).
- Per system against the baseline: its n-gram wins and losses, the
  histogram of its sentence-score differences and the segments where it
  differs most, in the sentence scores of ``sentence_variant`` (a smoothed
  variant where the first one scores most sentences 0).
"""

from __future__ import annotations

import hashlib
import itertools
from array import array
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.dataframes import number
from ..core.errors import InputError
from ..core.matches import Text
from ..corpus.streaming import read_in_step
from ..corpus.systems import SystemStatistics, collect
from ..executors import LOCAL, Execution
from ..executors.files import collect_files
from ..io.progress import advance, phase, stage
from ..metrics.base import AnyMetric
from .buckets import (
    FREQUENCY_CUTOFFS,
    LENGTH_CUTOFFS,
    LENGTH_DIFF_CUTOFFS,
    RATIO_CUTOFFS,
    SCORE_CUTOFFS,
    CorpusCounts,
    CountBuckets,
    NgramWin,
    SentenceBuckets,
    WordAccuracy,
    bucket_labels,
    compare_mt_words,
    count_buckets,
    histogram,
    largest_differences,
    sentence_buckets,
)

#: sentence-score differences (system minus baseline, 0-100 scale) that
#: bound the histogram's bars; the middle bar holds near-ties
#: lines of a training corpus read at a time
TRAIN_CHUNK = 65536

DIFFERENCE_EDGES: tuple[float, ...] = (-20.0, -10.0, -5.0, -2.0, -0.5, 0.5, 2.0, 5.0, 10.0, 20.0)


def _win(w: NgramWin) -> dict[str, Any]:
    return {"ngram": " ".join(w.ngram), "system": w.matches_a, "baseline": w.matches_b,
            "salience": w.salience}  # fmt: skip


@dataclass(frozen=True)
class PairAnalysis:
    """One system against the baseline: the n-grams it matches more often
    (``wins``) and less often (``losses``) than the baseline, strongest
    first; its sentence-score differences (system minus baseline, signed
    so that positive is better) as a histogram over ``edges``; and the
    segments (0-based) where it is most ahead (``ahead``) and most behind
    (``behind``), with their differences."""

    system: str
    baseline: str
    wins: tuple[NgramWin, ...]
    losses: tuple[NgramWin, ...]
    edges: tuple[float, ...]
    counts: tuple[int, ...]
    ahead: tuple[tuple[int, float], ...]
    behind: tuple[tuple[int, float], ...]

    @property
    def buckets(self) -> tuple[str, ...]:
        """The histogram's bucket names."""
        return bucket_labels(self.edges, integer=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "baseline": self.baseline,
            "wins": [_win(w) for w in self.wins],
            "losses": [_win(w) for w in self.losses],
            "differences": {
                "buckets": list(self.buckets),
                "counts": list(self.counts),
            },
            "ahead": [{"segment": i + 1, "difference": d} for i, d in self.ahead],
            "behind": [{"segment": i + 1, "difference": d} for i, d in self.behind],
        }


@dataclass(frozen=True)
class Aggregate:
    """compare-mt's aggregate table: each variant's corpus score of each
    system, and each system's length ratio, its words over the first
    reference's (compare-mt's ``LengthScorer``; 0 for a reference of no
    words)."""

    variants: tuple[str, ...]
    scores: tuple[tuple[float, ...], ...]
    length_ratios: tuple[float, ...]

    def to_dict(self, systems: Sequence[str]) -> list[dict[str, Any]]:
        return [
            {"system": name, "scores": {v: row[k] for v, row in zip(self.variants, self.scores)},
             "length_ratio": self.length_ratios[k]}
            for k, name in enumerate(systems)
        ]  # fmt: skip


@dataclass(frozen=True)
class Analysis:
    """Every analysis of ``systems`` (the first is the baseline)."""

    systems: tuple[str, ...]
    #: how the words of the word and n-gram analyses were made
    tokens: str
    #: where the word frequencies came from
    frequencies: str
    #: the variant of the sentence scores, and its signature
    sentence_variant: str
    sentence_signature: str
    by_length: tuple[SentenceBuckets, ...]
    by_ratio: tuple[SentenceBuckets, ...]
    words: WordAccuracy
    pairs: tuple[PairAnalysis, ...]
    aggregate: Aggregate
    #: compare-mt's count tables: segments by length difference (words of
    #: the hypothesis minus the reference's) and by sentence score
    by_length_difference: CountBuckets
    by_sentence_score: CountBuckets
    #: each system's sentence scores under ``sentence_variant`` (for the
    #: report's table; not in ``to_dict``)
    scores: tuple[Sequence[float], ...] = field(repr=False, compare=False)

    def to_frame(self, table: str = "aggregate") -> Any:
        """One of the analysis's tables (``FRAMES``) as a tidy pandas
        DataFrame: ``aggregate`` (a row per system), ``by_reference_length``
        and ``by_length_ratio`` (per variant, bucket and system: segments and
        score), ``by_length_difference`` and ``by_sentence_score`` (per
        bucket and system: segments), ``word_accuracy`` (per bucket and
        system), ``ngrams`` (each system's strongest n-grams against the
        baseline) or ``segments`` (where each system is furthest ahead and
        behind). Needs ``bleukit[pandas]``."""
        from ..core.dataframes import data_frame

        rows = FRAMES.get(table)
        if rows is None:
            raise InputError(f"analysis table {table!r}: expected one of {', '.join(FRAMES)}")
        return data_frame(rows(self))

    def to_dict(self) -> dict[str, Any]:
        return {
            "systems": list(self.systems),
            "tokens": self.tokens,
            "frequencies": self.frequencies,
            "sentence_scores": {
                "variant": self.sentence_variant,
                "signature": self.sentence_signature,
            },
            "aggregate": self.aggregate.to_dict(self.systems),
            "by_reference_length": [b.to_dict() for b in self.by_length],
            "by_length_ratio": [b.to_dict() for b in self.by_ratio],
            "by_length_difference": self.by_length_difference.to_dict(),
            "by_sentence_score": self.by_sentence_score.to_dict(),
            "word_accuracy": self.words.to_dict(),
            "pairs": [p.to_dict() for p in self.pairs],
        }


Rows = list[dict[str, Any]]


def _aggregate_rows(a: Analysis) -> Rows:
    g = a.aggregate
    return [{"system": name, **{v: s[k] for v, s in zip(g.variants, g.scores)},
             "length_ratio": g.length_ratios[k]} for k, name in enumerate(a.systems)]  # fmt: skip


def _score_rows(buckets: Sequence[SentenceBuckets]) -> Rows:
    return [{"variant": b.variant, "bucket": label, "system": s, "segments": counts[i],
             "score": number(scores[i])}
            for b in buckets for s, counts, scores in zip(b.systems, b.counts, b.scores)
            for i, label in enumerate(b.labels)]  # fmt: skip


def _count_rows(c: CountBuckets) -> Rows:
    return [{"bucket": label, "system": s, "segments": counts[i]}
            for s, counts in zip(c.systems, c.counts)
            for i, label in enumerate(c.labels)]  # fmt: skip


def _word_rows(a: Analysis) -> Rows:
    w = a.words
    rows = []
    for k, s in enumerate(w.systems):
        for i, label in enumerate(w.labels):
            recall, precision, f = w.measures(k, i)
            rows.append({"bucket": label, "system": s, "ref_words": w.ref_totals[i],
                         "hyp_words": w.hyp_totals[k][i], "matches": w.matches[k][i],
                         "recall": recall, "precision": precision, "f_measure": f})  # fmt: skip
    return rows


def _ngram_rows(a: Analysis) -> Rows:
    return [{"system": p.system, "baseline": p.baseline, "matches": side, **_win(w)}
            for p in a.pairs for side, found in (("more", p.wins), ("less", p.losses))
            for w in found]  # fmt: skip


def _segment_rows(a: Analysis) -> Rows:
    return [{"system": p.system, "baseline": p.baseline, "side": side, "segment": i + 1,
             "difference": d}
            for p in a.pairs for side, found in (("ahead", p.ahead), ("behind", p.behind))
            for i, d in found]  # fmt: skip


#: the tables ``Analysis.to_frame`` gives, and their rows
FRAMES: dict[str, Callable[[Analysis], Rows]] = {
    "aggregate": _aggregate_rows,
    "by_reference_length": lambda a: _score_rows(a.by_length),
    "by_length_ratio": lambda a: _score_rows(a.by_ratio),
    "by_length_difference": lambda a: _count_rows(a.by_length_difference),
    "by_sentence_score": lambda a: _count_rows(a.by_sentence_score),
    "word_accuracy": _word_rows,
    "ngrams": _ngram_rows,
    "segments": _segment_rows,
}


#: how the segments furthest ahead and behind are chosen: ``bleukit``'s
#: (every segment, the largest differences of either sign, ties by
#: position), or ``compare-mt``'s (``generate_sentence_examples``: a
#: segment whose baseline, system and reference lines were seen before is
#: dropped, and the rest ordered by the difference, then the baseline's
#: score, the system's and the position)
EXAMPLES = ("bleukit", "compare-mt")


class SegmentKeys:
    """Per segment, a digest of its reference line and of each system's
    line (stripped, as compare-mt's words are: equal digests are equal
    word lists), gathered a chunk at a time, so that compare-mt's examples
    skip repeated segments without the text being kept (16 bytes a line)."""

    def __init__(self, systems: int) -> None:
        self.refs: list[bytes] = []
        self.hyps: list[list[bytes]] = [[] for _ in range(systems)]

    @staticmethod
    def _digest(line: str | None) -> bytes:
        text = (line or "").strip().encode("utf-8", "surrogatepass")
        return hashlib.blake2b(text, digest_size=16).digest()

    def add(self, refs: Sequence[str | None], hyps: Sequence[Sequence[str]]) -> None:
        self.refs.extend(map(self._digest, refs))
        for mine, lines in zip(self.hyps, hyps):
            mine.extend(map(self._digest, lines))

    def pair(self, baseline: int, system: int) -> list[tuple[bytes, bytes, bytes]]:
        """Each segment's key for one pair of systems: (baseline's line,
        system's line, reference), as compare-mt keys them."""
        return list(zip(self.hyps[baseline], self.hyps[system], self.refs))


def compare_mt_examples(
    baseline: Sequence[float], system: Sequence[float], keys: Sequence[object], count: int
) -> tuple[list[int], list[int]]:
    """compare-mt's sentence examples of one pair (``compare_directions``
    0-1): the segments (0-based) where the system is furthest ahead of the
    baseline, furthest first, and where it is furthest behind; a segment
    whose key was seen before left out; the first ``count`` and the last
    ``count`` of (system - baseline, baseline, system, position) sorted,
    whatever their sign (compare-mt's lists hold ties when few differ)."""
    seen: set[object] = set()
    rows = []
    for i, (s1, s2, key) in enumerate(zip(baseline, system, keys)):
        if key not in seen:
            seen.add(key)
            rows.append((s2 - s1, s1, s2, i))
    rows.sort()
    behind = [r[3] for r in rows[:count]]
    ahead = [r[3] for r in reversed(rows[-count:])] if count else []
    return ahead, behind


def _signed(variant: AnyMetric, a: Sequence[float], b: Sequence[float]) -> array[float]:
    """a - b, negated where a lower score is better (TER)."""
    sign = 1.0 if variant.higher_is_better else -1.0
    return array("d", (sign * (x - y) for x, y in zip(a, b)))


def _length_buckets(
    variants: Sequence[AnyMetric], stats: SystemStatistics, counts: CorpusCounts
) -> tuple[list[SentenceBuckets], list[SentenceBuckets]]:
    """Each variant's sentences bucketed by reference length and by length
    ratio (the ratios, 8 bytes a segment and system, freed on return)."""
    names = stats.systems
    ref_lengths = counts.ref_lengths
    ratios = [array("d", (h / max(1, r) for h, r in zip(lengths, ref_lengths)))
              for lengths in counts.hyp_lengths]  # fmt: skip
    by_length, by_ratio = [], []
    stage("bucketing each variant's sentences", len(variants), "variants")
    for v in variants:
        segs = [(name, stats.segment_stats(v, name)) for name in names]
        # each system's statistics as columns once, for both bucketings
        # (``SystemStatistics.columns``), then released: a report's
        # analyses would hold them beside its sentence scores (BLEU's rows
        # of a million segments and two systems: 40 MB at its peak), and the
        # tests that follow make them again (0.4 s a system at a million)
        cols = [stats.columns(v, name) for name in names] if stats.segments else None
        by_length.append(sentence_buckets(v, segs, stats.nrefs, [ref_lengths] * len(names),
                                          LENGTH_CUTOFFS, "reference length",
                                          columns=cols))  # fmt: skip
        by_ratio.append(sentence_buckets(v, segs, stats.nrefs, ratios, RATIO_CUTOFFS,
                                         "length ratio", integer=False, columns=cols))  # fmt: skip
        stats.release_columns(v)
        advance()
    return by_length, by_ratio


def analyze(
    variants: Sequence[AnyMetric],
    stats: SystemStatistics,
    counts: CorpusCounts,
    tokens: str,
    frequencies: Mapping[str, int] | None = None,
    frequency_source: str = "references",
    top: int = 10,
    keys: SegmentKeys | None = None,
) -> Analysis:
    """Every analysis of the systems in ``stats`` (counted in ``counts``
    too, in the same order and segments); ``frequencies``: word counts of
    a training corpus (None: the references'); ``top``: how many n-grams
    and segments each list keeps; ``keys``: the segments' lines' digests,
    for compare-mt's examples (None: bleukit's, ``largest_differences``)."""
    names = stats.systems
    ref_lengths = counts.ref_lengths
    by_length, by_ratio = _length_buckets(variants, stats, counts)
    words = counts.word_accuracy(
        counts.ref_words if frequencies is None else frequencies, FREQUENCY_CUTOFFS
    )
    # a report's sentence scores: most are 0 unsmoothed (Metric.sentence_variant)
    sentence = variants[0].sentence_variant()
    # kept as float64 arrays: 8 bytes a score, not a float object's 32 (a
    # million segments and two systems: 48 MB less)
    scores = tuple(array("d", stats.sentence_values(sentence, name)) for name in names)
    pairs = []
    for k in range(1, len(names)):
        wins, lost = counts.strongest(k, 0, top)
        diffs = _signed(sentence, scores[k], scores[0])
        if keys is None:
            ahead, behind = largest_differences(diffs, [0.0] * len(diffs), top)
        else:
            sign = 1.0 if sentence.higher_is_better else -1.0
            ahead, behind = compare_mt_examples([sign * x for x in scores[0]],
                                                [sign * x for x in scores[k]],
                                                keys.pair(0, k), top)  # fmt: skip
        pairs.append(
            PairAnalysis(
                names[k],
                names[0],
                tuple(w for w in wins if w.salience > 0.5),
                tuple(w for w in lost if w.salience < 0.5),
                DIFFERENCE_EDGES,
                tuple(histogram(diffs, DIFFERENCE_EDGES)),
                tuple((i, diffs[i]) for i in ahead),
                tuple((i, diffs[i]) for i in behind),
            )
        )
    ref_words = sum(ref_lengths)
    aggregate = Aggregate(
        tuple(v.name for v in variants),
        tuple(tuple(v.score_stats(stats.total(v, name), stats.nrefs).score for name in names)
              for v in variants),
        tuple(sum(lengths) / ref_words if ref_words else 0.0 for lengths in counts.hyp_lengths),
    )  # fmt: skip
    differences = [array("i", (h - r for h, r in zip(lengths, ref_lengths)))
                   for lengths in counts.hyp_lengths]  # fmt: skip
    return Analysis(
        tuple(names),
        tokens,
        frequency_source,
        sentence.name,
        sentence.signature(stats.nrefs).long,
        tuple(by_length),
        tuple(by_ratio),
        words,
        tuple(pairs),
        aggregate,
        count_buckets("length difference", names, differences, LENGTH_DIFF_CUTOFFS),
        count_buckets(
            f"{sentence.name} sentence score", names, scores, SCORE_CUTOFFS, integer=False
        ),
        scores,
    )


#: how ``analyze_files`` can make words: compare-mt's (lines split on
#: spaces), or the first variant's tokens (``Metric.display_tokens``)
WORDS = ("variant", "compare-mt")


@dataclass(frozen=True)
class Words:
    """How lines become the words the analyses count (one of ``WORDS``),
    and how a page says it."""

    described: str
    #: each line's words
    tokens: Callable[[Sequence[str]], list[list[str]]]
    #: the words as one block (``core.matches``) where that needs no list
    #: per line, else None
    block: Callable[[Sequence[str]], str | None]
    #: whether a block's empty words count (compare-mt's do)
    keep_empty: bool

    def text(self, lines: Sequence[str]) -> Text:
        """A chunk's words for ``CorpusCounts.add``: a block where one can
        be made, else token lists."""
        block = self.block(lines) if lines else None
        return self.tokens(lines) if block is None else block


def _compare_mt_block(lines: Sequence[str]) -> str | None:
    """compare-mt's words as a block: each line stripped, the lines joined
    by newlines (it splits them on single spaces); None where a line holds
    a newline inside, which a block cannot carry."""
    block = "\n".join(line.strip() for line in lines)
    return block if block.count("\n") == len(lines) - 1 else None


def tokenizer(variant: AnyMetric, words: str) -> Words:
    """How lines become words for ``words`` (one of ``WORDS``)."""
    if words == "compare-mt":
        return Words(
            "compare-mt's (lines split on spaces)",
            lambda lines: [compare_mt_words(x) for x in lines],
            _compare_mt_block,
            keep_empty=True,
        )
    if words != "variant":
        raise InputError(f"words: {words!r} is not one of {', '.join(WORDS)}")
    return Words(f"{variant.name}'s tokens", variant.display_tokens, variant.display_block, False)


def file_frequencies(path: str, words: Words) -> Counter[str]:
    """Word counts of a training corpus file, read a chunk at a time."""
    counts: Counter[str] = Counter()
    for (lines,) in read_in_step([path], TRAIN_CHUNK):
        counts.update(itertools.chain.from_iterable(words.tokens(lines)))
    return counts


def corpus_counts(variant: AnyMetric, systems: Sequence[str]) -> CorpusCounts:
    """Empty counts of ``systems``, kept by the engine of ``variant``."""
    return CorpusCounts(systems, store=variant.engine.match_counts(len(systems), 4))


#: lines of a chunk whose words are counted at once (``_add_chunk``)
COUNT_LINES = 4096


def _add_chunk(
    counts: CorpusCounts,
    words: Words,
    refs: Sequence[Sequence[str | None]],
    hyps: Sequence[Sequence[str]],
) -> None:
    """A chunk's words into ``counts``: the first reference stream's (a
    missing reference as an empty line) and each system's, ``COUNT_LINES``
    at a time (the compiled counts copy each block's text at 4 bytes a
    character: a whole chunk's, 32,768 lines of three streams, took 60 MB)."""
    step = COUNT_LINES
    for lo in range(0, len(refs[0]), step):
        ref_lines = [r or "" for r in refs[0][lo : lo + step]]
        counts.add(words.text(ref_lines), [words.text(lines[lo : lo + step]) for lines in hyps],
                   words.keep_empty)  # fmt: skip


def analyze_lines(
    variants: Sequence[AnyMetric],
    named_hyps: Sequence[tuple[str, Sequence[str]]],
    streams: Sequence[Sequence[str | None]],
) -> tuple[Analysis, SystemStatistics]:
    """``analyze`` of systems held in memory, in the first variant's tokens."""
    words = tokenizer(variants[0], "variant")
    stats = collect(variants, named_hyps, streams)
    counts = corpus_counts(variants[0], stats.systems)
    _add_chunk(counts, words, streams, [lines for _, lines in named_hyps])
    return analyze(variants, stats, counts, words.described), stats


def analyze_files(
    variants: Sequence[AnyMetric],
    ref_paths: Sequence[str],
    hyp_paths: Sequence[str],
    names: Sequence[str],
    words: str = "variant",
    train: str | None = None,
    top: int = 10,
    execution: Execution = LOCAL,
    examples: str = "bleukit",
) -> tuple[Analysis, SystemStatistics]:
    """``analyze`` of hypothesis files (the first is the baseline), read
    once a chunk at a time; ``examples`` (``EXAMPLES``): how the segments
    furthest ahead and behind are chosen."""
    if examples not in EXAMPLES:
        raise InputError(f"examples: {examples!r} is not one of {', '.join(EXAMPLES)}")
    split = tokenizer(variants[0], words)
    frequencies = None if train is None else file_frequencies(train, split)
    counts = corpus_counts(variants[0], names)
    keys = SegmentKeys(len(names)) if examples == "compare-mt" else None

    def count(refs: Sequence[Sequence[str | None]], hyps: Sequence[Sequence[str]]) -> None:
        _add_chunk(counts, split, refs, hyps)
        if keys is not None:
            keys.add(refs[0], hyps)

    stats = collect_files(variants, ref_paths, hyp_paths, names, execution, count)
    source = "references" if train is None else f"training corpus {train}"
    with phase("analyses"):
        analysis = analyze(variants, stats, counts, split.described, frequencies, source, top,
                           keys)  # fmt: skip
    return analysis, stats
