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
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar

from ..core import pcg64
from ..core.correlation import system_swaps
from ..core.edits import edit_count
from ..core.errors import InputError
from ..core.matches import MatchCounts, MatchStore
from ..core.pairs import (
    ItemCounts,
    Pairs,
    calibrated_epsilon,
    calibrated_swap_sums,
    cell_weights,
    epsilon_pairs,
    item_pairs,
    pair_counts,
    pair_disagreements,
    rated,
    swap_tables,
    window_pairs,
)
from ..core.pcg64 import PcgState
from ..core.reflen import Policy, RefLength
from ..core.resampling import (
    Columns,
    Draws,
    Sides,
    bootstrap_rows,
    bootstrap_sums,
    group_sums,
    pair_swap_sums,
    randomization_sums,
    split_sums,
)
from ..core.smoothing import ScoreRule
from ..core.stats import Stats
from ..tokenizers import Tokenization
from .tables import SegmentTable, table_stats, table_sum


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
        return MatchCounts(systems, order)

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

    def edit_counts(
        self, hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]
    ) -> list[int]:
        """TER's edits: per segment (its words, and its references' words),
        the fewest edits to any of its references (``core.edits``)."""
        return [min(edit_count(h, r) for r in rs) for h, rs in zip(hyps, refs)]

    def bootstrap_sums(self, systems: Sequence[Columns], draws: Draws) -> list[Iterator[Any]]:
        """Per system, its statistics summed over each bootstrap resample
        (``resampling.bootstrap_indices``)."""
        return bootstrap_sums(systems, draws)

    def sacrebleu_bootstrap(
        self, start: PcgState, systems: Sequence[Sequence[Sequence[float]]], samples: int
    ) -> list[list[list[float]]]:
        """sacrebleu's bootstrap: per system (its rows, one per segment), the
        float32 sums of ``samples`` resamples drawn as NumPy's
        ``default_rng`` draws them from ``start`` (``core.pcg64``), the same
        resamples for every system."""
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
        return pcg64.randomization_sums(start, base, other, trials)

    def bootstrap_rows(self, systems: Sequence[Columns], draws: Draws) -> list[Sequence[RefLength]]:
        """Per system, its column sums over each bootstrap resample, flat:
        ``bootstrap_sums``'s numbers as rows, not statistics."""
        return list(bootstrap_rows(systems, draws))

    def split_sums(
        self, cols: Columns, draws: Draws
    ) -> tuple[Sequence[RefLength], Sequence[RefLength]]:
        """Per randomization trial (``randomization_selections``), the
        column sums of a system's selected segments and of its others, each
        flat: what two sides of any pair of systems are sums of."""
        return split_sums(cols, draws)

    def randomization_sums(self, base: Columns, other: Columns, draws: Draws) -> Iterator[Sides]:
        """Per approximate-randomization trial, the summed statistics of the
        two shuffled systems (``resampling.randomization_selections``)."""
        return randomization_sums(base, other, draws)

    def pair_swap_sums(
        self, draws: Draws, first: Sequence[int], second: Sequence[int], table: Sequence[int]
    ) -> list[int]:
        """PERM-BOTH's trials over a statistic that sums over pairs of cells
        (``resampling.pair_swap_sums``)."""
        return pair_swap_sums(draws, first, second, table)

    def pair_counts(self, metric: Sequence[float], human: Sequence[float]) -> Pairs:
        """Every pair of positions of two score vectors classified
        (``core.pairs.pair_counts``)."""
        return pair_counts(metric, human)

    def resampled_pair_counts(
        self,
        metric: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
        indices: Sequence[Sequence[int]],
        by_system: bool,
        epsilon: float = 0.0,
    ) -> list[list[Pairs]]:
        """For each resample of the items (columns) of two systems x items
        matrices (``indices``, repeats kept), the pair counts of the
        resampled scores, a metric difference of at most ``epsilon`` a tie:
        per system, or of all of them in one vector (a bootstrap of the
        segment-level statistics grouped by system or not grouped); NaN
        cells (unrated) left out."""
        if len(metric) != len(human) or any(len(m) != len(h) for m, h in zip(metric, human)):
            raise InputError("metric and human scores must be matrices of one shape")
        out = []
        for idx in indices:
            m = [[row[i] for i in idx] for row in metric]
            h = [[row[i] for i in idx] for row in human]
            flat = [x for row in m for x in row], [x for row in h for x in row]
            vectors = [rated(a, b) for a, b in (zip(m, h) if by_system else [flat])]
            out.append([self.pair_counts(a, b) if epsilon == 0 else window_pairs(a, b, epsilon)
                        for a, b in vectors])  # fmt: skip
        return out

    def system_swaps(
        self,
        a: Sequence[float],
        b: Sequence[float],
        human: Sequence[float],
        statistic: str,
        draws: Draws,
    ) -> int:
        """PERM-BOTH's trials of a system-level statistic that reach the
        observed lead of b over a (``core.correlation.system_swaps``)."""
        return system_swaps(a, b, human, statistic, draws)

    def cell_weights(
        self, x: Sequence[float], y: Sequence[float], human: Sequence[float], kind: str
    ) -> list[int]:
        """PERM-BOTH's per-cell weights of a statistic summed over every
        pair of one vector (``core.pairs.cell_weights``; every pair
        visited)."""
        return cell_weights(x, y, human, kind)

    def pooled_calibration(
        self, metric: Sequence[float], human: Sequence[float]
    ) -> tuple[int, int, float]:
        """Tie calibration of acc_eq with no grouping, the vectors one
        group: the pairs agreeing at the calibrated epsilon, all pairs, and
        the epsilon (``core.pairs.calibrated_epsilon``; every pair is
        visited, so this reference is for small inputs)."""
        epsilon = calibrated_epsilon([(metric, human)])
        pairs = epsilon_pairs(metric, human, epsilon)
        return pairs.con + pairs.tie_both, pairs.total, epsilon

    def item_pairs(
        self, metric: Sequence[Sequence[float]], human: Sequence[Sequence[float]], threshold: float
    ) -> tuple[list[ItemCounts], float]:
        """How the pairs of systems of every item (column) of two system x
        item matrices compare, and acc_eq's calibrated epsilon
        (``core.pairs.item_pairs``)."""
        return item_pairs(metric, human, threshold)

    def swap_tables(
        self,
        za: Sequence[Sequence[float]],
        zb: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
        kind: str,
        threshold: float,
    ) -> tuple[Sequence[int], Sequence[int], Sequence[int]]:
        """PERM-BOTH's pair tables of an item-grouped statistic
        (``core.pairs.swap_tables``), for ``pair_swap_sums``."""
        return swap_tables(za, zb, human, kind, threshold)

    def calibrated_swap_sums(
        self,
        draws: Draws,
        za: Sequence[Sequence[float]],
        zb: Sequence[Sequence[float]],
        human: Sequence[Sequence[float]],
    ) -> list[int]:
        """PERM-BOTH's trials of acc_eq with tie calibration by item, the
        calibration run again in every trial: b's agreeing pairs minus a's
        (``core.pairs.calibrated_swap_sums``)."""
        return calibrated_swap_sums(draws, za, zb, human)

    def pair_disagreements(
        self,
        a: Sequence[float],
        b: Sequence[float],
        human: Sequence[float],
        epsilon_a: float,
        epsilon_b: float,
    ) -> tuple[int, int]:
        """The pairs of one vector where acc_eq of b at ``epsilon_b`` agrees
        and of a at ``epsilon_a`` does not, and the other way round
        (``core.pairs.pair_disagreements``; every pair visited)."""
        return pair_disagreements(a, b, human, epsilon_a, epsilon_b)

    def group_sums(self, cols: Columns, groups: bytes, count: int) -> list[list[RefLength]]:
        """Per group 0 .. ``count`` - 1, the column sums of the segments
        whose byte in ``groups`` is that group (``resampling.group_sums``)."""
        return group_sums(cols, groups, count)


def check_engine(obj: object) -> Engine:
    """The plugin contract: a subclass of ``Engine`` (instantiated with no
    arguments) or an instance of one."""
    engine = obj() if isinstance(obj, type) and issubclass(obj, Engine) else obj
    if not isinstance(engine, Engine):
        raise TypeError(f"{obj!r} is not a bleukit.engines.Engine")
    return engine
