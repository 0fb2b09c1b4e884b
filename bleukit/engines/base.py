"""The engine interface: how per-segment statistics of many segments are
computed. Every engine gives the same numbers (``tests/test_engine.py``
checks each against the reference on random text); they differ in speed and
in what they can run. ``Variant`` holds one engine and never asks which.

An engine implements :meth:`Engine.prepare` (references, once per
tokenization) and :meth:`Engine.tables` (per-segment tables of a block of
hypotheses). Sums of tables and resampling sums have reference
implementations here that an engine may replace with faster ones.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..core.reflen import Policy, RefLength
from ..core.smoothing import ScoreRule
from ..core.stats import Stats
from ..tokenizers import Tokenization
from .tables import (
    ReferenceWeigher,
    SegmentTable,
    WeighedReferences,
    table_rows,
    table_stats,
    table_sum,
)

if TYPE_CHECKING:
    from ..core.matches import MatchStore
    from ..core.pcg64 import PcgState
    from ..core.resampling import Columns, Draws, Sides


class Engine(ABC):
    """Computes per-segment tables; subclasses are the engines."""

    #: the engine's name (``BLEUKIT_ENGINE``, ``load_variant(engine=...)``)
    name: ClassVar[str]
    #: whether prepared references hold n-grams up to the order they were
    #: prepared for (then they serve that order and lower ones only)
    order_bound: ClassVar[bool] = False

    def __repr__(self) -> str:
        return f"<bleukit engine {self.name!r}>"

    def unavailable(self) -> str | None:
        """Why this engine cannot run in this process (None: it can)."""
        return None

    def unsupported(self, tokenization: Tokenization) -> str | None:
        """Why this engine cannot run this tokenization (None: it can)."""
        return None

    def describe(self) -> str:
        """One line for ``bleukit components``."""
        return self.name

    def batch_lines(self) -> int:
        """How many lines a caller that streams a file should hand over at
        once to keep this engine busy."""
        return 32768

    @abstractmethod
    def prepare(
        self, tokenization: Tokenization, streams: Sequence[Sequence[str | None]], order: int
    ) -> object:
        """The reference streams (aligned, None where a segment has no
        reference in a stream, every segment with at least one) in the
        form ``tables`` reads, for n-grams up to ``order``."""

    @abstractmethod
    def tables(
        self, tokenization: Tokenization, hyps: Sequence[str], prepared: object, order: int
    ) -> Iterator[SegmentTable]:
        """Per-segment tables of the hypotheses against the prepared
        references, in order, matches up to ``order``, chunk by chunk."""

    def tokens(self, tokenization: Tokenization, lines: Sequence[str]) -> list[list[str]]:
        """The tokens of each line (one-character tokens one by one): what
        ``tokenization.preprocess`` gives, line by line."""
        return [list(tokenization.preprocess(line)) for line in lines]

    def token_block(self, tokenization: Tokenization, lines: Sequence[str]) -> str | None:
        """``tokens`` as one block, where this engine makes it without a
        list per line: each line's tokens joined by one space, the lines by
        newlines (``core.matches``). None: it does not (call ``tokens``)."""
        return None

    def match_counts(self, systems: int, order: int) -> MatchStore:
        """Empty counts of the n-grams ``systems`` systems match in their
        references, orders 1 to ``order`` (``core.matches``)."""
        from ..core.matches import MatchCounts

        return MatchCounts(systems, order)

    def weigh_references(
        self,
        tokenization: Tokenization,
        streams: Sequence[Sequence[str | None]],
        order: int,
        bits: int,
        falsy: str | None,
    ) -> WeighedReferences | None:
        """Every n-gram of orders 1 .. ``order`` of a whole corpus's
        reference streams (None where a segment has none in a stream)
        weighed by its information, as ``metrics.nist.core.information``
        weighs it (``bits`` fractional bits; an n-gram after the token
        ``falsy`` weighed as a unigram). None: this engine has no kernel
        for it (the caller counts in Python)."""
        if not streams or not streams[0]:
            return None
        weigher = self.reference_weigher(tokenization, len(streams), order, bits, falsy)
        if weigher is None:
            return None
        weigher.add(streams)
        weigher.weigh()
        return weigher

    def reference_weigher(
        self, tokenization: Tokenization, references: int, order: int, bits: int, falsy: str | None
    ) -> ReferenceWeigher | None:
        """An empty ``ReferenceWeigher`` of ``references`` streams, weighing
        as ``weigh_references`` does. None: this engine has no kernel for
        it."""
        return None

    def stats(
        self, tables: Iterable[SegmentTable], ref_length: Policy, at_least_one: bool, order: int
    ) -> list[Stats]:
        """One Stats per segment of the tables."""
        out: list[Stats] = []
        for table in tables:
            out.extend(table_stats(table, ref_length, at_least_one, order))
        return out

    def sum(
        self, tables: Iterable[SegmentTable], ref_length: Policy, at_least_one: bool, order: int
    ) -> Stats:
        """The summed statistics of the tables."""
        total = Stats.zero(order)
        for table in tables:
            total = total + table_sum(table, ref_length, at_least_one, order)
        return total

    def table_rows(
        self, tables: Sequence[SegmentTable], ref_length: Policy, at_least_one: bool, order: int
    ) -> array[int] | None:
        """The tables' segments as resampling rows (``tables.table_rows``:
        a row type, or None where a statistic fits none)."""
        return table_rows(tables, ref_length, at_least_one, order)

    def compact(self, table: SegmentTable) -> SegmentTable:
        """A table kept for a whole run, in the narrowest arrays its
        numbers fit (``SegmentTable.compact``)."""
        return table.compact()

    def triple_rows(
        self, parts: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int], int, int]]
    ) -> array[int] | None:
        """chrF's rows of counts against one reference stream, each part
        (hypothesis lengths, reference lengths, matches, matches a segment,
        order) a segment's triples of orders 1 .. order in turn, as
        ``metrics.chrf.core.stream_rows`` makes them but of a row type;
        where this engine has a kernel for them and a segment's values fit
        one. None: the caller makes them itself."""
        return None

    def sentence_values(
        self,
        tables: Iterable[SegmentTable],
        ref_length: Policy,
        at_least_one: bool,
        order: int,
        rule: ScoreRule,
    ) -> list[float]:
        """Each segment's score under ``rule`` (sentence BLEU), from its
        statistics at ``order``; a table's at a time, so that no more than
        one table's Stats are held."""
        out: list[float] = []
        for table in tables:
            out.extend(rule.values(table_stats(table, ref_length, at_least_one, order)))
        return out

    def sentence_values_orders(
        self,
        tables: Iterable[SegmentTable],
        ref_length: Policy,
        at_least_one: bool,
        rules: Sequence[tuple[int, ScoreRule]],
    ) -> list[Sequence[float]]:
        """``sentence_values`` under several rules (each with the order of
        its statistics) from the same tables: one sequence per rule (a
        list, or float64 array). The reference scores each rule in turn."""
        listed = list(tables)
        return [self.sentence_values(listed, ref_length, at_least_one, order, rule)
                for order, rule in rules]  # fmt: skip

    def sentence_parts(
        self, table: SegmentTable, ref_length: Policy, at_least_one: bool, rule: ScoreRule
    ) -> list[float] | None:
        """Per segment of the table, its score under ``rule``, its brevity
        penalty and its ``rule.order`` precisions (0-100), flat: what
        sentence BLEU's results hold beside the table's counts, where this
        engine has a kernel for the rule. None: it has not (the caller
        smooths the segments' statistics itself)."""
        return None

    def row_values(
        self, rows: Sequence[int], other: Sequence[int] | None, order: int, rule: ScoreRule
    ) -> list[float] | None:
        """The score under ``rule`` of each row of summed BLEU statistics
        (flat, ``Metric.row``'s: hypothesis and reference length, then the
        matches and the n-grams of orders 1 .. ``order``), plus the same row
        of ``other`` where given; where this engine has a kernel for the
        rule. None: it has not (the caller scores the statistics itself)."""
        return None

    def chrf_values(
        self,
        rows: Sequence[int],
        other: Sequence[int] | None,
        order: int,
        beta: int,
        eps_smoothing: bool,
    ) -> list[float] | None:
        """chrF of each row of summed triples (flat, ``order`` triples a
        row), plus the same row of ``other`` where given, as
        ``metrics.chrf.core.f_score`` computes it; where this engine has a
        kernel for it. None: it has not (the caller scores them itself)."""
        return None

    def nist_values(
        self,
        rows: Sequence[int],
        other: Sequence[int] | None,
        order: int,
        info_bits: int,
        beta: float,
    ) -> list[float] | None:
        """NIST of each row of summed statistics (flat, ``1 + 3 * order`` a
        row: the reference length, the n-grams per order, and the matched
        information's low and high 32-bit limbs per order, a fixed point of
        ``info_bits`` fractional bits), plus the same row of ``other`` where
        given, as ``metrics.nist.core.nist_score`` scores each row's
        statistics (its divisions correctly rounded); where this engine has
        a kernel for it. None: it has not (the caller scores them itself)."""
        return None

    def edit_counts(
        self, hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]
    ) -> list[int]:
        """TER's edits: per segment (its words, and its references' words),
        the fewest edits to any of its references (``core.edits``)."""
        from ..core.edits import edit_count

        return [min(edit_count(h, r) for r in rs) for h, rs in zip(hyps, refs)]

    def bootstrap_sums(self, systems: Sequence[Columns], draws: Draws) -> list[Iterator[Any]]:
        """Per system, its statistics summed over each bootstrap resample
        (``resampling.bootstrap_indices``). The systems may be of several
        variants, their columns of other widths: ``compare`` resamples every
        metric's systems over one set of draws (``bootstrap_together``)."""
        from ..core.resampling import bootstrap_sums

        return bootstrap_sums(systems, draws)

    def sacrebleu_bootstrap(
        self, start: PcgState, systems: Sequence[Sequence[Sequence[float]]], samples: int
    ) -> list[list[list[float]]]:
        """sacrebleu's bootstrap: per system (its rows, one per segment), the
        float32 sums of ``samples`` resamples drawn as NumPy's
        ``default_rng`` draws them from ``start`` (``core.pcg64``), the same
        resamples for every system."""
        from ..core import pcg64

        return [pcg64.bootstrap_sums(start, rows, samples) for rows in systems]

    def sacrebleu_randomization(
        self,
        start: PcgState,
        base: Sequence[Sequence[float]],
        other: Sequence[Sequence[float]],
        trials: int,
    ) -> tuple[list[list[float]], list[list[float]], PcgState]:
        """sacrebleu's approximate randomization sums of two systems' rows,
        and the generator's state after the trials (``core.pcg64``)."""
        from ..core import pcg64

        return pcg64.randomization_sums(start, base, other, trials)

    def bootstrap_rows(self, systems: Sequence[Columns], draws: Draws) -> list[Sequence[RefLength]]:
        """Per system, its column sums over each bootstrap resample, flat:
        ``bootstrap_sums``'s numbers as rows, not statistics."""
        from ..core.resampling import bootstrap_rows

        return list(bootstrap_rows(systems, draws))

    def split_sums(
        self, cols: Columns, draws: Draws
    ) -> tuple[Sequence[RefLength], Sequence[RefLength]]:
        """Per randomization trial (``randomization_selections``), the
        column sums of a system's selected segments and of its others, each
        flat: what two sides of any pair of systems are sums of."""
        from ..core.resampling import split_sums

        return split_sums(cols, draws)

    def randomization_sums(self, base: Columns, other: Columns, draws: Draws) -> Iterator[Sides]:
        """Per approximate-randomization trial, the summed statistics of the
        two shuffled systems (``resampling.randomization_selections``)."""
        from ..core.resampling import randomization_sums

        return randomization_sums(base, other, draws)

    def group_sums(self, cols: Columns, groups: bytes, count: int) -> list[list[RefLength]]:
        """Per group 0 .. ``count`` - 1, the column sums of the segments
        whose byte in ``groups`` is that group (``resampling.group_sums``)."""
        from ..core.resampling import group_sums

        return group_sums(cols, groups, count)


def check_engine(obj: object) -> Engine:
    """The plugin contract: a subclass of ``Engine`` (instantiated with no
    arguments) or an instance of one."""
    engine = obj() if isinstance(obj, type) and issubclass(obj, Engine) else obj
    if not isinstance(engine, Engine):
        raise TypeError(f"{obj!r} is not a bleukit.engines.Engine")
    return engine
