"""The NIST stage: Doddington's (2002) information-weighted n-gram
co-occurrence score ("Automatic evaluation of machine translation quality
using n-gram co-occurrence statistics"), as mteval-v13a.pl (Moses,
``scripts/generic``) computes it; its numbers are the reference.

references -> each n-gram's information: -log2 of the share of its
(n-1)-gram prefix's occurrences that continue into it, over every
reference of the corpus (a unigram's: its share of all reference words)
-> per segment and order, the information of the hypothesis n-grams the
references match (each clipped to the most any one reference holds), the
number of hypothesis n-grams, and the mean reference length -> additive
corpus statistics -> the sum over orders of information per hypothesis
n-gram, times NIST's brevity penalty (exp(-beta log^2 ratio), beta set so
that a hypothesis 2/3 of the reference length scores half).

The information is kept in fixed point (``INFO_BITS`` fractional bits),
each n-gram's rounded once, so that statistics are integers that sum
exactly and in any order; mteval's own floating-point sums run in Perl's
hash order, so its last digits are not reproducible either. The rounding
moves a score by at most ``order * 2**-(INFO_BITS + 1)`` (below 1e-11).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.ngrams import Ngram, count_ngrams, max_counts
from ...core.reflen import RefLength, mean_length
from ..fields import FieldForm, FieldResult, OwnSignature
from .config import NIST_METRIC, NIST_SCORING_FIELDS, NistConfig

#: fractional bits of the fixed-point information
INFO_BITS = 40
INFO_SCALE = 1 << INFO_BITS

#: NIST's statistics: the (summed mean) reference length, then per order
#: the hypothesis n-grams, then per order the matched information (fixed point)
NistStats = tuple[RefLength, ...]

# mteval-v13a.pl's nist_length_penalty: ratio_x = 1.5, score_x = 0.5
PENALTY_BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)

#: how the tokenization fields NIST and GLEU share are written in a signature
TOKENIZATION_KEYS = {
    "metric": ("metric", "m"),
    "tokenizer": ("tok", "t"),
    "split": ("split", "sp"),
    "lowercase": ("case", "c"),
}
TOKENIZATION_SPELLING = {
    "lowercase": {False: ("mixed", "m"), True: ("lc", "lc"), "ascii": ("lc-ascii", "lca")}
}
#: how NIST's fields are written in a signature
NIST_FORM = FieldForm(
    NIST_METRIC,
    NIST_SCORING_FIELDS,
    keys={**TOKENIZATION_KEYS, "max_order": ("order", "n")},
    spelling=TOKENIZATION_SPELLING,
    texts=frozenset({"tokenizer", "split"}),
)


@dataclass(frozen=True)
class NistSignature(OwnSignature):
    """The complete signature of a NIST score: tokenization, case, order,
    the number of references and the version (docs/signatures.md)."""

    config: NistConfig
    form = NIST_FORM


#: compatibility quirk: mteval tests an n-gram's prefix string for truth,
#: and Perl's "0" is false, so an n-gram after the word "0" is weighed as a
#: unigram is, by its share of all reference words
FALSY = "0"


def information(references: Iterable[Sequence[str]], order: int) -> dict[Ngram, int]:
    """Each reference n-gram's information in bits, fixed point, from every
    reference segment of the corpus (mteval's compute_ngram_info)."""
    counts: Counter[Ngram] = Counter()
    words = 0
    for ref in references:
        words += len(ref)
        # counted into one Counter, not core.ngrams.count_ngrams per
        # reference and merged: 40% less time on WMT21 en-de's 3 references
        for n in range(1, min(order, len(ref)) + 1):
            counts.update(zip(*(ref[i:] for i in range(n))))
    log2 = math.log(2)
    # many n-grams share their (count, prefix count): one logarithm each
    bits: dict[tuple[int, int], int] = {}
    info = {}
    for ngram, count in counts.items():
        prefix = ngram[:-1]
        of = words if not prefix or prefix == (FALSY,) else counts[prefix]
        value = bits.get((count, of))
        if value is None:
            value = bits[count, of] = round(-math.log(count / of) / log2 * INFO_SCALE)
        info[ngram] = value
    return info


def segment_stats(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], info: dict[Ngram, int], order: int
) -> NistStats:
    """One segment's statistics (mteval's score_segment): the mean length of
    its references, per order the hypothesis n-grams, and per order the
    information of the matched n-grams, clipped to the most any one
    reference holds."""
    best = max_counts(count_ngrams(ref, order) for ref in refs)
    matched = [0] * order
    for ngram, count in count_ngrams(hyp, order).items():
        clip = best.get(ngram)
        if clip:
            matched[len(ngram) - 1] += info[ngram] * min(count, clip)
    totals = [max(len(hyp) - n, 0) for n in range(order)]
    return (mean_length(refs), *totals, *matched)


def length_penalty(ratio: float) -> float:
    """NIST's brevity penalty of a hypothesis/reference length ratio
    (mteval's nist_length_penalty)."""
    if ratio >= 1:
        return 1.0
    if ratio <= 0:
        return 0.0
    return math.exp(-PENALTY_BETA * math.log(ratio) * math.log(ratio))


def nist_score(stats: NistStats, order: int) -> float:
    """NIST of (summed) statistics (mteval's nist_score): per order the
    information per hypothesis n-gram, summed, times the brevity penalty
    of the hypothesis length against the mean reference length (none where
    there is no reference word: nothing then matches, and the score is 0)."""
    ref_len = stats[0]
    totals, info = stats[1 : 1 + order], stats[1 + order :]
    score = 0.0
    for matched, total in zip(info, totals):
        score += matched / (INFO_SCALE * max(int(total), 1))
    if not ref_len:
        return score
    return score * length_penalty(int(totals[0]) / float(ref_len))


@dataclass(frozen=True)
class NistResult(FieldResult):
    """A NIST score with its statistics: per order the hypothesis n-grams
    and the matched information (bits), and the lengths."""

    score: float
    totals: tuple[int, ...]
    information: tuple[float, ...]
    sys_len: int
    ref_len: RefLength
    signature: NistSignature | None = None

    name = "NIST"
    #: mteval prints NIST with 4 decimals
    digits = 4

    def statistics(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "information": list(self.information),
            "sys_len": self.sys_len,
            "ref_len": float(self.ref_len),
        }
