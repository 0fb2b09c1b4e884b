"""The chrF stage: character n-gram F-score (Popović 2015, "chrF: character
n-gram F-score for automatic MT evaluation") and chrF++, which adds word
n-grams (Popović 2017, "chrF++: words helping character n-grams"), computed
as sacrebleu 2.6.0's ``CHRF`` computes them (its numbers are the reference).

text -> character n-grams (orders 1..char_order; whitespace removed unless
``whitespace``) and word n-grams (orders 1..word_order, of words split off
one leading or trailing punctuation mark) -> per reference and order, the
triple (hypothesis n-grams, reference n-grams, clipped matches) -> per
segment, the triples of the reference with the best F -> additive corpus
statistics -> F-beta averaged over orders.

The clipped matches of a hypothesis against *one* reference are BLEU's
clipped matches against that reference alone, so an engine computes them:
one table per reference stream, with that stream only (``ChrfVariant``).
This module holds the pure parts: the configuration, the tokenizations the
engine runs, triples from tables, the best reference and the F-score.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...engines import SegmentTable
from ...tokenizers import BlockForm, Tokenization
from ...tokenizers.pipeline import BlockKind, fold_case
from ..fields import FieldForm, FieldResult, FieldSignature
from .config import CHRF_METRIC, CHRF_SCORING_FIELDS, ChrfConfig

SACREBLEU_VERSION = "2.6.0"
#: chrF++.py's, NLTK's and Moses' epsilon (sacrebleu's ``eps_smoothing``)
EPS = 1e-16

# sacrebleu's string.punctuation set for chrF++'s word split
_PUNCTS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


#: how chrF's fields are written in a signature
CHRF_FORM = FieldForm(
    CHRF_METRIC,
    CHRF_SCORING_FIELDS,
    keys={
        "metric": ("metric", "m"),
        "char_order": ("nc", "nc"),
        "word_order": ("nw", "nw"),
        "beta": ("beta", "b"),
        "lowercase": ("case", "c"),
        "whitespace": ("space", "sp"),
        "eps_smoothing": ("eps", "e"),
    },
    spelling={
        "lowercase": {False: ("mixed", "m"), True: ("lc", "lc")},
        "whitespace": {True: ("yes", "y"), False: ("no", "n")},
        "eps_smoothing": {True: ("yes", "y"), False: ("no", "n")},
    },
)


@dataclass(frozen=True)
class ChrfSignature(FieldSignature):
    """The complete signature of a chrF score: every scoring field, the
    number of references and the version (docs/signatures.md)."""

    config: ChrfConfig
    form = CHRF_FORM

    @property
    def sacrebleu_compatible(self) -> bool:
        """sacrebleu computes every chrF and chrF++ variant."""
        return True

    def sacrebleu_format(self, short: bool = False) -> str:
        """sacrebleu 2.6.0's chrF signature for this variant. Compatibility
        quirk: it states neither beta (only the score's name does) nor the
        metric, and its ``eff`` means "no epsilon smoothing"."""
        c = self.config
        fields = [
            (("nrefs", "#"), self.nrefs),
            (("case", "c"), "lc" if c.lowercase else "mixed"),
            (("eff", "e"), "no" if c.eps_smoothing else "yes"),
            (("nc", "nc"), c.char_order),
            (("nw", "nw"), c.word_order),
            (("space", "s"), "yes" if c.whitespace else "no"),
            (("version", "v"), SACREBLEU_VERSION),
        ]
        return "|".join(f"{key[short]}:{value}" for key, value in fields)

    @property
    def sacrebleu(self) -> str:
        return self.sacrebleu_format()


def is_chrf_signature(text: str) -> bool:
    return CHRF_FORM.states(text)


def parse_chrf_signature(text: str) -> ChrfSignature:
    """The chrF variant a signature (long or short form) states: the exact
    configuration and number of references (the version is not kept)."""
    from ..registry import validate_any

    return ChrfSignature.parse(text, validate_any)


@dataclass(frozen=True)
class ChrfResult(FieldResult):
    """A chrF score with its statistics: per order (characters first, then
    words), hypothesis n-grams, reference n-grams and clipped matches."""

    score: float
    name: str
    stats: tuple[int, ...]
    signature: ChrfSignature | None = None

    def statistics(self) -> dict[str, Any]:
        """Per order [hypothesis n-grams, reference n-grams, matches]
        (characters first, then words)."""
        return {"stats": [list(self.stats[i : i + 3]) for i in range(0, len(self.stats), 3)]}


# ------------------------------------------------------------ tokenization


def words(line: str) -> list[str]:
    """chrF++'s words: whitespace-separated, a word of two characters or
    more split once: a trailing punctuation mark off, else a leading one
    (m-popovic/chrF's chrF++.py, as sacrebleu; compatibility quirk:
    ``(hi)`` becomes ``(hi`` and ``)``, sacrebleu issue #124)."""
    out: list[str] = []
    for w in line.split():
        if len(w) == 1:
            out.append(w)
        elif w[-1] in _PUNCTS:
            out += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out


def _blocks(kind: BlockKind, lowercase: bool) -> BlockForm:
    """Lines joined, case folded: the engine splits them as ``kind`` says."""

    def block(lines: list[str]) -> str | None:
        text = "\n".join(lines)
        if text.count("\n") != len(lines) - 1:
            return None  # a line holds a newline: the reference engine counts it
        return fold_case(text, lowercase)

    return BlockForm(block, kind, False)


def char_tokenization(lowercase: bool, whitespace: bool) -> Tokenization:
    """Characters as chrF counts them: every code point of the (lowercased)
    line, whitespace removed (Python's ``str.split`` whitespace) unless
    ``whitespace``; nothing is stripped."""
    if whitespace:
        key = ("chrf-chars-space.v1", "none", lowercase)
        return Tokenization(
            key,
            lambda line: fold_case(line, lowercase),
            _blocks("chars-raw", lowercase),
        )
    key = ("chrf-chars.v1", "unicode.v1", lowercase)
    return Tokenization(
        key,
        lambda line: "".join(fold_case(line, lowercase).split()),
        _blocks("chars", lowercase),
    )


def word_tokenization(lowercase: bool) -> Tokenization:
    """chrF++'s words (``words``) of the (lowercased) line."""

    def per_line(line: str) -> list[str]:
        return words(fold_case(line, lowercase))

    key = ("chrf-words.v1", "unicode.v1", lowercase)
    return Tokenization(key, per_line, _blocks("chrf-words", lowercase))


# -------------------------------------------------------------- statistics


@dataclass(frozen=True)
class StreamCounts:
    """Per segment, the lengths (in symbols) and clipped matches of the
    hypotheses against one reference stream, flattened from tables."""

    hyp_len: list[int]
    ref_len: list[int]
    matches: list[int]
    order: int

    @staticmethod
    def from_tables(
        tables: Sequence[SegmentTable], order: int, present: Sequence[bool] | None = None
    ) -> StreamCounts:
        """The tables of one stream, counted at ``order``; ``present``: which
        segments have a reference in it (None: all)."""
        hyp: list[int] = []
        ref: list[int] = []
        matches: list[int] = []
        for t in tables:
            if t.order != order:
                raise ValueError(f"a table of order {t.order}, not {order}")
            hyp.extend(t.hyp_len)
            ref.extend(t.ref_len)  # one stream: one length per segment
            matches.extend(t.matches)
        if present is not None:
            ref = [r if p else -1 for r, p in zip(ref, present)]
        return StreamCounts(hyp, ref, matches, order)

    def at_order(self, order: int) -> StreamCounts:
        """These counts at a lower order (the first ``order`` matches of
        each segment: an n-gram's clipped matches do not depend on the
        longest order counted)."""
        if order == self.order:
            return self
        if not 0 < order < self.order:
            raise ValueError(f"counts of order {self.order} cannot give order {order}")
        k = self.order
        matches = [x for i in range(0, len(self.matches), k) for x in self.matches[i : i + order]]
        return StreamCounts(self.hyp_len, self.ref_len, matches, order)

    def triples(self, i: int) -> list[int] | None:
        """Segment i's (hypothesis, reference, matches) per order against
        this stream, None where the segment has no reference in it.
        Compatibility quirk (sacrebleu): an order the reference has no
        n-gram of counts no hypothesis n-grams either."""
        r = self.ref_len[i]
        if r < 0:
            return None
        h = self.hyp_len[i]
        base = i * self.order
        out: list[int] = []
        for n in range(1, self.order + 1):
            ref_n = r - n + 1 if r >= n else 0
            out += (h - n + 1 if h >= n and ref_n else 0, ref_n, self.matches[base + n - 1])
        return out


def stream_sums(counts: StreamCounts) -> list[int]:
    """The summed triples of every segment against one stream where every
    segment has its reference: ``sum_triples`` of ``triples``, by columns."""
    hyp, ref, k = counts.hyp_len, counts.ref_len, counts.order
    out: list[int] = []
    for n in range(1, k + 1):
        out += (
            sum(h - n + 1 for h, r in zip(hyp, ref) if h >= n and r >= n),
            sum(r - n + 1 for r in ref if r >= n),
            sum(counts.matches[n - 1 :: k]),
        )
    return out


def f_score(stats: Sequence[Any], order: int, beta: int, eps_smoothing: bool) -> float:
    """chrF of (summed) triples, on the 0-100 scale: by default the F-beta
    of precision and recall averaged over the orders that have n-grams on
    both sides (sacrebleu < 2.0's effective order); with ``eps_smoothing``
    the mean of every order's F-beta, an empty side counting as 1e-16
    (chrF++.py, Moses, NLTK). The operations are sacrebleu's, in its order,
    so the float results are identical (float32 scalars, ``core.float32.F32``,
    give its bootstrap's float32 arithmetic)."""
    factor = beta**2
    score = 0.0
    effective = 0
    avg_prec = avg_rec = 0.0
    for i in range(order):
        n_hyp, n_ref, n_match = stats[3 * i : 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else EPS
        rec = n_match / n_ref if n_ref > 0 else EPS
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return 100 * score / order
    if effective == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective
        avg_rec /= effective
    if avg_prec + avg_rec:
        return 100 * ((1 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec))
    return 0.0


def stream_rows(parts: Sequence[StreamCounts]) -> array[int] | None:
    """``best_triples`` of counts against one reference stream (a segment's
    character counts, then its word counts: ``parts``), flat in one int64
    array, where every segment has its reference (no F chooses one); made a
    column at a time, not a segment at a time (a meta grid's two chrF
    variants took about 3% of it this way). None where a segment has none."""
    if any(r < 0 for p in parts for r in p.ref_len):
        return None
    size = len(parts[0].hyp_len) if parts else 0
    width = 3 * sum(p.order for p in parts)
    rows = array("q", bytes(8 * size * width))
    column = 0
    for p in parts:
        for n in range(1, p.order + 1):
            # triples()'s, for every segment at once
            ref_n = [r - n + 1 if r >= n else 0 for r in p.ref_len]
            rows[column::width] = array(
                "q", [h - n + 1 if h >= n and r else 0 for h, r in zip(p.hyp_len, ref_n)]
            )
            rows[column + 1 :: width] = array("q", ref_n)
            rows[column + 2 :: width] = array("q", p.matches[n - 1 :: p.order])
            column += 3
    return rows


def best_triples(
    chars: Sequence[StreamCounts],
    word_streams: Sequence[StreamCounts],
    config: ChrfConfig,
) -> list[tuple[int, ...]]:
    """Per segment, the triples of its reference with the highest F (the
    first on a tie, as sacrebleu); with one reference, no F is needed."""
    order, beta, eps = config.order, config.beta, config.eps_smoothing
    out: list[tuple[int, ...]] = []
    size = len(chars[0].hyp_len) if chars else len(word_streams[0].hyp_len)
    streams = range(max(len(chars), len(word_streams)))
    for i in range(size):
        best: list[int] | None = None
        best_f = -1.0
        candidates = 0
        for k in streams:
            parts = [s[k].triples(i) for s in (chars, word_streams) if s]
            if parts[0] is None:
                continue
            stats = [x for p in parts if p is not None for x in p]
            candidates += 1
            if candidates == 1 and len(streams) == 1:
                best = stats
                break
            f = f_score(stats, order, beta, eps)
            if f > best_f:
                best, best_f = stats, f
        assert best is not None  # every segment has a reference (checked before)
        out.append(tuple(best))
    return out


def sum_triples(segments: Sequence[Sequence[int]], order: int) -> tuple[int, ...]:
    """The corpus statistics: the segments' triples summed."""
    total = [0] * (3 * order)
    for seg in segments:
        for j, v in enumerate(seg):
            total[j] += v
    return tuple(total)
