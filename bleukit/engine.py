"""Engines: the per-segment statistics of many segments at once.

Two engines compute the same statistics (tests compare them on random text):

* ``python``, the reference: ``stats.segment_stats`` one segment at a time,
  on n-gram Counters of the tokens;
* ``c``, the compiled ``bleukit._accel``: blocks of ``CHUNK`` lines are
  tokenized at once (``tokenizers.make_block_preprocessor``) and counted in
  C. Only blocks of text, never every reference's n-grams, are kept, so
  memory stays flat.

``BLEUKIT_ENGINE`` chooses: ``auto`` (the default: ``c`` when it is built
and the variant's splitter is a built-in one, else ``python``), ``c`` (its
absence is an error) or ``python``. Both give identical statistics, so the
choice is not part of the signature.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .errors import ConfigError, MissingDependencyError
from .reflen import RefLength, closest, shortest
from .stats import Stats, ngram_totals

CHUNK = 4096
ENGINES = ("auto", "c", "python")


def workers() -> int:
    """Threads for the compiled engine, which counts without the GIL: the
    CPUs this process may use (``BLEUKIT_THREADS`` overrides)."""
    value = os.environ.get("BLEUKIT_THREADS")
    if value is not None:
        if not value.isdigit() or int(value) < 1:
            raise ConfigError(f"BLEUKIT_THREADS={value!r}: expected a positive integer")
        return int(value)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ordered_map(fn: Callable, items: Iterable, threads: int) -> Iterator:
    """fn over items in up to ``threads`` threads, results in order, with at
    most two items per thread in flight (so memory stays bounded); no thread
    for a single item. ``items`` is consumed in the calling thread."""
    items = iter(items)
    first = list(itertools.islice(items, 2))
    if threads <= 1 or len(first) <= 1:
        yield from map(fn, itertools.chain(first, items))
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads) as pool:
        pending: deque = deque()
        for item in itertools.chain(first, items):
            pending.append(pool.submit(fn, item))
            if len(pending) >= 2 * threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def accelerator():
    """The compiled module, or None where it was not built."""
    try:
        from . import _accel
    except ImportError:
        return None
    return _accel


def requested_engine() -> str:
    value = os.environ.get("BLEUKIT_ENGINE", "auto")
    if value not in ENGINES:
        raise ConfigError(f"BLEUKIT_ENGINE={value!r}: expected one of {', '.join(ENGINES)}")
    return value


def resolve_engine(requested: str | None, block_capable: bool) -> str:
    """The engine that runs: ``requested`` (None: the environment's)."""
    requested = requested or requested_engine()
    if requested not in ENGINES:
        raise ConfigError(f"engine {requested!r}: expected one of {', '.join(ENGINES)}")
    if requested == "python":
        return "python"
    if requested == "c":
        if accelerator() is None:
            raise MissingDependencyError(
                "the compiled engine bleukit._accel is not built (reinstall bleukit where "
                "a C compiler is available), or set BLEUKIT_ENGINE=python"
            )
        if not block_capable:
            raise ConfigError(
                "the compiled engine needs a built-in splitter (unicode.v1 or ascii.v1)"
            )
        return "c"
    return "c" if block_capable and accelerator() is not None else "python"


@dataclass(frozen=True)
class RefBlock:
    """A chunk of reference segments, tokenized: one block of text per
    reference stream (None where a segment holds a newline that the block
    cannot carry), which segments each stream has (None: all), and the
    streams' own lines, for a chunk the reference engine must count."""

    size: int
    blocks: list[str | None]
    present: list[bytes | None]
    raw: list[list[str | None]]


def ref_blocks(
    block: Callable[[list[str]], str | None], streams: Sequence[Sequence[str | None]]
) -> tuple[RefBlock, ...]:
    """The reference streams in chunks of CHUNK segments, tokenized."""
    size = len(streams[0])
    chunks = []
    for lo in range(0, size, CHUNK):
        hi = min(size, lo + CHUNK)
        blocks, present, raw = [], [], []
        for stream in streams:
            part = list(stream[lo:hi])
            raw.append(part)
            if None in part:
                present.append(bytes(r is not None for r in part))
                part = [r if r is not None else "" for r in part]
            else:
                present.append(None)
            blocks.append(block(part))
        chunks.append(RefBlock(hi - lo, blocks, present, raw))
    return tuple(chunks)


@dataclass(frozen=True)
class SegmentTable:
    """Per-segment statistics of a chunk as flat int64 arrays: hypothesis
    lengths, reference lengths (segment x stream, -1 where absent) and
    clipped matches (segment x order)."""

    hyp_len: memoryview
    ref_len: memoryview
    matches: memoryview
    nearest: memoryview  # segment x (closest, shortest), computed in C
    nref: int
    order: int

    def ref_lengths(self, i: int) -> tuple[int, ...]:
        row = self.ref_len[i * self.nref : (i + 1) * self.nref]
        return tuple(r for r in row if r >= 0)

    def chosen_lengths(self, ref_length: Callable[[int, Sequence[int]], RefLength]) -> Sequence:
        """Each segment's reference length under the policy: read from the
        table for the built-in closest and shortest policies (their C twins
        are tested against them), else by calling the policy."""
        if ref_length is closest:
            return self.nearest[0::2]
        if ref_length is shortest:
            return self.nearest[1::2]
        return [ref_length(h, self.ref_lengths(i)) for i, h in enumerate(self.hyp_len)]


def block_table(
    hyp_block: str,
    refs: RefBlock,
    mode: int,
    order: int,
    categories: Callable[[], bytes] | None = None,
) -> SegmentTable:
    extra = () if categories is None else (categories(),)
    arrays = accelerator().block_stats(hyp_block, refs.blocks, refs.present, mode, order, *extra)
    return SegmentTable(*(memoryview(a).cast("q") for a in arrays), len(refs.blocks), order)


def reference_table(
    preprocess: Callable[[str], Sequence[str] | str],
    hyps: Sequence[str],
    refs: RefBlock,
    order: int,
) -> SegmentTable:
    """The table of a chunk counted by the reference engine (``stats.py``):
    for the rare chunk with a segment holding a newline, which a block of
    newline-separated lines cannot carry (only the Python API can pass one).
    """
    from array import array

    from .stats import prepare_references, segment_stats

    hyp_len, ref_len, matches, nearest = (array("q") for _ in range(4))
    for i, hyp in enumerate(hyps):
        lines = [stream[i] for stream in refs.raw]
        tokens = [preprocess(r) if r is not None else None for r in lines]
        present = [t for t in tokens if t is not None]
        prepared = prepare_references(present, order)
        hyp_tokens = preprocess(hyp)
        stats = segment_stats(hyp_tokens, prepared, order, closest, "exact")
        hyp_len.append(len(hyp_tokens))
        ref_len.extend(len(t) if t is not None else -1 for t in tokens)
        matches.extend(stats.counts)
        lengths = prepared.lengths
        nearest.extend((closest(len(hyp_tokens), lengths), shortest(len(hyp_tokens), lengths)))
    views = (memoryview(a.tobytes()).cast("q") for a in (hyp_len, ref_len, matches, nearest))
    return SegmentTable(*views, len(refs.raw), order)


def table_stats(
    table: SegmentTable,
    ref_length: Callable[[int, Sequence[int]], RefLength],
    at_least_one: bool,
    order: int,
) -> list[Stats]:
    """One Stats per segment, equal to stats.segment_stats's, for an order
    up to the table's."""
    width = table.order
    rows = table.matches.tolist()
    rows = [tuple(rows[i : i + order]) for i in range(0, len(rows), width)]
    return [
        Stats(hyp_len, ref, counts, totals, 1, hyp_len, counts, totals)
        for hyp_len, ref, counts, totals in zip(
            table.hyp_len,
            table.chosen_lengths(ref_length),
            rows,
            [ngram_totals(h, order, at_least_one) for h in table.hyp_len],
        )
    ]


def table_sum(
    table: SegmentTable,
    ref_length: Callable[[int, Sequence[int]], RefLength],
    at_least_one: bool,
) -> Stats:
    """The sum of table_stats(table), without a Stats per segment."""
    order, n = table.order, len(table.hyp_len)
    if n == 0:
        return Stats.zero(order)
    per_length = [
        (c, ngram_totals(L, order, at_least_one)) for L, c in Counter(table.hyp_len).items()
    ]
    totals = tuple(sum(c * t[k] for c, t in per_length) for k in range(order))
    counts = tuple(sum(table.matches[k::order]) for k in range(order))
    ref_len = sum(table.chosen_lengths(ref_length))
    last = n - 1
    last_len = table.hyp_len[last]
    return Stats(
        sum(table.hyp_len),
        ref_len,
        counts,
        totals,
        n,
        last_len,
        tuple(table.matches[last * order :]),
        ngram_totals(last_len, order, at_least_one),
    )
