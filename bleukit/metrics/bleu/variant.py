"""BLEU (Papineni et al. 2002) as a ``Metric``: a loaded variant scores
corpora and sentences.

>>> import bleukit
>>> v = bleukit.load_variant("sacrebleu")
>>> round(v.sentence_score("the cat sat on the mat", ["the cat sat on the mat"]).score, 2)
100.0
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, overload

from ...core.errors import InputError
from ...core.record import Record, field
from ...core.reflen import policy
from ...core.smoothing import SMOOTHINGS
from ...core.stats import RefLength, Stats
from ...engines import SegmentTable, limited_threads, select_rows
from ...tokenizers import Tokens, make_tokenization
from ..base import Metric, StatisticsStore
from ..inputs import (
    RefStreams,
    check_hypotheses,
    check_ref_streams,
    check_strings,
    engine_for,
)
from .config import VariantConfig
from .result import BleuResult
from .score import BleuRule, Weights, compute_bleu, compute_bleu_many, results_from_parts
from .signature import Signature

if TYPE_CHECKING:
    from ...core.resampling import Columns

#: what makes a word variant count token ids (``Metric.for_token_ids``): one
#: character per id, case kept
TOKEN_ID_FIELDS = {"tokenizer": "char.v1", "lowercase": False}


class PreparedReferences(Record):
    """References prepared once by an engine (``payload``, its own form)
    for one tokenization, to score many systems against: ``key`` names the
    tokenization and the engine, ``order`` the n-gram order prepared for
    (engines whose prepared references are order-bound serve that order and
    lower ones)."""

    key: tuple[object, ...]
    order: int
    size: int
    nrefs: int | str
    per_segment: tuple[int, ...]
    payload: object = field(repr=False)


class Variant(Metric[Stats, BleuResult]):
    """A complete, validated BLEU variant ready to score text, on the engine
    chosen for it (``engine``: None for ``BLEUKIT_ENGINE``, "auto", or an
    engine's name)."""

    config: VariantConfig

    def __init__(
        self, config: VariantConfig, engine: str | None = None, threads: int | None = None
    ) -> None:
        super().__init__(config, engine, threads)
        self.tokenization = make_tokenization(
            config.tokenizer, config.split, config.lowercase, config.tokenizer_model
        )
        self.engine = engine_for(engine, self.tokenization)
        self._ref_length = policy(config.ref_length)
        self._at_least_one = config.totals == "at-least-one"
        self._smoothing = SMOOTHINGS.get(config.smoothing)
        # NLTK methods 5 and 7 read the last segment's 5-gram statistics
        self.stat_order = max(config.max_order, self._smoothing.last_segment_order)
        self._weights: Weights = None if config.weights == "uniform" else config.weights
        self._rule = BleuRule(self._smoothing, config.max_order, self._weights,
                              config.effective_order, config.smoothing_value)  # fmt: skip

    @property
    def reads_last_segment(self) -> bool:  # type: ignore[override]
        """Whether the smoothing reads the corpus's last segment (NLTK
        methods 5-7): then the order of segments can change a score."""
        return self._smoothing.reads_last_segment

    @property
    def zero_without_match(self) -> bool:  # type: ignore[override]
        """Whether a segment with an order unmatched scores 0 (no
        smoothing): most sentence scores are then 0."""
        return self._smoothing.zero_without_match

    @property
    def order(self) -> int:
        return self.config.max_order

    def with_order(self, order: int) -> Variant:
        return self.with_overrides(max_order=order)  # type: ignore[no-any-return]

    @property
    def language_tokenizer(self) -> str | None:
        return self.config.tokenizer

    score_name = "BLEU"
    family = "BLEU"

    def display_tokens(self, lines: Sequence[str]) -> list[list[str]]:
        return self.tokenize_lines(lines)

    def display_block(self, lines: Sequence[str]) -> str | None:
        return self.engine.token_block(self.tokenization, lines)

    def sentence_variant(self) -> Variant:
        """Unsmoothed, a sentence with no matched 4-gram scores 0 (most
        sentences): sacrebleu's sentence_bleu settings instead (exp
        smoothing, effective order), as its ``--sentence-level`` prints. A
        smoothing whose tool scores sentences with another one names it
        (``Smoothing.sentence_smoothing``: compare-mt's sentence BLEU is
        NLTK's method 2)."""
        other = self._smoothing.sentence_smoothing
        if other is not None:
            return self.with_overrides(smoothing=other)  # type: ignore[no-any-return]
        if not self.zero_without_match:
            return self
        return self.with_overrides(smoothing="exp.v1", effective_order=True)  # type: ignore[no-any-return]

    @property
    def display_order(self) -> int:
        return self.config.max_order

    def details(self, result: BleuResult) -> dict[str, Any]:
        return {
            "columns": {"BP": result.bp, "ratio": result.ratio},
            "bars": list(result.precisions),
            "bars_label": "n-gram precision",
        }

    def for_token_ids(self) -> Variant:
        return self.with_overrides(**TOKEN_ID_FIELDS)  # type: ignore[no-any-return]

    # ---------------------------------------------------------- pipeline

    def tokenize(self, line: str) -> Tokens:
        """The tokens BLEU counts for one line under this variant (one
        string of them for one-character tokens)."""
        return self.tokenization.preprocess(line)

    def tokenize_lines(self, lines: Sequence[str]) -> list[list[str]]:
        """The tokens of each line (one-character tokens one by one), on
        this variant's engine: many lines at once, as the report shows them."""
        return self.engine.tokens(self.tokenization, lines)

    def signature(self, nrefs: int | str) -> Signature:
        return Signature(self.config, nrefs)

    def reference_key(self) -> tuple[object, ...]:
        """What prepared references and tables depend on: the tokenization
        and the engine."""
        return (self.tokenization.key, self.engine.name)

    def prepare_references(
        self, ref_streams: RefStreams | PreparedReferences, order: int | None = None
    ) -> PreparedReferences:
        """Tokenize (and count, as the engine needs) the references once, to
        score many systems against them (``corpus_score`` accepts the result
        in place of the streams), for n-grams up to ``order`` (default this
        variant's). Variants with the same tokenization share it."""
        order = max(order or 0, self.stat_order)
        if isinstance(ref_streams, PreparedReferences):
            if ref_streams.key != self.reference_key() or (
                self.engine.order_bound and ref_streams.order < order
            ):
                raise InputError(
                    "these references were prepared by a variant with another "
                    "tokenization or order; prepare them with this variant"
                )
            return ref_streams
        per_segment, nrefs = check_ref_streams(ref_streams)
        payload = self.engine.prepare(self.tokenization, ref_streams, order)
        return PreparedReferences(
            self.reference_key(), order, len(per_segment), nrefs, tuple(per_segment), payload
        )

    def _prepared_for(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences, order: int
    ) -> PreparedReferences:
        check_strings(hyps, "hypotheses")
        prepared = self.prepare_references(refs, order)
        check_hypotheses(hyps, prepared.size)
        return prepared

    def tables(
        self,
        hyps: Sequence[str],
        refs: RefStreams | PreparedReferences,
        order: int | None = None,
    ) -> list[SegmentTable]:
        """The engine's per-segment tables (hypothesis and reference
        lengths, matches up to ``order``, default this variant's): any
        variant with this tokenization and an order up to ``order`` reads
        its statistics from them (``stats_from_tables``)."""
        order = max(order or 0, self.stat_order)
        prepared = self._prepared_for(hyps, refs, order)
        with limited_threads(self.threads):
            return list(self.engine.tables(self.tokenization, hyps, prepared.payload, order))

    def stats_from_tables(self, tables: Iterable[SegmentTable]) -> list[Stats]:
        """This variant's per-segment statistics from tables of its
        tokenization at its order or higher."""
        return self.engine.stats(tables, self._ref_length, self._at_least_one, self.stat_order)

    def rows_from_tables(self, tables: Sequence[SegmentTable]) -> array[int] | None:
        """Every segment's ``row`` of tables of its tokenization at its
        order or higher, flat in one array of a row type, made a column at
        a time (None: a statistic of no row type)."""
        return self.engine.table_rows(tables, self._ref_length, self._at_least_one, self.stat_order)

    def sum_from_tables(self, tables: Iterable[SegmentTable]) -> Stats:
        """This variant's summed statistics from tables of its tokenization
        at its order or higher (no Stats per segment)."""
        return self.engine.sum(tables, self._ref_length, self._at_least_one, self.stat_order)

    def _own_tables(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences
    ) -> tuple[Iterator[SegmentTable], int | str]:
        prepared = self._prepared_for(hyps, refs, self.stat_order)
        with limited_threads(self.threads):
            tables = self.engine.tables(self.tokenization, hyps, prepared.payload, self.stat_order)
        return tables, prepared.nrefs

    def segment_stats(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences
    ) -> tuple[list[Stats], int | str]:
        """Per-segment statistics and the number of references (``"var"``
        when segments have different numbers)."""
        tables, nrefs = self._own_tables(hyps, refs)
        return self.stats_from_tables(tables), nrefs

    def corpus_stats(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences
    ) -> tuple[Stats, int | str]:
        """The summed statistics of a corpus (no Stats per segment)."""
        tables, nrefs = self._own_tables(hyps, refs)
        return self.sum_from_tables(tables), nrefs

    def score_stats(self, stats: Stats, nrefs: int | str) -> BleuResult:
        """Score (summed) statistics."""
        c = self.config
        return compute_bleu(
            stats,
            c.max_order,
            self._smoothing,
            self._weights,
            c.effective_order,
            c.smoothing_value,
            self.signature(nrefs),
        )

    def score_values(self, stats: Iterable[Stats]) -> list[float]:
        """Only the scores of many (summed) statistics, smoothed in one
        batch: the resampling hot path (a thousand resamples a system)."""
        return self._rule.values(stats if isinstance(stats, (list, tuple)) else list(stats))

    def score_sums(
        self, cols: Columns, rows: Sequence[Any], other: Sequence[Any] | None = None
    ) -> list[float]:
        # the engine's kernel where it has one; the last segment's statistics
        # (NLTK's methods 5-7) are only in the columns
        if not self.reads_last_segment:
            values = self.engine.row_values(rows, other, self.stat_order, self._rule)
            if values is not None:
                return values
        return super().score_sums(cols, rows, other)

    def sentence_values_from_tables(self, tables: Iterable[SegmentTable]) -> list[float]:
        """Each segment's score (sentence BLEU) from tables of its
        tokenization at its order or higher: ``score_values`` of each
        segment's statistics, on the engine (no Stats per segment in C)."""
        return self.engine.sentence_values(
            tables, self._ref_length, self._at_least_one, self.stat_order, self._rule
        )

    def sentence_values(
        self, hyps: Sequence[str], refs: RefStreams | PreparedReferences
    ) -> list[float]:
        """Each segment's score from its table, on the engine's scorer (in C
        where it has one): no Stats and no result per segment."""
        tables, _ = self._own_tables(hyps, refs)
        return self.sentence_values_from_tables(tables)

    def sentence_results(
        self, segments: Sequence[Stats], per_segment: Sequence[int]
    ) -> list[BleuResult]:
        return self._results(segments, self._signatures(per_segment))

    def sentence_scores(
        self, hyps: Sequence[str], ref_streams: RefStreams | PreparedReferences
    ) -> list[BleuResult]:
        """One result per segment: made from the engine's sentence scores,
        penalties and precisions of each table where it has a kernel for
        this variant (``Engine.sentence_parts``), else from each segment's
        Stats; the same numbers either way."""
        # the hypotheses are checked once, by _own_tables
        prepared = self.prepare_references(ref_streams, self.stat_order)
        tables, _ = self._own_tables(hyps, prepared)
        signatures = self._signatures(prepared.per_segment)
        order, policy, at_least_one = self.config.max_order, self._ref_length, self._at_least_one
        out: list[BleuResult] = []
        for table in tables:
            mine = signatures[len(out) : len(out) + len(table.hyp_len)]
            parts = self.engine.sentence_parts(table, policy, at_least_one, self._rule)
            if parts is None:
                out.extend(self._results(self.stats_from_tables([table]), mine))
            else:
                out.extend(results_from_parts(
                    parts, table.hyp_len, table.chosen_lengths(policy), table.matches.tolist(),
                    table.order, order, at_least_one, mine,
                ))  # fmt: skip
        return out

    def _results(
        self, segments: Sequence[Stats], signatures: Sequence[Signature]
    ) -> list[BleuResult]:
        c = self.config
        args = (c.max_order, self._smoothing, self._weights, c.effective_order, c.smoothing_value)
        return compute_bleu_many(segments, *args, signatures)

    def _signatures(self, per_segment: Sequence[int]) -> list[Signature]:
        """Each segment's signature (by its number of references)."""
        signatures = {n: self.signature(n) for n in set(per_segment)}
        return [signatures[n] for n in per_segment]

    # ------------------------------------------------------ statistics

    def zero_stats(self) -> Stats:
        return Stats.zero(self.stat_order)

    def add_stats(self, a: Stats, b: Stats) -> Stats:
        return a + b

    def partial_stats(self, total: Stats) -> Stats:
        if self.reads_last_segment:
            return total
        # the last segment is not read: keep sums order-free
        return total._replace(last_len=0, last_counts=(), last_totals=())

    def check_stats(self, stats: object) -> None:
        if not isinstance(stats, Stats) or stats.order != self.stat_order:
            shape = f"{stats.order}" if isinstance(stats, Stats) else "another metric's"
            raise InputError(
                f"invalid partial statistics: {self.name} counts {self.stat_order} n-gram "
                f"orders, these statistics have {shape}"
            )

    def row(self, stats: Stats) -> tuple[RefLength, ...]:
        # sacrebleu's per-segment list: [hyp_len, ref_len, correct..., total...]
        o = self.stat_order
        return (stats.sys_len, stats.ref_len, *stats.counts[:o], *stats.totals[:o])

    def from_row(self, sums: Sequence[Any], segments: int, last: Stats) -> Stats:
        o = self.stat_order
        return Stats(
            sums[0], sums[1], tuple(sums[2 : 2 + o]), tuple(sums[2 + o :]),
            segments, last.last_len, last.last_counts, last.last_totals,
        )  # fmt: skip

    def from_sacrebleu_row(self, sums: Sequence[Any], segments: int, last: Stats) -> Stats:
        # sacrebleu's _compute_score_from_stats turns sys_len and ref_len back
        # into ints and keeps the counts float32 scalars, so the precisions
        # are float32 arithmetic (deliberate compatibility quirk)
        return self.from_row([int(sums[0]), int(sums[1]), *sums[2:]], segments, last)

    def store_key(self) -> tuple[object, ...]:
        # variants of one tokenization read their statistics from one table
        return ("bleu", *self.reference_key())

    def sentence_batch_key(self) -> Hashable:
        # the engine scores one table at several orders in one pass where
        # the rule has a kernel (uniform weights) and only the order differs
        rule, c = self._rule, self.config
        if rule.kernel is None:
            return self.fingerprint
        return (*self.store_key(), c.ref_length, c.totals, rule.kernel, rule.value,
                rule.effective_order)  # fmt: skip

    def statistics_key(self) -> Hashable:
        # a segment's Stats are read from the store's tables at this order,
        # with these reference lengths and totals (``stats_from_tables``);
        # the smoothing, weights and the rest only score them
        c = self.config
        return (*self.store_key(), self.stat_order, c.ref_length, c.totals)

    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[Stats]:
        return TableStore(metrics, systems, per_segment)


class TableStore(StatisticsStore[Stats]):
    """Several systems' statistics under BLEU variants of one tokenization:
    each system counted once per chunk at the highest order among them (the
    engine's tables), each variant reading its statistics from the tables
    (``per_segment``), or each variant's running sums (not)."""

    def __init__(self, variants: Sequence[Variant], systems: int, per_segment: bool) -> None:
        self._variant = variants[0]
        self._order = max(v.stat_order for v in variants)
        self.per_segment = per_segment
        self._tables: list[list[SegmentTable]] = [[] for _ in range(systems)]
        #: without per-segment statistics, each variant's running sums
        self._summed = {} if per_segment else {
            v.fingerprint: (v, [Stats.zero(v.stat_order) for _ in range(systems)])
            for v in variants
        }  # fmt: skip
        #: by system, ``subtotal``'s last rows and their segments as one
        #: table: every variant of the store sums the same selection (each
        #: system its own rows: a study's systems rated on other segments)
        self._selection: dict[int, tuple[tuple[int, ...], SegmentTable]] = {}

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        self._selection = {}
        variant = self._variant
        prepared = variant.prepare_references(ref_streams, self._order)
        for i, lines in enumerate(hyps):
            tables = variant.tables(lines, prepared, self._order)
            if self.per_segment:
                # kept for the whole run: int16 where they fit (a million
                # segments and two systems: 96 MB less than int64)
                self._tables[i].extend(variant.engine.compact(t) for t in tables)
                continue
            for v, running in self._summed.values():
                running[i] = running[i] + v.sum_from_tables(tables)

    def extend(self, later: TableStore) -> None:
        self._selection = {}
        for tables, more in zip(self._tables, later._tables):
            tables.extend(more)
        for fingerprint, (_, running) in self._summed.items():
            after = later._summed[fingerprint][1]
            running[:] = [a + b for a, b in zip(running, after)]

    def _system_tables(self, variant: Variant, system: int) -> list[SegmentTable]:
        if not self.per_segment:
            raise ValueError("these statistics were collected as sums (per_segment=False)")
        if self._order < variant.stat_order:
            raise InputError(f"variant {variant.name} was not collected")
        return self._tables[system]

    def segments(self, metric: Variant, system: int) -> TableSegments:
        """The per-segment statistics as a sequence computed from the tables
        as it is read (one pass costs one table's Stats at a time)."""
        return TableSegments(metric, self._system_tables(metric, system))

    def sentence_values(self, metric: Variant, system: int) -> list[float]:
        return metric.sentence_values_from_tables(self._system_tables(metric, system))

    def sentence_values_many(
        self, metrics: Sequence[Variant], system: int
    ) -> list[Sequence[float]]:
        for m in metrics:  # each variant's order checked against the store's
            self._system_tables(m, system)
        first = metrics[0]
        tables = self._system_tables(first, system)
        return first.engine.sentence_values_orders(
            tables, first._ref_length, first._at_least_one,
            [(m.stat_order, m._rule) for m in metrics],
        )  # fmt: skip

    def subtotal(self, metric: Variant, system: int, rows: Sequence[int]) -> Stats:
        tables = self._system_tables(metric, system)
        key = tuple(rows)
        if system not in self._selection or self._selection[system][0] != key:
            self._selection[system] = (key, select_rows(tables, key))
        return metric.sum_from_tables([self._selection[system][1]])

    def total(self, metric: Variant, system: int) -> Stats:
        if self.per_segment:
            return metric.sum_from_tables(self._system_tables(metric, system))
        if metric.fingerprint not in self._summed:
            raise InputError(f"variant {metric.name} was not collected")
        return self._summed[metric.fingerprint][1][system]


class TableSegments(Sequence[Stats]):
    """A variant's per-segment ``Stats`` of a system, read from its tables
    when asked for: iterating holds one table's Stats at a time."""

    def __init__(self, variant: Variant, tables: list[SegmentTable]) -> None:
        self._variant = variant
        self._tables = tables
        self._size = sum(len(t.hyp_len) for t in tables)

    def __len__(self) -> int:
        return self._size

    @cached_property
    def shared_rows(self) -> array[int] | None:
        """The segments' rows, made from the tables a column at a time for
        ``Columns`` to take as they are (None: not of a row type)."""
        return self._variant.rows_from_tables(self._tables)

    @property
    def width(self) -> int:
        """The fields of a row."""
        return 2 + 2 * self._variant.stat_order

    def __iter__(self) -> Iterator[Stats]:
        for table in self._tables:
            yield from self._variant.stats_from_tables([table])

    @overload
    def __getitem__(self, index: int) -> Stats: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Stats]: ...

    def __getitem__(self, index: int | slice) -> Stats | Sequence[Stats]:
        if isinstance(index, slice):
            return list(self)[index]
        i = range(self._size)[index]  # IndexError past either end
        # that segment's row alone (a study asks for one segment of a
        # system again and again: its table's Stats would all be made)
        return self._variant.stats_from_tables([select_rows(self._tables, [i])])[0]


def load_variant(
    name_or_path: str, engine: str | None = None, threads: int | None = None, **overrides: Any
) -> Variant:
    """A built-in variant by name, or a YAML file, with keyword overrides.
    ``engine``: "auto", "c", "python" or a plugin engine's name (None:
    ``BLEUKIT_ENGINE``); ``threads``: the most threads its engine may use."""
    return Variant(load_config(name_or_path, overrides), engine, threads)


def load_config(ref: str, overrides: dict[str, Any] | None = None) -> VariantConfig:
    """A validated BLEU variant from a built-in name or a YAML path, with
    overrides (``NAME[key=value,...]`` is a name with overrides); a variant
    of another metric is refused."""
    from ..registry import DEFAULT_METRIC, load_config_of

    config: VariantConfig = load_config_of(DEFAULT_METRIC, ref, overrides)
    return config
