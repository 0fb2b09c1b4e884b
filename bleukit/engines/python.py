"""The reference engine: pure Python, one segment at a time, on n-gram
Counters of the tokens (``ngrams``, ``stats.segment_stats``). Every other
engine is tested against it."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence

from ..core.reflen import closest, shortest
from ..core.stats import References, prepare_references, segment_stats
from ..tokenizers import Tokenization, Tokens
from .base import Engine
from .tables import SegmentTable

#: segments per table
CHUNK = 4096

#: one segment's references: prepared n-grams, and every stream's length
#: (-1 where the segment has no reference in that stream)
PreparedSegment = tuple[References, tuple[int, ...]]


def prepare_segments(
    preprocess: Callable[[str], Tokens], streams: Sequence[Sequence[str | None]], order: int
) -> list[PreparedSegment]:
    out = []
    for refs in zip(*streams):
        tokens = [preprocess(r) if r is not None else None for r in refs]
        present = [t for t in tokens if t is not None]
        row = tuple(len(t) if t is not None else -1 for t in tokens)
        out.append((prepare_references(present, order), row))
    return out


def count_segments(
    preprocess: Callable[[str], Tokens],
    hyps: Sequence[str],
    prepared: Sequence[PreparedSegment],
    order: int,
) -> SegmentTable:
    """The table of hypotheses against their prepared references."""
    hyp_len, ref_len, matches, nearest = (array("q") for _ in range(4))
    nref = len(prepared[0][1]) if prepared else 0
    for hyp, (refs, row) in zip(hyps, prepared):
        tokens = preprocess(hyp)
        h = len(tokens)
        stats = segment_stats(tokens, refs, order, closest, "exact")
        hyp_len.append(h)
        ref_len.extend(row)
        matches.extend(stats.counts)
        nearest.extend((stats.ref_len, shortest(h, refs.lengths)))  # type: ignore[arg-type]
    return SegmentTable(hyp_len, ref_len, matches, nearest, nref, order)


class PythonEngine(Engine):
    """Pure Python: runs anywhere, with any tokenizer and splitter."""

    name = "python"
    order_bound = True

    def describe(self) -> str:
        return "python (the reference engine)"

    def batch_lines(self) -> int:
        return 8 * CHUNK

    def prepare(
        self, tokenization: Tokenization, streams: Sequence[Sequence[str | None]], order: int
    ) -> list[PreparedSegment]:
        return prepare_segments(tokenization.preprocess, streams, order)

    def tables(
        self, tokenization: Tokenization, hyps: Sequence[str], prepared: object, order: int
    ) -> Iterator[SegmentTable]:
        segments: Sequence[PreparedSegment] = prepared  # type: ignore[assignment]
        for lo in range(0, len(hyps), CHUNK):
            hi = lo + CHUNK
            yield count_segments(tokenization.preprocess, hyps[lo:hi], segments[lo:hi], order)
