"""The compiled engine, ``bleukit._accel`` (a C extension that ``pip
install`` builds where a C compiler is present).

Blocks of ``CHUNK`` lines are tokenized at once (the tokenization's
``BlockForm``) and counted in C; only blocks of text, never every
reference's n-grams, are kept, so memory stays flat. The kernel releases the
GIL, so chunks are counted in threads (``threads.workers``), while
tokenizers run in the calling thread, one chunk after the other (MeCab's or
a plugin's tokenizer need not be thread-safe). Bootstrap resamples and
randomization trials are drawn and summed in C too, with CPython's Mersenne
Twister run from the seed's state: the very draws of ``resampling``.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..core.buffers import ROW_TYPES, typed_buffer
from ..core.record import Record
from ..core.reflen import Policy, RefLength, closest, shortest
from ..core.smoothing import SACREBLEU_KERNELS, ScoreRule
from ..io.progress import counter
from ..tokenizers import BlockForm, Tokenization
from .base import Engine
from .python import count_segments, prepare_segments
from .tables import IntArray, ReferenceWeigher, SegmentTable
from .threads import ordered_map, workers

if TYPE_CHECKING:
    from ..core.matches import MatchStore, Ranked, Text
    from ..core.pcg64 import PcgState
    from ..core.resampling import Columns, Draws, Sides

#: the kernel's word modes, whose tokens ``block_words`` gives
_WORD_MODES = (0, 1, 7, 8, 9, 10)

#: the most orders the kernel's scorers take (bleukit.config.model.MAX_ORDER_LIMIT)
_MAX_SCORE_ORDER = 100
#: segments per block: small enough that a WMT test set (1-3k segments)
#: is several blocks, counted in parallel (4096 left one thread idle there;
#: 512 is as fast per segment on a million)
CHUNK = 512
#: blocks read ahead per thread, so that every thread stays busy between reads
_BLOCKS_PER_READ = 32
#: bootstrap rows (every system's; sacrebleu's too) past which threads split
#: the resamples:
#: below, the rows stay in cache and one thread sums as fast as two, which
#: also draw the earlier resamples again (2 vCPUs: 10k segments x 6 systems,
#: 4 MB of int64, 10% slower on two; 50k, 22 MB, 1.65x faster)
_SPLIT_ROW_BYTES = 16 << 20
#: the largest segment-major copy of every system's bootstrap rows the
#: kernel makes (faster: 6 WMT systems 35 vs 41 ms); past it, it sums from
#: the rows themselves (10 systems x 100k segments: 80 MB not copied, and
#: 25% faster there, the copy no longer in cache)
_GATHER_BYTES = 16 << 20
#: segments a thread aligns for TER at a time (``edit_counts``)
_TER_BLOCK = 256

# How the kernel (``block_stats``) turns a block's lines into symbols, by
# block kind and "the splitter is ascii.v1" (the numbers are the C enum).
# Word modes split on Unicode (0) or ASCII (1) whitespace; character modes
# keep every code point (2), drop whitespace (3, 4) or collapse each run of
# it into one space (5, 6); 7 applies the 13a rules, then a Unicode split;
# 8 and 9 strip (Unicode, ASCII), apply the intl rules, then a Unicode split;
# 10 splits on Unicode whitespace and then splits one punctuation mark off
# each word as chrF++ does (``chrf.words``).
_KERNEL_MODES = {
    ("split", False): 0,
    ("split", True): 1,
    ("split-unicode", False): 0,
    ("split-unicode", True): 0,
    ("tokens", False): 1,
    ("tokens", True): 1,
    ("chars-raw", False): 2,
    ("chars-raw", True): 2,
    ("chars", False): 3,
    ("chars", True): 4,
    ("chars-space", False): 5,
    ("chars-space", True): 6,
    ("13a", False): 7,
    ("13a", True): 7,
    ("intl", False): 8,
    ("intl", True): 9,
    ("chrf-words", False): 10,
}


def accelerator() -> ModuleType | None:
    """The compiled module, or None where it was not built."""
    try:
        from .. import _accel
    except ImportError:
        return None
    return _accel


class RefBlock(Record):
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
        blocks: list[str | None] = []
        present: list[bytes | None] = []
        raw = []
        for stream in streams:
            part = list(stream[lo:hi])
            raw.append(part)
            if None in part:
                present.append(bytes(r is not None for r in part))
                lines = [r if r is not None else "" for r in part]
            else:
                present.append(None)
                lines = part  # type: ignore[assignment]
            blocks.append(block(lines))
        chunks.append(RefBlock(hi - lo, blocks, present, raw))
    return tuple(chunks)


#: the longest n-gram the kernel's match counts hold (MATCH_MAX_ORDER)
_MATCH_MAX_ORDER = 8


class CompiledMatchCounts:
    """``core.matches.MatchCounts`` counted in C (``_accel.MatchTable``)."""

    def __init__(self, kernel: ModuleType, systems: int, order: int) -> None:
        self.systems = systems
        self.order = order
        self._table = kernel.MatchTable(systems, order)

    def add(self, ref: Text, hyps: Sequence[Text], keep_empty: bool) -> list[array[int]]:
        from ..core.matches import check_chunk

        check_chunk(ref, hyps, self.systems)
        flat = memoryview(self._table.add(ref, list(hyps), keep_empty))
        size = len(flat) // (self.systems + 1)  # bytes per stream
        lengths = []
        for k in range(self.systems + 1):
            part = array("q")
            part.frombytes(flat[k * size : (k + 1) * size])
            lengths.append(part)
        return lengths

    def words(self, column: int) -> dict[str, int]:
        words: dict[str, int] = self._table.words(column)
        return words

    def matched(self, system: int, min_order: int, max_order: int) -> dict[tuple[str, ...], int]:
        matched: dict[tuple[str, ...], int] = self._table.matched(system, min_order, max_order)
        return matched

    def ranked(
        self, a: int, b: int, min_order: int, alpha: float, count: int, losses: bool
    ) -> list[Ranked]:
        ranked: list[Ranked] = self._table.ranked(a, b, min_order, alpha, count, losses)
        return ranked


def _floats(raw: bytes) -> list[float]:
    """A kernel's float64 results as a list."""
    values: list[float] = []
    values.extend(memoryview(raw).cast("d").tolist())
    return values


def _sentence_scorer(
    ref_length: Policy, at_least_one: bool, rule: ScoreRule
) -> Callable[[SegmentTable, bool], bytes] | None:
    """The kernel's sentence BLEU of a table's segments under ``rule``
    (with ``parts``: their penalties and precisions too, ``sentence_bleu``'s
    layout); None where it has no kernel for the rule or the reference
    length (the caller takes the reference path)."""
    kernel = accelerator()
    # the table's closest and shortest columns (chosen_lengths reads them)
    column = 0 if ref_length is closest else 1 if ref_length is shortest else None
    if kernel is None or column is None or rule.kernel not in SACREBLEU_KERNELS:
        return None
    method, value = SACREBLEU_KERNELS.index(rule.kernel), rule.value or 0.0

    def score(table: SegmentTable, parts: bool) -> bytes:
        raw: bytes = kernel.sentence_bleu(
            *_table_buffers(table), table.order, rule.order, column, at_least_one, method, value,
            rule.effective_order, parts,
        )  # fmt: skip
        return raw

    return score


def _table_buffers(table: SegmentTable) -> tuple[Any, Any, Any]:
    """A table's hypothesis lengths, matches and nearest reference lengths
    as the sentence kernels read them: a store's int16 or int32 tables
    (``SegmentTable.compact``) and kernel outputs as they are, lists as
    int64."""
    a, b, c = (x if isinstance(x, (array, memoryview)) else array("q", x)
               for x in (table.hyp_len, table.matches, table.nearest))  # fmt: skip
    return a, b, c


def _scored_rows(
    rows: Sequence[int],
    other: Sequence[int] | None,
    score: Callable[[memoryview | array[int], memoryview | array[int] | None], bytes],
) -> list[float] | None:
    """A row-scoring kernel's results on rows (and other) as int64
    buffers, or the uint16 or uint32 rows of a store as they are; None
    where a value is no int64 (a Fraction of average lengths; past int64):
    the caller scores those itself."""
    try:
        first = typed_buffer(rows, "q", "H", "I")
        second = None if other is None else typed_buffer(other, "q", "H", "I")
    except (TypeError, OverflowError):
        return None
    return _floats(score(first, second))


def _filled_rows(made: Iterable[tuple[str, bytes] | None], cells: int) -> array[int] | None:
    """The rows kernels make, (typecode, bytes) each, ``cells`` fields in
    all, in one array of the widest of their row types, made at its size
    and filled (grown a part at a time, a million segments' rows took 18 MB
    more at the peak of `compare`); None where a kernel gave None."""
    rows = array(ROW_TYPES[0], [0]) * cells
    at = 0
    for part in made:
        if part is None:
            return None
        code, raw = part
        if ROW_TYPES.index(code) > ROW_TYPES.index(rows.typecode):
            rows = array(code, rows)
        piece = array(code, raw)
        rows[at : at + len(piece)] = piece if code == rows.typecode else array(rows.typecode, piece)
        at += len(piece)
    return rows


def _rows_of(flat: list[Any], width: int) -> list[list[Any]]:
    """A flat list cut into rows of ``width``."""
    return [flat[i : i + width] for i in range(0, len(flat), width)]


def _split_resamples(
    part: Callable[[int, int], list[Any]], count: int, size: int, widths: Sequence[int]
) -> list[list[Any]]:
    """Per system, its sums of resamples 0 .. ``count`` - 1, its width
    (``widths``) values each: ``part(lo, hi)`` sums resamples lo .. hi - 1
    of every system (each system's (hi - lo) x width in turn), on one
    thread, or past ``_SPLIT_ROW_BYTES`` of rows (``size``) on each, a range
    each (drawing, and passing over, the draws of those before it): the
    sums are the same."""
    parts = max(1, min(workers(), count)) if size > _SPLIT_ROW_BYTES else 1
    ranges = list(itertools.pairwise(count * p // parts for p in range(parts + 1)))
    per_system: list[list[Any]] = [[] for _ in widths]
    for flat, (lo, hi) in zip(ordered_map(lambda r: part(*r), ranges, parts), ranges):
        at = 0
        for width, acc in zip(widths, per_system):
            per = (hi - lo) * width
            acc.extend(flat[at : at + per])
            at += per
    return per_system


def _progress_buffer() -> bytearray | None:
    """Where the kernels count the resamples they sum, for the running
    phase's progress line (``io.progress``); None where none counts."""
    meter = counter()
    return None if meter is None else meter.buffer


def _count_done(count: int) -> None:
    """``count`` trials done, for the running phase's progress line."""
    meter = counter()
    if meter is not None:
        meter.add(count)


def _float_rows(rows: Sequence[Sequence[float]]) -> Any:
    """Rows for the pcg64 kernels: uint32 rows' own buffer (``RowView``),
    else the rows as one float64 array, filled a row at a time."""
    buffer = getattr(rows, "buffer", None)
    if buffer is not None:
        return buffer
    flat = array("d")
    for row in rows:
        flat.extend(row)
    return flat


def _whole(rows: Sequence[Sequence[float]]) -> bool:
    """Whether every value of ``rows`` is an int (uint32 rows are)."""
    if getattr(rows, "buffer", None) is not None:
        return True
    return all(type(x) is int for row in rows for x in row)


def _resample_stats(cols: Columns, flat: Sequence[RefLength]) -> Iterator[Any]:
    """One system's resample sums (``cols.width`` values each) as statistics."""
    width = cols.width
    return (cols.to_stats(flat[i : i + width]) for i in range(0, len(flat), width))


#: lines of a block of text that the information kernel (``InfoTable``)
#: counts or weighs at once, in threads
_WEIGH_LINES = CHUNK * 8


def _word_blocks(
    tokenization: Tokenization,
    chunks: Iterable[Sequence[str]],
    then: Callable[[str, int], Any],
) -> Iterator[Any]:
    """``then(block, k)`` of each chunk k's tokens as one block (a word
    mode's: each line's tokens joined by one space, the lines by newlines),
    in order. Each chunk's text is made in the calling thread (the
    tokenization's own code), split into tokens by the kernel and handed to
    ``then`` in threads. A chunk with a line that holds a newline (which a
    block cannot carry) is tokenized by the tokenization itself, its tokens
    joined the same way (a word mode's tokens hold no whitespace)."""
    kernel, form, mode = accelerator(), tokenization.block, _word_mode(tokenization)
    assert kernel is not None and form is not None and mode is not None  # the caller checked
    extra = () if form.categories is None else (form.categories(),)

    def texts() -> Iterator[tuple[int, str, bool]]:
        for k, lines in enumerate(chunks):
            text = form.text(list(lines))
            if text is None:
                tokens = (tokenization.preprocess(line) for line in lines)
                yield k, "\n".join(" ".join(t) for t in tokens), False
            else:
                yield k, text, True

    def split(item: tuple[int, str, bool]) -> Any:
        k, text, raw = item
        return then(kernel.block_words(text, mode, *extra) if raw else text, k)

    return ordered_map(split, texts(), workers())


def _word_mode(tokenization: Tokenization) -> int | None:
    """The kernel's mode for this tokenization where the kernel is built
    and splits its tokens (a word mode: ``block_words``); else None."""
    form = tokenization.block
    mode = None if form is None else _KERNEL_MODES.get((form.kind, form.ascii_split))
    return mode if accelerator() is not None and mode in _WORD_MODES else None


class CompiledWeighed(ReferenceWeigher):
    """References weighed in C (``_accel.InfoTable``), ``_WEIGH_LINES`` of
    every stream at a time, tokenized in threads; hypotheses are weighed
    (or held as token ids) as many lines at a time, in threads (a weighed
    table is only read)."""

    def __init__(self, tokenization: Tokenization, table: Any) -> None:
        self._tokenization = tokenization
        self._table = table
        self.ref_len: array[int] = array("q")
        #: lines held of each system
        self._held: dict[int, int] = {}

    def _blocks(self, lines: Sequence[str]) -> Iterator[str]:
        step = _WEIGH_LINES
        chunks = (lines[lo : lo + step] for lo in range(0, len(lines), step))
        return _word_blocks(self._tokenization, chunks, lambda block, k: block)

    def add(self, streams: Sequence[Sequence[str | None]]) -> IntArray:
        step = _WEIGH_LINES
        chunks = (
            [r if r is not None else "" for r in stream[lo : lo + step]]
            for lo in range(0, len(streams[0]), step)
            for stream in streams
        )
        added: array[int] = array("q")
        blocks: list[str] = []
        for block in _word_blocks(self._tokenization, chunks, lambda block, k: block):
            blocks.append(block)
            if len(blocks) == len(streams):
                added.frombytes(self._table.add(blocks))
                blocks = []
        self.ref_len.extend(added)
        return added

    def hold(self, system: int, hyps: Sequence[str]) -> None:
        # the table's vocabulary grows in the calling thread: one block at a time
        for block in self._blocks(hyps):
            self._table.hold(system, block)
        self._held[system] = self._held.get(system, 0) + len(hyps)

    def weigh(self) -> None:
        self._table.weigh()

    def held_matches(self, system: int) -> tuple[IntArray, IntArray]:
        step, held = _WEIGH_LINES, self._held.get(system, 0)
        weigh = self._table.held_matches
        blocks = range(0, held, step)
        return _joined(
            ordered_map(lambda lo: weigh(system, lo, min(step, held - lo)), blocks, workers())
        )

    def matches(self, hyps: Sequence[str]) -> tuple[IntArray, IntArray]:
        step = _WEIGH_LINES
        chunks = (hyps[lo : lo + step] for lo in range(0, len(hyps), step))
        weigh = self._table.matches
        return _joined(
            _word_blocks(self._tokenization, chunks, lambda block, k: weigh(block, k * step))
        )


def _joined(parts: Iterable[tuple[bytes, bytes]]) -> tuple[IntArray, IntArray]:
    """The kernel's (hyp_len, matched) of consecutive blocks, joined."""
    hyp_len, matched = array("q"), array("q")
    for lengths, weights in parts:
        hyp_len.frombytes(lengths)
        matched.frombytes(weights)
    return hyp_len, matched


class CompiledEngine(Engine):
    """The C kernel: needs ``bleukit._accel`` and a built-in splitter."""

    name = "c"

    def unavailable(self) -> str | None:
        if accelerator() is None:
            return (
                "the compiled engine bleukit._accel is not built (reinstall bleukit where "
                "a C compiler is available), or set BLEUKIT_ENGINE=python"
            )
        return None

    def unsupported(self, tokenization: Tokenization) -> str | None:
        if tokenization.block is None:
            return "the compiled engine needs a built-in splitter (unicode.v1 or ascii.v1)"
        return None

    def describe(self) -> str:
        return f"c (bleukit._accel, {workers()} threads)"

    def batch_lines(self) -> int:
        return CHUNK * workers() * _BLOCKS_PER_READ

    def _form(self, tokenization: Tokenization) -> BlockForm:
        if tokenization.block is None:  # Variant never asks: unsupported() said so
            raise ValueError(self.unsupported(tokenization))
        return tokenization.block

    def edit_counts(
        self, hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]
    ) -> list[int]:
        kernel = accelerator()
        assert kernel is not None  # unavailable() said so

        def block(lo: int) -> list[int]:
            # the kernel numbers the words (with the GIL), then aligns
            # (without it)
            raw = kernel.ter_edit_counts(hyps[lo : lo + _TER_BLOCK], refs[lo : lo + _TER_BLOCK])
            counts: list[int] = memoryview(raw).cast("q").tolist()
            return counts

        # blocks of segments, not one a task: a segment takes tens of
        # microseconds, about what handing it to a thread costs
        blocks = ordered_map(block, range(0, len(hyps), _TER_BLOCK), workers())
        return list(itertools.chain.from_iterable(blocks))

    def prepare(
        self, tokenization: Tokenization, streams: Sequence[Sequence[str | None]], order: int
    ) -> tuple[RefBlock, ...]:
        return ref_blocks(self._form(tokenization).text, streams)

    def tables(
        self, tokenization: Tokenization, hyps: Sequence[str], prepared: object, order: int
    ) -> Iterator[SegmentTable]:
        form = self._form(tokenization)
        chunks: tuple[RefBlock, ...] = prepared  # type: ignore[assignment]
        starts = itertools.accumulate((c.size for c in chunks), initial=0)
        mode = _KERNEL_MODES[form.kind, form.ascii_split]
        kernel = accelerator()
        assert kernel is not None  # resolve_engine checked unavailable()
        # made here, not in the threads: each would make its own table at first
        extra = () if form.categories is None else (form.categories(),)

        def tokenized() -> Iterator[SegmentTable | tuple[str, RefBlock]]:
            for lo, chunk in zip(starts, chunks):
                lines = list(hyps[lo : lo + chunk.size])
                block = form.text(lines)
                if block is None or None in chunk.blocks:
                    # a segment holds a newline, which a block of newline-
                    # separated lines cannot carry (only the Python API can
                    # pass one): the reference engine counts this chunk
                    prepared = prepare_segments(tokenization.preprocess, chunk.raw, order)
                    yield count_segments(tokenization.preprocess, lines, prepared, order)
                else:
                    yield block, chunk

        def count(item: SegmentTable | tuple[str, RefBlock]) -> SegmentTable:
            if isinstance(item, SegmentTable):
                return item
            block, chunk = item
            arrays = kernel.block_stats(block, chunk.blocks, chunk.present, mode, order, *extra)
            hyp_len, ref_len, matches, nearest = (memoryview(a).cast("q") for a in arrays)
            return SegmentTable(hyp_len, ref_len, matches, nearest, len(chunk.blocks), order)

        return ordered_map(count, tokenized(), workers())

    def token_block(self, tokenization: Tokenization, lines: Sequence[str]) -> str | None:
        """The kernel's tokens for the word modes (its 13a and intl rules
        among them), as one block."""
        kernel, form, mode = accelerator(), tokenization.block, _word_mode(tokenization)
        if kernel is None or form is None or mode is None or not lines:
            return None
        text = form.text(list(lines))
        if text is None:  # a line holds a newline: the block cannot carry it
            return None
        extra = () if form.categories is None else (form.categories(),)
        words: str = kernel.block_words(text, mode, *extra)
        return words

    def reference_weigher(
        self, tokenization: Tokenization, references: int, order: int, bits: int, falsy: str | None
    ) -> ReferenceWeigher | None:
        """In C (``_accel.InfoTable``) for the word modes."""
        kernel = accelerator()
        if kernel is None or _word_mode(tokenization) is None:
            return None
        return CompiledWeighed(tokenization, kernel.InfoTable(references, order, bits, falsy))

    def tokens(self, tokenization: Tokenization, lines: Sequence[str]) -> list[list[str]]:
        """The kernel's tokens for the word modes: the same as line by
        line, at C speed."""
        words = self.token_block(tokenization, lines)
        if words is None:
            return super().tokens(tokenization, lines)
        return [line.split(" ") if line else [] for line in words.split("\n")]

    def match_counts(self, systems: int, order: int) -> MatchStore:
        kernel = accelerator()
        if kernel is None or order > _MATCH_MAX_ORDER:
            return super().match_counts(systems, order)
        return CompiledMatchCounts(kernel, systems, order)

    def table_rows(
        self, tables: Sequence[SegmentTable], ref_length: Policy, at_least_one: bool, order: int
    ) -> array[int] | None:
        kernel = accelerator()
        if kernel is None or (ref_length is not closest and ref_length is not shortest):
            # another policy's lengths may be fractions: the reference decides
            return super().table_rows(tables, ref_length, at_least_one, order)
        column = 0 if ref_length is closest else 1
        cells = sum(len(t.hyp_len) for t in tables) * (2 + 2 * order)
        # None past uint32, as the reference gives
        return _filled_rows(
            (kernel.table_rows(t.hyp_len, t.nearest, 2, column, t.matches, t.order, order,
                               int(at_least_one))
             for t in tables),
            cells,
        )  # fmt: skip

    def compact(self, table: SegmentTable) -> SegmentTable:
        kernel = accelerator()
        if kernel is None:
            return super().compact(table)
        parts = (table.hyp_len, table.ref_len, table.matches, table.nearest)
        for code, size in (("h", 2), ("i", 4)):
            narrowed = [kernel.narrow_ints(a, size) for a in parts]
            if all(raw is not None for raw in narrowed):
                hyp_len, ref_len, matches, nearest = (array(code, raw) for raw in narrowed)
                return SegmentTable(hyp_len, ref_len, matches, nearest, table.nref, table.order)
        return table

    def triple_rows(
        self, parts: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int], int, int]]
    ) -> array[int] | None:
        kernel = accelerator()
        if kernel is None:
            return None
        try:
            rows = kernel.triple_rows(parts)
        except OverflowError:  # a count past int64: the reference makes them
            return None
        return None if rows is None else array(*rows)

    def sentence_values(
        self,
        tables: Iterable[SegmentTable],
        ref_length: Policy,
        at_least_one: bool,
        order: int,
        rule: ScoreRule,
    ) -> list[float]:
        scorer = _sentence_scorer(ref_length, at_least_one, rule)
        if scorer is None:
            # other policies, smoothings and weights: the reference
            return super().sentence_values(tables, ref_length, at_least_one, order, rule)
        out: list[float] = []
        for t in tables:
            out.extend(_floats(scorer(t, False)))
        return out

    def sentence_values_orders(
        self,
        tables: Iterable[SegmentTable],
        ref_length: Policy,
        at_least_one: bool,
        rules: Sequence[tuple[int, ScoreRule]],
    ) -> list[Sequence[float]]:
        """Rules that differ in their order alone, on a kernel's smoothing:
        each table's scores at every order in one pass of the kernel
        (``sentence_bleu_orders``), float64 arrays; other rules as the
        reference does."""
        kernel = accelerator()
        column = 0 if ref_length is closest else 1 if ref_length is shortest else None
        first = rules[0][1] if rules else None
        if (
            kernel is None
            or column is None
            or first is None
            or first.kernel not in SACREBLEU_KERNELS
            or any((r.kernel, r.value, r.effective_order)
                   != (first.kernel, first.value, first.effective_order) for _, r in rules)
        ):  # fmt: skip
            return super().sentence_values_orders(tables, ref_length, at_least_one, rules)
        method, value = SACREBLEU_KERNELS.index(first.kernel), first.value or 0.0
        orders = array("i", [r.order for _, r in rules])
        out = [array("d") for _ in rules]
        for table in tables:
            raw = kernel.sentence_bleu_orders(
                *_table_buffers(table), table.order, orders, column, at_least_one, method, value,
                first.effective_order,
            )  # fmt: skip
            size = 8 * len(table.hyp_len)  # one order's bytes
            for j, values in enumerate(out):
                values.frombytes(raw[j * size : (j + 1) * size])
        return list(out)

    def sentence_parts(
        self, table: SegmentTable, ref_length: Policy, at_least_one: bool, rule: ScoreRule
    ) -> list[float] | None:
        scorer = _sentence_scorer(ref_length, at_least_one, rule)
        return None if scorer is None else _floats(scorer(table, True))

    def row_values(
        self, rows: Sequence[int], other: Sequence[int] | None, order: int, rule: ScoreRule
    ) -> list[float] | None:
        kernel = accelerator()
        if kernel is None or rule.kernel not in SACREBLEU_KERNELS:
            return None
        method = SACREBLEU_KERNELS.index(rule.kernel)
        return _scored_rows(
            rows, other, lambda a, b: kernel.bleu_rows(
                a, b, order, rule.order, method, rule.value or 0.0, rule.effective_order
            ),
        )  # fmt: skip

    def chrf_values(
        self,
        rows: Sequence[int],
        other: Sequence[int] | None,
        order: int,
        beta: int,
        eps_smoothing: bool,
    ) -> list[float] | None:
        kernel = accelerator()
        if kernel is None or not 0 < order <= _MAX_SCORE_ORDER:
            return None
        return _scored_rows(
            rows, other, lambda a, b: kernel.chrf_rows(a, b, order, beta, eps_smoothing)
        )

    def nist_values(
        self,
        rows: Sequence[int],
        other: Sequence[int] | None,
        order: int,
        info_bits: int,
        beta: float,
    ) -> list[float] | None:
        kernel = accelerator()
        if kernel is None or not 0 < order <= _MAX_SCORE_ORDER:
            return None
        try:
            return _scored_rows(
                rows, other, lambda a, b: kernel.nist_rows(a, b, order, info_bits, beta)
            )
        except (OverflowError, NotImplementedError):
            # a negative value, or a build without 128-bit integers: the
            # reference's big-integer divisions
            return None

    def group_sums(self, cols: Columns, groups: bytes, count: int) -> list[list[RefLength]]:
        kernel = accelerator()
        if (kernel is None or cols.rows is None or count > 256 or len(groups) != cols.n
                or max(groups, default=0) >= count):  # fmt: skip
            # the reference sums what the kernel cannot, and refuses bad groups
            return super().group_sums(cols, groups, count)
        flat = memoryview(kernel.group_sums(cols.rows, cols.width, groups, count)).cast("q")
        return [list(flat[g * cols.width : (g + 1) * cols.width]) for g in range(count)]

    def bootstrap_sums(self, systems: Sequence[Columns], draws: Draws) -> list[Iterator[Any]]:
        flats = self.bootstrap_rows(systems, draws)
        return [_resample_stats(cols, flat) for flat, cols in zip(flats, systems)]

    def sacrebleu_bootstrap(
        self, start: PcgState, systems: Sequence[Sequence[Sequence[float]]], samples: int
    ) -> list[list[list[float]]]:
        kernel = accelerator()
        assert kernel is not None  # unavailable() said so
        width = len(systems[0][0]) if systems and systems[0] else 1
        flats = [_float_rows(rows) for rows in systems]
        size = sum(memoryview(f).nbytes for f in flats)
        words, progress = start.words(), _progress_buffer()

        def part(lo: int, hi: int) -> list[Any]:
            sums = kernel.pcg64_bootstrap(words, flats, width, samples, lo, hi, progress)
            return memoryview(sums).cast("d").tolist()

        per_system = _split_resamples(part, samples, size, [width] * len(systems))
        return [_rows_of(values, width) for values in per_system]

    def sacrebleu_randomization(
        self,
        start: PcgState,
        base: Sequence[Sequence[float]],
        other: Sequence[Sequence[float]],
        trials: int,
    ) -> tuple[list[list[float]], list[list[float]], PcgState]:
        kernel = accelerator()
        assert kernel is not None  # unavailable() said so
        width = len(base[0]) if base else 1
        a, b, after = kernel.pcg64_randomization(
            start.words(), _float_rows(base), _float_rows(other), width, trials
        )
        _count_done(trials)
        # integer rows sum exactly (as NumPy's int64 products): ints again
        whole = all(map(_whole, (base, other)))
        sides = []
        for raw in (a, b):
            values = memoryview(raw).cast("d").tolist()
            sides.append(_rows_of([int(x) for x in values] if whole else values, width))
        from ..core.pcg64 import PcgState

        return sides[0], sides[1], PcgState.from_words(after)

    def bootstrap_rows(self, systems: Sequence[Columns], draws: Draws) -> list[Sequence[RefLength]]:
        """The kernel sums the systems whose rows it reads (the systems of
        several variants together: one pass of draws for all of them), the
        reference the others, from the same draws."""
        kernel = accelerator()
        packed: list[int] = []
        others: list[int] = []
        for k, c in enumerate(systems):
            (packed if kernel is not None and c.packable else others).append(k)
        out: list[Sequence[RefLength]] = [[] for _ in systems]
        if others:
            rest = super().bootstrap_rows([systems[k] for k in others], draws)
            for k, flat in zip(others, rest):
                out[k] = flat
        if not packed:
            return out
        assert kernel is not None
        widths, count = [systems[k].width for k in packed], draws.count
        # each system's rows as they are (no joined copy)
        rows = [systems[k].rows for k in packed]
        size = sum(len(r) * r.itemsize for r in rows if r is not None)
        # the kernel's segment-major int64 copy of the rows is faster, and
        # costs twice their memory: made only while it is small
        gather = 2 * size <= _GATHER_BYTES
        progress = _progress_buffer()

        def part(lo: int, hi: int) -> list[int]:
            sums = kernel.bootstrap_sums(
                draws.state, rows, widths, count, lo, hi, gather, 255, progress
            )
            return memoryview(sums).cast("q").tolist()

        for k, flat in zip(packed, _split_resamples(part, count, size, widths)):
            out[k] = flat
        return out

    def split_sums(
        self, cols: Columns, draws: Draws
    ) -> tuple[Sequence[RefLength], Sequence[RefLength]]:
        kernel = accelerator()
        if kernel is None or cols.rows is None:
            return super().split_sums(cols, draws)
        # side A of the system against zeros is its selected segments' sums;
        # its others' are the rest of its totals (one pass, not two)
        zeros = array(cols.rows.typecode, bytes(len(cols.rows) * cols.rows.itemsize))
        raw = kernel.ar_sums(draws.state, cols.rows, zeros, cols.width, draws.count)
        selected = memoryview(raw).cast("q")
        others = [t - a for t, a in zip(itertools.cycle(cols.total()), selected)]
        return selected, others

    def randomization_sums(self, base: Columns, other: Columns, draws: Draws) -> Iterator[Sides]:
        kernel = accelerator()
        if kernel is None or base.rows is None or other.rows is None:
            yield from super().randomization_sums(base, other, draws)
            return
        both = [a + b for a, b in zip(base.total(), other.total())]
        width = base.width
        sums = kernel.ar_sums(draws.state, base.rows, other.rows, width, draws.count)
        _count_done(draws.count)
        flat = memoryview(sums).cast("q").tolist()
        for i in range(0, len(flat), width):
            side_a = flat[i : i + width]
            yield side_a, [t - a for t, a in zip(both, side_a)]
