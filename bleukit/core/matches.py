"""The matched n-grams of a corpus, counted a chunk at a time (what
compare-mt's word and n-gram analyses read, ``analysis.buckets``): per word
its count in the reference and in each system's hypotheses, and per n-gram
(orders 1 to ``order``) how often each system matched it in its segment's
reference, each reference occurrence used once, so per segment and n-gram
min(its hypothesis count, its reference count) (compare-mt 0.2.10,
``ngram_utils.compare_ngrams``).

``MatchCounts`` is the reference; the compiled engine counts the same in C
(``bleukit._accel.MatchTable``), and ``Engine.match_counts`` chooses.

A chunk's lines come as token lists, or as one block of text: lines joined
by newlines, each line's words by single spaces (what the compiled engine
tokenizes without making a Python list per line). With ``keep_empty`` a
block's line splits as ``line.split(" ")``, empty words kept and an empty
line one empty word (compare-mt's words); without, empty words are dropped.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from typing import Protocol, cast

from .errors import InputError
from .ngrams import count_ngrams

#: a chunk of one side's lines: a block (str) or each line's words
Text = str | Sequence[Sequence[str]]

#: an n-gram of words
Gram = tuple[str, ...]

#: an n-gram, how often system a matched it and how often system b did
Ranked = tuple[Gram, int, int]


def line_count(text: Text) -> int:
    """How many lines a chunk holds (a block holds one more than its newlines)."""
    return text.count("\n") + 1 if isinstance(text, str) else len(text)


def check_chunk(ref: Text, hyps: Sequence[Text], systems: int) -> None:
    """One reference chunk and ``systems`` hypothesis chunks of its length."""
    if len(hyps) != systems:
        raise InputError(f"{len(hyps)} hypothesis chunks for {systems} systems")
    lines = line_count(ref)
    for k, text in enumerate(hyps):
        if line_count(text) != lines:
            raise InputError(f"system {k} has {line_count(text)} lines, the reference {lines}")


class MatchStore(Protocol):
    """What an engine's match counts give (``MatchCounts``, the reference)."""

    systems: int
    order: int

    def add(self, ref: Text, hyps: Sequence[Text], keep_empty: bool) -> list[array[int]]: ...
    def words(self, column: int) -> dict[str, int]: ...
    def matched(self, system: int, min_order: int, max_order: int) -> dict[Gram, int]: ...
    def ranked(
        self, a: int, b: int, min_order: int, alpha: float, count: int, losses: bool
    ) -> list[Ranked]: ...


def block_words(text: Text, keep_empty: bool) -> list[list[str]]:
    """The words of each line of a chunk."""
    if not isinstance(text, str):
        return [list(line) for line in text]
    lines = text.split("\n")
    if keep_empty:
        return [line.split(" ") for line in lines]
    return [[w for w in line.split(" ") if w] for line in lines]


def salience(a: int, b: int, alpha: float) -> float:
    """compare-mt's salience of an n-gram that system a matched ``a`` times
    and system b ``b`` times: (a + alpha) / (a + b + 2 alpha)."""
    return (a + alpha) / (a + b + 2 * alpha)


class MatchCounts:
    """The reference counts of ``systems`` systems at n-gram orders 1 to
    ``order``."""

    def __init__(self, systems: int, order: int) -> None:
        if systems < 1 or order < 1:
            raise InputError("match counts need a system or more and an order of 1 or more")
        self.systems = systems
        self.order = order
        #: column 0: the reference's words; 1 + k: system k's
        self._words: list[Counter[str]] = [Counter() for _ in range(systems + 1)]
        self._matched: list[Counter[Gram]] = [Counter() for _ in range(systems)]

    def add(self, ref: Text, hyps: Sequence[Text], keep_empty: bool) -> list[array[int]]:
        """One chunk: the reference's lines and each system's. Returns the
        words per line of the reference, then of each system."""
        check_chunk(ref, hyps, self.systems)
        refs = block_words(ref, keep_empty)
        systems = [block_words(h, keep_empty) for h in hyps]
        for column, lines in enumerate([refs, *systems]):
            words = self._words[column]
            for line in lines:
                words.update(line)
        for i, r in enumerate(refs):
            # lists of words: the n-grams are tuples
            ref_counts = cast("Counter[Gram]", count_ngrams(r, self.order))
            for lines, matched in zip(systems, self._matched):
                hyp_counts = cast("Counter[Gram]", count_ngrams(lines[i], self.order))
                # each hypothesis occurrence matches while an unused reference
                # one is left: min(hypothesis count, reference count) in all
                matched.update({g: min(c, ref_counts[g]) for g, c in hyp_counts.items()
                                if g in ref_counts})  # fmt: skip
        return [array("q", map(len, lines)) for lines in [refs, *systems]]

    def words(self, column: int) -> dict[str, int]:
        """Each word's count: column 0 the reference's, 1 + k system k's."""
        return dict(self._words[column])

    def matched(self, system: int, min_order: int, max_order: int) -> dict[Gram, int]:
        """How often the system matched each n-gram of orders ``min_order``
        to ``max_order``."""
        return {g: c for g, c in self._matched[system].items()
                if min_order <= len(g) <= max_order}  # fmt: skip

    def ranked(
        self, a: int, b: int, min_order: int, alpha: float, count: int, losses: bool
    ) -> list[Ranked]:
        """The first ``count`` n-grams (``min_order`` up) that system a or b
        matched: by salience, the highest first (the lowest with
        ``losses``), then the most matches of the two together, then the
        n-gram itself (compare-mt leaves ties in hash order, which changes
        from run to run)."""
        ma, mb = self._matched[a], self._matched[b]
        sign = 1 if losses else -1
        grams = [g for g in ma.keys() | mb.keys() if len(g) >= min_order]
        grams.sort(key=lambda g: (sign * salience(ma[g], mb[g], alpha), -(ma[g] + mb[g]), g))
        return [(g, ma[g], mb[g]) for g in grams[:count]]
