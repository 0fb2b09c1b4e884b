"""The metric interface: what every metric (BLEU, chrF, ...) is to the rest
of bleukit.

A metric turns text into additive per-segment statistics and statistics
into a score; everything else (corpus and sentence scores, map-reduce
partials, resampling for intervals and paired tests, several systems
collected a chunk at a time) is written once, here and in the modules that
take a ``Metric``, over the hooks a metric fills in:

* ``signature(nrefs)``: the complete signature of its scores;
* ``prepare_references`` / ``segment_stats`` / ``corpus_stats``: tokenize
  and count, per segment, against the references;
* ``score_stats`` / ``score_values``: score summed statistics;
* ``zero_stats`` / ``add_stats`` / ``check_stats``: the neutral statistics,
  their sum, and their shape (for ``Partial``);
* ``row`` / ``from_row``: statistics as a flat row of non-negative numbers
  and back, what resampling sums (Koehn 2004; Riezler & Maxwell 2005);
* ``new_store``/``store_key``: how statistics of several systems are kept
  (metrics with equal keys share one counting pass).

The pattern is sacrebleu's ``metrics/base.py`` (scores written once over
hooks); the hooks differ because bleukit's statistics are exact integers
that merge across processes and are resampled without re-tokenizing.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from ..core.errors import ConfigError, InputError
from ..core.hashing import sha256
from ..core.partial import Partial, validate
from ..core.stats import RefLength
from ..engines import Engine, call_threads
from .inputs import RefStreams, no_segments, sentence_references

if TYPE_CHECKING:
    from ..core.resampling import Columns

#: the keys of a signature's number of references and release, (long, short)
NREFS = ("nrefs", "#")
VERSION = ("version", "v")
#: a release as signatures write it (PEP 440: 0.1.0, 2.6.0, 1.0rc1,
#: 0.2.dev3+g1a2b), at most 64 characters; compiled (and cached by re)
#: when first matched, not at start-up
_RELEASE = r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?(\+[a-zA-Z0-9.]+)?"


def is_release(value: str) -> bool:
    """Whether a signature's release is one (``abc`` is not, nor a newline
    that would add a line to the YAML ``signature parse`` prints)."""
    return len(value) <= 64 and re.fullmatch(_RELEASE, value) is not None


def read_release(value: str, key: str = "version") -> str:
    """A signature's release, checked: anything else is a ConfigError
    naming the key."""
    if not is_release(value):
        raise ConfigError(f"signature key {key!r}: {value[:40]!r} is not a release (e.g. 0.1.0)")
    return value


S = TypeVar("S")  # per-segment (and summed) statistics


class MetricSignature(ABC):
    """What every metric's signature is (``Signature``, ``ChrfSignature``):
    every choice behind a score, in a long and a short form, with a digest
    that names the metric (not the release)."""

    #: the variant's configuration, its number of references, and how its
    #: intervals and p-values were computed (None: no test)
    config: Any
    nrefs: int | str
    test: Any
    #: how a score under this signature is printed: bleukit's number times
    #: ``scale`` (sacrebleu 1.x printed chrF and TER between 0 and 1), and
    #: whether it was scored against the first reference only
    #: (``sacrebleu_signature.SacrebleuSignature`` differs)
    scale: ClassVar[float] = 1.0
    first_reference_only: ClassVar[bool] = False
    #: what the signature leaves open and was assumed, one line each
    assumed: ClassVar[tuple[str, ...]] = ()

    @property
    def bleukit(self) -> MetricSignature:
        """bleukit's signature of the variant (for a signature read from
        another tool's form, that variant's own)."""
        return self

    @abstractmethod
    def _format(self, short: bool, versions: bool = True) -> str:
        """The signature's text (``versions``: with the release)."""

    @property
    @abstractmethod
    def sacrebleu(self) -> str | None:
        """sacrebleu's signature of the same computation (None: none states it)."""

    @property
    @abstractmethod
    def sacrebleu_compatible(self) -> bool:
        """Whether sacrebleu computes this variant."""

    @abstractmethod
    def with_test(self, test: Any) -> MetricSignature:
        """This signature with how intervals and p-values were computed."""

    @abstractmethod
    def described(self) -> dict[str, Any]:
        """What the signature states, as JSON writes it (``bleukit signature
        parse -f json``): the variant's fields, nrefs, and ``to_dict``."""

    @abstractmethod
    def notes(self) -> list[str]:
        """What it states beyond the variant's fields, one line each (the
        comments below the YAML of ``bleukit signature parse``)."""

    @property
    def long(self) -> str:
        return self._format(short=False)

    @property
    def short(self) -> str:
        return self._format(short=True)

    @property
    def digest(self) -> str:
        """12 hex digits naming the metric (not the release)."""
        return sha256(self._format(short=False, versions=False).encode("utf-8")).hexdigest()[:12]

    @property
    def sacrebleu_tested(self) -> str | None:
        """sacrebleu's signature as sacrebleu prints it beside a score with
        an interval or a test: after ``nrefs``, ``bs:N`` (its bootstrap:
        ``--confidence``, ``--paired-bs``) or ``ar:N`` (``--paired-ar``) and
        ``seed:S``; the plain one without (None: sacrebleu does not compute
        the variant)."""
        sacrebleu = self.sacrebleu
        test = self.test
        if sacrebleu is None or test is None:
            return sacrebleu
        head, _, rest = sacrebleu.partition("|")
        key = "ar" if test.test == "ar" else "bs"
        return f"{head}|{key}:{test.samples}|seed:{test.seed}|{rest}"

    def to_dict(self) -> dict[str, str | None]:
        return dict(self._spelled)

    @functools.cached_property
    def _spelled(self) -> dict[str, str | None]:
        # spelled once a signature: every sentence result of a variant
        # shares its signature, and each result's JSON reads it (100,000
        # segments spelled it 300,000 times: half of the sentence JSON's time)
        return {
            "signature": self.long,
            "signature_short": self.short,
            "signature_digest": self.digest,
            "sacrebleu_signature": self.sacrebleu_tested,
        }

    def __str__(self) -> str:
        return self.long


class MetricResult(Protocol):
    """What every metric's score offers (``BleuResult``, ``ChrfResult``)."""

    @property
    def score(self) -> float: ...
    @property
    def signature(self) -> Any: ...
    def format(self, width: int = 2) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...


# bound to the class, not its name: typing compiles a name into a forward
# reference, and a process's first compile() builds the AST's types (about
# 2 ms of every command's start; no other compile() runs on score's path)
R = TypeVar("R", bound=MetricResult, covariant=True)


class Prepared(Protocol):
    """References prepared once by a metric, to score many systems against."""

    @property
    def size(self) -> int: ...
    @property
    def nrefs(self) -> int | str: ...
    @property
    def per_segment(self) -> tuple[int, ...]: ...


class StatisticsStore(ABC, Generic[S]):
    """The statistics of several systems under a group of metrics that share
    one counting pass (``Metric.store_key``), filled a chunk at a time."""

    @abstractmethod
    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        """One chunk: reference streams and each system's hypotheses."""

    @abstractmethod
    def extend(self, later: Any) -> None:
        """Append the statistics of the chunks that follow (a store of the
        same key and systems, collected elsewhere)."""

    @abstractmethod
    def segments(self, metric: Any, system: int) -> Sequence[S]:
        """A system's per-segment statistics under one metric of the group
        (needs ``per_segment``)."""

    @abstractmethod
    def total(self, metric: Any, system: int) -> S:
        """A system's summed statistics under one metric of the group."""

    def columns_of(self, metric: Any, system: int, rows: Sequence[int | None]) -> Columns:
        """Resampling columns of some of a system's segments (``rows``,
        numbered from 0, in that order; None: a row of zeros, a segment that
        adds nothing to any sum, where a study leaves one out)."""
        # read in order once: a store's segments may be computed a table at a time
        segments = self.segments(metric, system)
        listed = segments if isinstance(segments, list) else list(segments)
        from ..core.resampling import Columns

        return Columns([metric.zero_stats() if i is None else listed[i] for i in rows], metric)

    def subtotal(self, metric: Any, system: int, rows: Sequence[int]) -> S:
        """A system's statistics summed over some of its segments (``rows``,
        numbered from 0), as resampling columns sum them."""
        cols = self.columns_of(metric, system, rows)
        total: S = cols.to_stats(cols.total())
        return total

    def sentence_values(self, metric: Any, system: int) -> list[float]:
        """A system's sentence scores under one metric of the group."""
        values: list[float] = metric.score_values(self.segments(metric, system))
        return values

    def sentence_values_many(self, metrics: Sequence[Any], system: int) -> list[Sequence[float]]:
        """``sentence_values`` of several metrics of one ``sentence_batch_key``:
        one sequence each, a list or float64 array (a store may make them
        in one pass)."""
        return [self.sentence_values(m, system) for m in metrics]


class SegmentStore(StatisticsStore[S]):
    """Several systems' statistics under one variant whose store holds that
    variant alone (TER, GLEU): per chunk, the references prepared once and
    each system's segments counted against them; each system's sums and
    (``per_segment``) each segment's statistics."""

    def __init__(self, variant: Metric[S, Any], systems: int, per_segment: bool) -> None:
        self._variant = variant
        self._sums: list[S] = [variant.zero_stats() for _ in range(systems)]
        self._rows: list[list[S]] | None = [[] for _ in range(systems)] if per_segment else None

    def add(self, ref_streams: RefStreams, hyps: Sequence[Sequence[str]]) -> None:
        v = self._variant
        prepared = v.prepare_references(ref_streams)
        for i, lines in enumerate(hyps):
            segments, _ = v.segment_stats(lines, prepared)
            if self._rows is not None:
                self._rows[i].extend(segments)
            self._sums[i] = v.add_stats(self._sums[i], v.sum_stats(segments))

    def extend(self, later: SegmentStore[S]) -> None:
        self._sums = [self._variant.add_stats(a, b) for a, b in zip(self._sums, later._sums)]
        if self._rows is not None and later._rows is not None:
            for rows, more in zip(self._rows, later._rows):
                rows.extend(more)

    def segments(self, metric: Any, system: int) -> Sequence[S]:
        if self._rows is None:
            raise ValueError("these statistics were collected as sums (per_segment=False)")
        return self._rows[system]

    def total(self, metric: Any, system: int) -> S:
        return self._sums[system]


class Metric(ABC, Generic[S, R]):
    """A complete, validated variant of one metric, ready to score text on
    the engine chosen for it (``engine``: None for ``BLEUKIT_ENGINE``,
    "auto", or an engine's name; ``threads``: the most threads it may use)."""

    #: the metric a variant is of (``BLEU``, ``chrF``, ``TER``): what an
    #: integration with one class per metric checks a variant against
    family: ClassVar[str]
    #: whether a higher score is a better translation
    higher_is_better: ClassVar[bool] = True
    #: whether scores lie on the 0-100 scale (NIST's have no upper bound)
    percent: ClassVar[bool] = True
    #: whether a segment with an order unmatched scores 0 (then most
    #: sentence scores are 0: worth a warning)
    zero_without_match: bool = False
    #: whether the score reads the corpus's last segment, so that partials
    #: merge only in corpus order
    reads_last_segment: bool = False
    #: why statistics depend on every reference of the corpus (None: they
    #: do not): then a corpus is counted once it is whole (its store keeps
    #: the chunks: ``corpus.streaming`` reads them into one),
    #: and partial statistics of parts of it do not merge (NIST's
    #: information weights)
    whole_corpus: ClassVar[str | None] = None
    #: the engine that counts this metric's n-grams
    engine: Engine

    def __init__(self, config: Any, engine: str | None = None, threads: int | None = None) -> None:
        self.config = config
        #: the most threads the engine may use for this variant (None: its default)
        self.threads = threads
        self.name: str = config.name or "custom"
        self._requested_engine = engine

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.signature(1).short!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its configuration, rebuilt (tokenizers, engine) on load
        return (type(self), (self.config, self._requested_engine, self.threads))

    @functools.cached_property
    def fingerprint(self) -> str:
        """What a score depends on (the signature's digest for one
        reference): partials of equal fingerprints merge. Made once: a
        variant's settings do not change, and a study asks for it thousands
        of times."""
        return self.signature(1).digest

    def with_overrides(self, **overrides: Any) -> Any:
        """A new variant with some fields changed (validated again); the
        engine asked for, not the one resolved: "auto" stays "auto"."""
        from ..config.model import with_overrides
        from .registry import validate_any

        data = with_overrides(self.config.as_dict(), overrides)
        config = validate_any(data, f"variant {self.name} with overrides")
        return type(self)(config, self._requested_engine, self.threads)

    # ---------------------------------------------------------------- hooks

    @abstractmethod
    def signature(self, nrefs: int | str) -> MetricSignature:
        """The complete signature of this variant's scores."""

    @property
    @abstractmethod
    def order(self) -> int:
        """The n-gram order that defines the variant (BLEU's max order,
        chrF's character order): what ``agree`` searches over."""

    @abstractmethod
    def with_order(self, order: int) -> Any:
        """This variant at another ``order``."""

    @property
    def language_tokenizer(self) -> str | None:
        """The tokenizer whose word splitting depends on the language (warned
        about for unspaced scripts), None where nothing does."""
        return None

    @property
    @abstractmethod
    def score_name(self) -> str:
        """The score's name in tables (``BLEU``, ``chrF2``)."""

    def display_tokens(self, lines: Sequence[str]) -> list[list[str]]:
        """Each line as the tokens a report shows it in (words by default)."""
        return [line.split() for line in lines]

    def display_block(self, lines: Sequence[str]) -> str | None:
        """``display_tokens`` as one block (each line's tokens joined by one
        space, the lines by newlines) where the engine makes it without a
        list per line (``Engine.token_block``); None: it does not."""
        return None

    def sentence_variant(self) -> Any:
        """The variant whose sentence scores a report shows for this one:
        itself, unless most of its sentence scores would be 0."""
        return self

    @property
    def display_order(self) -> int:
        """The longest n-gram a report highlights in ``display_tokens``."""
        return 4

    def details(self, result: Any) -> dict[str, Any]:
        """What a report shows of a result beside its score: ``columns``
        (name to number), ``bars`` (one number per order, 0-100) and what
        the bars are (``bars_label``)."""
        return {"columns": {}, "bars": [], "bars_label": ""}

    def for_token_ids(self) -> Any:
        """This variant counting one token per character (token ids mapped
        to characters, ``rewards``)."""
        raise InputError(f"token_ids=True needs a variant of words; {self.name} cannot count ids")

    @abstractmethod
    def reference_key(self) -> tuple[object, ...]:
        """What prepared references depend on."""

    @abstractmethod
    def prepare_references(self, ref_streams: Any) -> Prepared:
        """Tokenize and count the references once, to score many systems."""

    @abstractmethod
    def segment_stats(self, hyps: Sequence[str], refs: Any) -> tuple[list[S], int | str]:
        """Per-segment statistics, and the number of references."""

    @abstractmethod
    def corpus_stats(self, hyps: Sequence[str], refs: Any) -> tuple[S, int | str]:
        """The summed statistics of a corpus, and the number of references."""

    @abstractmethod
    def score_stats(self, stats: S, nrefs: int | str) -> R:
        """The result of (summed) statistics."""

    @abstractmethod
    def score_values(self, stats: Iterable[S]) -> list[float]:
        """Only the scores of many (summed) statistics: the resampling hot path."""

    @abstractmethod
    def zero_stats(self) -> S:
        """The statistics of no segment."""

    @abstractmethod
    def add_stats(self, a: S, b: S) -> S:
        """Statistics summed (``b`` comes after ``a`` in the corpus)."""

    @abstractmethod
    def check_stats(self, stats: object) -> None:
        """Statistics of this variant's shape, or an ``InputError``."""

    @abstractmethod
    def row(self, stats: S) -> Sequence[RefLength]:
        """Statistics as a flat row of non-negative numbers that sum."""

    @abstractmethod
    def from_row(self, sums: Sequence[Any], segments: int, last: S) -> S:
        """Statistics from a row summed over ``segments`` segments, the
        corpus's last being ``last``."""

    def sacrebleu_row(self, row: Sequence[RefLength]) -> Sequence[Any]:
        """A segment's row as sacrebleu's per-segment statistics hold it
        (``--compat sacrebleu`` resamples these): the row itself where
        sacrebleu's are integers."""
        return row

    def sacrebleu_rows(self, cols: Columns) -> Sequence[Sequence[Any]]:
        """A system's rows as sacrebleu holds them (``sacrebleu_row`` of
        each): where they are the metric's own uint32 rows, those rows
        themselves, uncopied (``Columns.row_view``: the kernels read the
        buffer, and a million segments need no list of rows). A metric whose
        ``sacrebleu_row`` changes integer rows overrides this too."""
        if cols.rows is not None:
            return cols.row_view()
        return [self.sacrebleu_row(row) for row in zip(*cols.cols)]

    def from_sacrebleu_row(self, sums: Sequence[Any], segments: int, last: S) -> S:
        """Statistics from a row of sacrebleu's float32 resample sums, as
        sacrebleu turns them back into a score (``--compat sacrebleu``)."""
        return self.from_row(sums, segments, last)

    @abstractmethod
    def store_key(self) -> tuple[object, ...]:
        """Metrics with equal keys share one statistics store."""

    def sentence_batch_key(self) -> Hashable:
        """Variants of equal keys share a store, and their sentence scores
        can be made together (``StatisticsStore.sentence_values_many``:
        BLEU's of one tokenization and smoothing at several orders). By
        default the whole variant."""
        return self.fingerprint

    def statistics_key(self) -> Hashable:
        """What this variant's per-segment statistics depend on, as
        resampling rows (``row``, ``from_row``): variants of equal keys
        have the same rows, and the same sums of any of them (a resample's,
        a trial's), whatever scores them. By default the whole variant."""
        return self.fingerprint

    @abstractmethod
    def new_store(
        self, metrics: Sequence[Any], systems: int, per_segment: bool
    ) -> StatisticsStore[S]:
        """A store for ``systems`` systems under ``metrics`` (this one and
        those of the same key); ``per_segment``: keep each segment's
        statistics, else only sums."""

    @abstractmethod
    def sentence_results(self, segments: Sequence[S], per_segment: Sequence[int]) -> list[R]:
        """One result per segment from its statistics and its number of
        references (a batch: scored at once where the metric can)."""

    def partial_stats(self, total: S) -> S:
        """What a partial keeps of summed statistics."""
        return total

    # ------------------------------------------------------------ scoring

    def batch_lines(self) -> int:
        """How many segments of each file to read at a time: the engine's
        batch. (A metric whose statistics need the whole corpus keeps its
        chunks in its store until they are asked for.)"""
        return self.engine.batch_lines()

    def check_partitioned(self) -> None:
        """An ``InputError`` where statistics of parts of a corpus do not
        merge (executors and map-reduce check before they partition)."""
        if self.whole_corpus:
            raise InputError(
                f"{self.name} cannot be scored in parts: {self.whole_corpus}, so the "
                "statistics of parts of a corpus do not add up to the corpus's; score "
                "the whole corpus in one call"
            )

    def sum_stats(self, stats: Iterable[S]) -> S:
        """Segments' statistics summed, in order (``add_stats`` from
        ``zero_stats``)."""
        return functools.reduce(self.add_stats, stats, self.zero_stats())

    def score_sums(
        self, cols: Columns, rows: Sequence[Any], other: Sequence[Any] | None = None
    ) -> list[float]:
        """The scores of summed statistics given as flat rows of ``cols``'s
        width (plus the same rows of ``other``: two sides of a trial), each
        made statistics as ``cols.to_stats`` makes them."""
        if other is not None:
            rows = [x + y for x, y in zip(rows, other)]
        w = cols.width
        return self.score_values(cols.to_stats(rows[k : k + w]) for k in range(0, len(rows), w))

    def score_value(self, stats: S) -> float:
        """Only the score of (summed) statistics."""
        return self.score_values((stats,))[0]

    def corpus_score(self, hyps: Sequence[str], ref_streams: Any) -> R:
        """The corpus score. ``ref_streams`` is a list of reference streams,
        each aligned with ``hyps`` (as in sacrebleu); ``None`` marks a
        segment that has fewer references. Prepared references
        (``prepare_references``) are accepted too."""
        if no_segments(hyps):
            raise InputError("no segments to score (the hypotheses are empty)")
        total, nrefs = self.corpus_stats(hyps, ref_streams)
        return self.score_stats(total, nrefs)

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> R:
        """The score of one hypothesis against its references."""
        return self.corpus_score([hyp], sentence_references(refs))

    def sentence_scores(self, hyps: Sequence[str], ref_streams: Any) -> list[R]:
        """One sentence-level result per segment."""
        prepared = self.prepare_references(ref_streams)
        stats, _ = self.segment_stats(hyps, prepared)
        return self.sentence_results(stats, prepared.per_segment)

    def sentence_values(self, hyps: Sequence[str], ref_streams: Any) -> list[float]:
        """Only each segment's score, no result objects: the scores of
        ``sentence_scores``, bit for bit, where a metric has a faster way to
        them (BLEU: the engine's batch scorer)."""
        return [r.score for r in self.sentence_scores(hyps, ref_streams)]

    # ------------------------------------------------------- map-reduce

    def partial(
        self,
        hyps: Sequence[str],
        refs: Any,
        start: int | None = None,
        threads: int | None = None,
    ) -> Partial:
        """The exact statistics of these segments, to merge with other
        partitions' (``+``, ``sum``) and score (``score``). ``start``: the
        index of the first segment in the corpus (needed where the score
        reads the last segment); ``threads``: for this call."""
        self.check_partitioned()
        ordered = self.reads_last_segment
        end = None if start is None else start + len(hyps)
        if no_segments(hyps):
            # an empty partition: the neutral partial (no reference count)
            zero = self.zero_stats()
            return Partial(self.fingerprint, zero, frozenset(), 0, start, end, ordered)  # type: ignore[arg-type]
        with call_threads(threads):
            prepared = self.prepare_references(refs)
            total, _ = self.corpus_stats(hyps, prepared)
        counts = frozenset(prepared.per_segment)
        stats = self.partial_stats(total)
        return Partial(self.fingerprint, stats, counts, len(hyps), start, end, ordered)  # type: ignore[arg-type]

    def score(self, partial: Partial) -> R:
        """The corpus score of merged partial statistics."""
        if not isinstance(partial, Partial):
            raise InputError(
                f"score() takes a Partial (variant.partial(...)), not {type(partial).__name__}"
            )
        # checked again here: a partial's fields can be set after it was made
        validate(partial)
        if partial.fingerprint != self.fingerprint:
            raise InputError(
                f"these partial statistics are another variant's (fingerprint "
                f"{partial.fingerprint}), not {self.name}'s ({self.fingerprint})"
            )
        if not partial.segments:
            raise InputError("no segments to score (every partition was empty)")
        self.check_stats(partial.stats)
        return self.score_stats(partial.stats, partial.nrefs_label)  # type: ignore[arg-type]


#: a variant of any metric (in annotations: the statistics and result types
#: are the metric's own)
AnyMetric = Metric[Any, MetricResult]
