"""Which variant agrees best with people: every statistic of
``statistics`` for many metric variants against one set of human
judgements, with bootstrap intervals, the PERM-BOTH significance of the
difference between two variants, and significance clusters.

The data: the systems' per-segment statistics under every variant (one
counting pass per tokenization, ``corpus.systems.SystemStatistics``) and
the judgements of the same systems. Only the segments rated for every
system are used, by the metric and by the humans alike: a system's metric
score is its corpus score over those segments, its human score their mean.
Scores are oriented so that higher is better (TER and penalties negated).

* System level: each statistic of the metric's and the humans' system
  scores; soft pairwise accuracy from one-sided paired permutation tests
  of every pair of systems, the humans' over their segment scores, the
  metric's by approximate randomization of its corpus statistics (the
  same draws for both).
* Segment level: the sentence scores of ``Metric.sentence_variant`` (a
  BLEU without smoothing scores most sentences 0: sacrebleu's
  ``sentence_bleu`` settings stand in, and the output names them), WMT's
  Kendall-like tau and acc_eq in the three groupings, acc_eq with tie
  calibration by item.
* Intervals: percentile intervals over bootstrap resamples of the segments
  (the same resamples for every variant), for the system-level statistics
  and the segment-level ones: grouped by item (per item, at the epsilon
  calibrated on all of them), by system and not grouped (at epsilon 0,
  each resample's pairs counted again, repeats included); every
  tie-calibrated acc_eq at the epsilon calibrated on all the data.
* PERM-BOTH (Deutsch et al. 2021, "A Statistical Analysis of Summarization
  Evaluation Metrics using Resampling Methods"; as mt-metrics-eval's
  ``PermutationSigDiff``): both variants' scores z-normalized, then per
  trial every score swapped between them with probability 1/2; the p-value
  that the better variant is better is the share of trials whose
  difference reaches the observed one. For the system-level correlations
  and accuracy (the cells are the systems), the segment-level statistics
  grouped by item at epsilon 0 (the cells are the segments), Kendall-like
  tau and acc_eq not grouped and by system, whose trials are signed sums
  of per-cell weights (``item_p_values``, ``pooled_p_values``), and acc_eq tie-calibrated
  by item, calibrated again in every trial (``perm_both_calibrated``).
  acc_eq tie-calibrated not grouped or by system is tested by swapping
  pair outcomes at each variant's own epsilon (``pairwise_calibrated``).
* What a delta means (Kocmi et al. 2024, ``delta``): per tested variant,
  the accuracy of "A beats B" as a function of the metric delta, fitted to
  the pairs of systems.
* Clusters: per statistic, the variants in order of their value, a new
  cluster starting at a variant that one in the current cluster beats
  with p <= alpha (mt-metrics-eval's ``AssignRanks``).
"""

from __future__ import annotations

import itertools
import math
import operator
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..core.errors import InputError
from ..core.reflen import RefLength
from ..core.resampling import Columns, Draws, FlatResamples
from ..core.results import DeltaAccuracy
from ..corpus.systems import SystemStatistics
from ..engines import call_threads, ordered_map, workers
from ..io.progress import advance, stage
from ..metrics.base import AnyMetric
from ..significance.paired import percentile_interval
from . import statistics as st
from .correlation import SYSTEM_STATISTICS
from .delta import fit, system_pairs
from .judgements import Judgements
from .kernels import MetaKernels, joined_ints, meta_kernels
from .pairs import ItemCounts, item_weights, rated
from .signflip import weighted_sign_flips
from .williams import items_needed, williams_p

#: the system-level statistics, by name
SYSTEM: dict[str, Callable[[st.Vector, st.Vector], float]] = SYSTEM_STATISTICS
#: soft pairwise accuracy, which needs permutation tests (no interval)
SPA = "soft_pairwise_accuracy"
#: the segment-level statistics, by name (``tie_epsilon``: the calibrated
#: epsilon of ``acc_eq_item_calibrated``, not a statistic to rank by)
SEGMENT = (
    "kendall_like_item",
    "kendall_like_none",
    "kendall_like_system",
    "acc_eq_item",
    "acc_eq_none",
    "acc_eq_system",
    "acc_eq_item_calibrated",
)
#: the groupings whose acc_eq is tie-calibrated on request
#: (``Settings.calibrate``; by item it always is): their sweeps see every
#: pair of each system's segments (15 systems x 1,000 segments: 7.5
#: million) or of all the scores (113 million)
CALIBRATED = ("none", "system")
#: the segment-level statistics over every pair of a vector (not grouped,
#: or of each system) that PERM-BOTH tests as sums of cell weights
POOLED_TESTED = ("kendall_like_none", "kendall_like_system", "acc_eq_none", "acc_eq_system")
#: the statistics PERM-BOTH tests and clusters rank (with the tie-calibrated
#: acc_eq of the groupings a study calibrates: ``Settings.tested_statistics``)
TESTED = (*SYSTEM, "kendall_like_item", "acc_eq_item", *POOLED_TESTED, "acc_eq_item_calibrated")
#: the test of each statistic's significance (``TEST_NAMES``): PERM-BOTH;
#: for acc_eq tie-calibrated by item, PERM-BOTH calibrating again in every
#: trial; not grouped and by system, mt-metrics-eval's pairwise permutation
#: test, exact (``pairwise_calibrated``)
TEST_NAMES = {
    "perm-both": "PERM-BOTH (Deutsch et al. 2021)",
    "perm-both-recalibrated": "PERM-BOTH, tie calibration run again in every trial",
    "pairwise-permutation": "pair outcomes swapped at each variant's own epsilon "
    "(mt-metrics-eval's PairwisePermutationSigDiff), exact p-value",
    "williams": "the Williams test of dependent correlations (Graham & Baldwin 2014; "
    "mt-metrics-eval's WilliamsSigDiff), one-sided",
}

#: how soft pairwise accuracy tests that one system beats another by the
#: metric: ``corpus``, approximate randomization of its corpus statistics
#: (the corpus score of each side's segments, what a BLEU paper reports);
#: ``segments``, a paired permutation test of its segment scores' mean, as
#: the humans' (Thompson et al. 2024's ``pce``, mt-metrics-eval's
#: ``PairwiseConfidenceError``). The humans' side is the same in both.
SPA_MODES = ("corpus", "segments")
#: each way in words, as the outputs state it
SPA_TESTS = {
    "corpus": "approximate randomization of the metric's corpus statistics",
    "segments": "a paired permutation test of the mean of the metric's segment scores "
    "(mt-metrics-eval's PairwiseConfidenceError)",
}

#: the segment-level correlations a study computes on request
#: (``Settings.correlations``): each of ``statistics.SEGMENT_CORRELATIONS``
#: in each grouping, named ``CORRELATION_GROUPING``
CORRELATIONS = tuple(f"{name}_{by}" for name in st.SEGMENT_CORRELATIONS for by in st.GROUPINGS)

#: which segments a study uses (its protocol): ``common``, those rated for
#: every system (the metric's scores and the humans' on the same segments
#: for every system); ``rated``, each system on its own rated segments (its
#: corpus score and its human mean over them, its sentence scores there;
#: pairs of cells count where both are rated: DA campaigns rate each system
#: on other documents); ``wmt``, the WMT metrics task's and mt-metrics-eval's
#: protocol: each system's metric score on the whole test set, its human
#: score the mean of its rated segments, the segment level on rated cells
SEGMENT_MODES = ("common", "rated", "wmt")
#: ``Settings.segments`` before a study resolves it (``resolve_segments``):
#: ``common`` where every system is rated on the same segments, else ``wmt``
AUTO = "auto"
#: each protocol in one line, as every output states it
PROTOCOLS = {
    "common": "the segments rated for every system, for the metric and the humans alike",
    "rated": "each system on its own rated segments, for the metric and the humans alike",
    "wmt": "WMT's (mt-metrics-eval's): each system's metric score on the whole test set, its "
    "human score the mean of its rated segments; segment level on the rated segments",
}

DEFAULT_SAMPLES = 1000
DEFAULT_TRIALS = 1000
DEFAULT_SEED = 12345
ALPHA = 0.05


@dataclass(frozen=True)
class Settings:
    """How a study resamples: ``samples`` bootstrap resamples (0: no
    intervals), ``trials`` permutation trials (0: no soft pairwise accuracy
    and no PERM-BOTH), ``seed``, the interval's ``level``, and the human
    difference below which WMT's Kendall-like tau skips a pair
    (``threshold``: 25 for DA's 0-100 scale, WMT's DARR; 0 skips only
    ties), and the other groupings whose acc_eq is tie-calibrated too
    (``calibrate``, of ``CALIBRATED``; grouped by item it always is)."""

    samples: int = DEFAULT_SAMPLES
    trials: int = DEFAULT_TRIALS
    seed: int = DEFAULT_SEED
    level: float = 0.95
    threshold: float = 0.0
    calibrate: tuple[str, ...] = ()
    #: which segments (``SEGMENT_MODES``, or ``AUTO``): those rated for every
    #: system, each system's own rated ones, or WMT's protocol
    segments: str = AUTO
    #: segment-level correlations to compute too, as mt-metrics-eval's
    #: (``CORRELATIONS``: ``pearson_none``, ``kendall_b_item``...): point
    #: values, without intervals or tests
    correlations: tuple[str, ...] = ()
    #: how soft pairwise accuracy tests the metric's side (``SPA_MODES``)
    spa: str = "corpus"

    def segment_statistics(self) -> tuple[str, ...]:
        """The segment-level statistics a study with these settings has."""
        return (*SEGMENT, *self._calibrated(), *self.correlations)

    def tested_statistics(self) -> tuple[str, ...]:
        """The statistics whose significance a study with these settings
        tests."""
        return (*TESTED, *self._calibrated())

    def _calibrated(self) -> tuple[str, ...]:
        return tuple(f"acc_eq_{by}_calibrated" for by in CALIBRATED if by in self.calibrate)

    def check(self) -> None:
        if self.samples < 0 or self.trials < 0:
            raise InputError("samples and trials must be 0 or more")
        if not 0 < self.level < 1:
            raise InputError(f"confidence level {self.level}: expected a number in (0, 1)")
        if not (math.isfinite(self.threshold) and self.threshold >= 0):  # NaN compares False
            raise InputError(f"threshold {self.threshold}: expected a finite number, 0 or more")
        if self.segments not in (*SEGMENT_MODES, AUTO):
            modes = ", ".join((*SEGMENT_MODES, AUTO))
            raise InputError(f"segments {self.segments!r}: expected one of {modes}")
        if self.spa not in SPA_MODES:
            raise InputError(f"spa {self.spa!r}: expected {' or '.join(SPA_MODES)}")
        for name in self.correlations:
            if name not in CORRELATIONS:
                raise InputError(
                    f"correlation {name!r}: expected one of {', '.join(CORRELATIONS)} (or all)"
                )
        for by in self.calibrate:
            if by not in CALIBRATED:
                raise InputError(
                    f"calibrate {by!r}: expected {' or '.join(CALIBRATED)} (by item it always is)"
                )


@dataclass(frozen=True)
class VariantResult:
    """One variant's statistics (``system``, ``segment``: name to value,
    NaN where undefined), their intervals (name to (low, high)), the
    calibrated tie epsilon (by item; of the other groupings where asked),
    and its oriented system and sentence scores."""

    name: str
    signature: str
    sentence_variant: str
    higher_is_better: bool
    system_scores: tuple[float, ...]
    system: dict[str, float]
    segment: dict[str, float]
    epsilon: float
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: what a delta of this variant means to the humans (tested variants)
    delta: DeltaAccuracy | None = None
    #: the calibrated epsilons of acc_eq's other groupings (where asked)
    epsilons: dict[str, float] = field(default_factory=dict)

    def value(self, statistic: str) -> float:
        return self.system[statistic] if statistic in self.system else self.segment[statistic]


def _epsilons(v: VariantResult) -> dict[str, float]:
    """The JSON's ``tie_epsilon_none`` and ``tie_epsilon_system``, where the
    study calibrated them."""
    return {f"tie_epsilon_{by}": x for by, x in v.epsilons.items()}


@dataclass(frozen=True)
class Significance:
    """The significance of one statistic's differences: the variants
    (indices) in order of their value, p[a][b] the p-value that variant a
    is better than b (where a ranks above b), each variant's cluster (1 =
    the best), and the test (of ``TEST_NAMES``)."""

    statistic: str
    order: tuple[int, ...]
    p: dict[tuple[int, int], float]
    clusters: tuple[int, ...]
    test: str = "perm-both"
    #: why the statistic has no test and no clusters ("": it has)
    untested: str = ""


@dataclass(frozen=True)
class Study:
    judgements: str
    systems: tuple[str, ...]
    human_scores: tuple[float, ...]
    segments: int
    test_set: int
    settings: Settings
    variants: tuple[VariantResult, ...]
    significance: tuple[Significance, ...]
    #: the variants (indices) with intervals, soft pairwise accuracy and tests
    tested: tuple[int, ...] = ()
    #: what a reader must know to read the values: why some are undefined,
    #: what a study this small cannot tell (one line each)
    notes: tuple[str, ...] = ()
    #: the Williams test of system-level Pearson's r between the tested
    #: variants, beside PERM-BOTH (``williams_test``); None where not run
    williams: Significance | None = None

    def to_frame(self) -> Any:
        """The study as a pandas DataFrame, a row per variant: its name,
        signature and whether it was tested, every statistic (NaN where
        undefined), each interval's bounds (``STAT_low``, ``STAT_high``) and
        cluster (``STAT_cluster``, 0 where untested). Needs
        ``bleukit[pandas]``."""
        from ..core.dataframes import data_frame

        clusters = {s.statistic: s.clusters for s in self.significance if not s.untested}
        names = (*SYSTEM, SPA, *self.settings.segment_statistics())
        rows = []
        for i, v in enumerate(self.variants):
            row: dict[str, Any] = {"variant": v.name, "signature": v.signature,
                                   "tested": i in self.tested}  # fmt: skip
            for name in names:
                row[name] = v.value(name)
                low, high = v.intervals.get(name, (st.nan, st.nan))
                row[f"{name}_low"], row[f"{name}_high"] = low, high
                row[f"{name}_cluster"] = clusters[name][i] if name in clusters else 0
            rows.append(row)
        return data_frame(rows)

    def best(self, statistic: str) -> VariantResult | None:
        """The variant with the highest value of a statistic (the first of
        equals), None where no variant has one."""
        scored = [v for v in self.variants if not math.isnan(v.value(statistic))]
        return max(scored, key=lambda v: v.value(statistic)) if scored else None

    def to_dict(self) -> dict[str, Any]:
        """The study as strict JSON holds it: an undefined value (NaN) is
        null, and ``notes`` and ``untested`` say why."""

        def number(x: float) -> float | None:
            return None if math.isnan(x) else x

        sig = {s.statistic: s for s in self.significance}
        return {
            "judgements": self.judgements,
            "systems": list(self.systems),
            "human_system_scores": list(self.human_scores),
            "segments": self.segments,
            "test_set_segments": self.test_set,
            "settings": vars(self.settings),
            "protocol": PROTOCOLS[self.settings.segments],
            "variants": [
                {
                    "name": v.name,
                    "signature": v.signature,
                    "sentence_variant": v.sentence_variant,
                    "system_scores": list(v.system_scores),
                    "system": {k: number(x) for k, x in v.system.items()},
                    "segment": {k: number(x) for k, x in v.segment.items()},
                    "tie_epsilon": v.epsilon,
                    **_epsilons(v),
                    "tested": i in self.tested,
                    "intervals": {
                        k: [number(x) for x in lo_hi] for k, lo_hi in v.intervals.items()
                    },
                    "delta_accuracy": None if v.delta is None else v.delta.to_dict(),
                    "clusters": {name: s.clusters[i] for name, s in sig.items() if s.clusters[i]},
                }
                for i, v in enumerate(self.variants)
            ],
            "best": {
                name: best.name
                for name in (*SYSTEM, SPA, *self.settings.segment_statistics())
                if (best := self.best(name)) is not None
            },
            "significance": {
                s.statistic: [
                    {"better": self.variants[a].name, "worse": self.variants[b].name, "p": p}
                    for (a, b), p in sorted(s.p.items())
                ]
                for s in self.significance
                if not s.untested
            },
            # per tested statistic, the variants of its first cluster: all of
            # the tested ones where the study separates none of them
            "first_cluster": {
                s.statistic: [self.variants[k].name for k in s.order if s.clusters[k] == 1]
                for s in self.significance
                if not s.untested
            },
            "significance_tests": {
                s.statistic: s.test for s in self.significance if not s.untested
            },
            "untested": {s.statistic: s.untested for s in self.significance if s.untested},
            "williams": None if self.williams is None else self._williams(),
            "notes": list(self.notes),
        }

    def _williams(self) -> dict[str, Any]:
        w = self.williams
        assert w is not None
        return {
            "statistic": w.statistic,
            "pairs": [
                {"better": self.variants[a].name, "worse": self.variants[b].name, "p": p}
                for (a, b), p in sorted(w.p.items())
            ],
            "clusters": {self.variants[k].name: c for k, c in enumerate(w.clusters) if c},
        }


# ------------------------------------------------------------------ inputs


def common_segments(judgements: Judgements, systems: Sequence[str]) -> list[int]:
    """The 0-based segments rated for every system."""
    shared = set(judgements.rated(systems[0]))
    for system in systems[1:]:
        shared &= set(judgements.rated(system))
    if not shared:
        raise InputError(
            f"{judgements.source}: no segment is rated for every system (--segments rated "
            "scores each system on its own rated segments)"
        )
    return sorted(shared)


def resolve_segments(judgements: Judgements, systems: Sequence[str], mode: str) -> str:
    """The protocol of ``mode`` (of ``SEGMENT_MODES``, or ``AUTO``): AUTO is
    ``common`` where every system is rated on the same segments (MQM), else
    ``wmt`` (a DA campaign rating each system on other documents, where
    ``common`` would keep few segments and reorder the humans' ranking)."""
    if mode != AUTO:
        return mode
    first = set(judgements.rated(systems[0]))
    return "common" if all(set(judgements.rated(s)) == first for s in systems[1:]) else "wmt"


def study_segments(
    judgements: Judgements, systems: Sequence[str], mode: str, test_set: int
) -> list[int]:
    """The 0-based segments a study reads (``SEGMENT_MODES``): those rated
    for every system; those rated for any (every system rated on one at
    least); or, WMT's, all ``test_set`` of them (every system rated on one
    at least)."""
    if mode == "common":
        return common_segments(judgements, systems)
    anyone: set[int] = set()
    for system in systems:
        own = judgements.rated(system)
        if not own:
            raise InputError(f"{judgements.source}: {system} has no rated segment")
        anyone.update(own)
    return list(range(test_set)) if mode == "wmt" else sorted(anyone)


def _score(score: float | None) -> float:
    """A human score, NaN where the segment is not rated."""
    return st.nan if score is None else score


def _mean_rated(values: Sequence[float]) -> float:
    """The mean of the rated (not NaN) values."""
    kept = [x for x in values if not math.isnan(x)]
    return math.fsum(kept) / len(kept) if kept else st.nan


def _sign(variant: AnyMetric) -> float:
    return 1.0 if variant.higher_is_better else -1.0


@dataclass(frozen=True)
class _Scores:
    """One variant's oriented scores on the common segments."""

    system: list[float]
    sentences: st.Matrix

    @cached_property
    def cells(self) -> array[float]:
        """The sentence scores z-normalized, system after system: PERM-BOTH's
        cells, made once for every test of the variant (float64: a pair's
        kernels copy a system's slice as it is, not value by value)."""
        return array("d", zscores(self.sentences))


def _own(segments: Sequence[int], human_row: Sequence[float]) -> list[int]:
    """The segments (of the test set) a system is rated on, of the study's."""
    return [i for i, h in zip(segments, human_row) if not math.isnan(h)]


def _unrated(human_row: Sequence[float]) -> list[int]:
    """The positions, among the study's segments, a system is not rated on."""
    return list(itertools.compress(range(len(human_row)), map(math.isnan, human_row)))


class _Sentences:
    """The sentence scores of a measuring pass over ``variants``: where
    several variants' sentence variants share a ``Metric.sentence_batch_key``
    (a BLEU grid's of one tokenization and smoothing at every order), a
    system's are made for all of them at once (one pass of the kernel per
    table, the logarithms shared from one order to the next) and each
    handed out as often as the pass asks for it, then dropped."""

    def __init__(self, stats: SystemStatistics, variants: Sequence[AnyMetric]) -> None:
        self._stats = stats
        sentences = [v.sentence_variant() for v in variants]
        #: how often the pass asks for each sentence variant (of each system)
        self._asked = Counter(s.fingerprint for s in sentences)
        self._batches: dict[Any, dict[str, AnyMetric]] = {}
        for s in sentences:
            self._batches.setdefault(s.sentence_batch_key(), {})[s.fingerprint] = s
        #: (fingerprint, system): the values and how often they are still
        #: wanted (float64, as the engine makes them or made so: a grid's
        #: waiting values as lists took 50 MB)
        self._made: dict[tuple[str, str], tuple[Sequence[float], int]] = {}

    def values(self, sentence: AnyMetric, system: str) -> Sequence[float]:
        key = (sentence.fingerprint, system)
        batch = self._batches.get(sentence.sentence_batch_key(), {})
        if key not in self._made and sentence.fingerprint in batch and len(batch) > 1:
            members = list(batch.values())
            for member, made in zip(members, self._stats.sentence_values_many(members, system)):
                wanted = self._asked[member.fingerprint]
                kept = made if isinstance(made, array) else array("d", made)
                self._made[member.fingerprint, system] = kept, wanted
        if key not in self._made:
            return self._stats.sentence_values(sentence, system)
        values, wanted = self._made.pop(key)
        if wanted > 1:
            self._made[key] = values, wanted - 1
        return values


def _variant_scores(
    variant: AnyMetric,
    stats: SystemStatistics,
    segments: Sequence[int],
    unrated: Sequence[Sequence[int]],
    own: Sequence[Sequence[int]],
    whole: bool,
    batched: _Sentences | None = None,
) -> _Scores:
    """Each system's corpus score over its rated segments (``own``, of
    ``_own``), or over all of them (``whole``: WMT's protocol), and its
    sentence scores on its rated ones (NaN at its ``unrated`` positions,
    of ``_unrated``: found once a study, not once a variant)."""
    sign = _sign(variant)
    sentence = variant.sentence_variant()
    # the study's segments are sorted: all of them are the test set itself
    test_set = len(segments) == stats.segments
    system, sentences = [], []
    for name, gaps, rows in zip(stats.systems, unrated, own):
        # the whole test set's sums are the store's (a study reads them all),
        # also where the system is rated on every segment of it
        every = whole or len(rows) == stats.segments
        total = stats.total(variant, name) if every else stats.subtotal(variant, name, rows)
        system.append(sign * variant.score_stats(total, stats.nrefs).score)
        values: Sequence[float] = (stats.sentence_values(sentence, name) if batched is None
                                   else batched.values(sentence, name))  # fmt: skip
        # (mapped, not a comprehension: a grid makes thousands of these rows;
        # x * 1.0 is x, so a higher-is-better variant's are copied as they are)
        picked = values if test_set else map(values.__getitem__, segments)
        # float64, as the kernels read it (each variant's matrix is read
        # by several)
        oriented = array("d", picked if sign == 1.0 else
                         map(operator.mul, itertools.repeat(sign), picked))  # fmt: skip
        for k in gaps:
            oriented[k] = st.nan
        sentences.append(oriented)
    return _Scores(system, sentences)


def _columns(
    variant: AnyMetric,
    stats: SystemStatistics,
    segments: Sequence[int],
    human: st.Matrix,
    whole: bool,
) -> list[Columns]:
    """Each system's resampling columns of the study's segments (a tested
    variant's tests and intervals), a row of zeros where it is not rated:
    a resample sums the system's rated segments only; under WMT's protocol
    (``whole``) every segment, as its score is the whole test set's."""
    if whole:
        return [stats.columns(variant, name) for name in stats.systems]
    return [stats.columns_of(variant, name, [None if math.isnan(h) else i
                                             for i, h in zip(segments, row)])
            for name, row in zip(stats.systems, human)]  # fmt: skip


def _resampled_means(human: st.Matrix, resamples: _Resamples) -> list[list[float]]:
    """Per system, the mean of its rated scores in each resample (NaN where
    it has none there), as exact sums."""
    exact = []
    for row in human:
        exact.append(_ExactSums([0.0 if math.isnan(x) else x for x in row]))
        exact.append(_ExactSums([0.0 if math.isnan(x) else 1.0 for x in row]))
    totals = resamples.totals(exact)
    return [_ratios(totals[k], totals[k + 1]) for k in range(0, len(totals), 2)]


def _ratios(numerators: Sequence[float], denominators: Sequence[float]) -> list[float]:
    """Each resample's quotient of its sums (NaN where the denominator's is 0)."""
    return list(map(_quotient, numerators, denominators))


@dataclass(frozen=True)
class _Resamples:
    """The bootstrap resamples of the study's segments (repeats kept), in
    one int32 array that every variant's exact sums gather from
    (``MetaKernels.gathered_sums``)."""

    flat: FlatResamples
    kernels: MetaKernels

    def totals(self, exact: Sequence[_ExactSums]) -> list[list[float]]:
        """Per exact sum, its ``total`` in each resample: every one's limbs
        gathered in one pass."""
        limbs = [e.limbs() for e in exact]
        if not self.flat.positions:
            return [[] for _ in exact]
        flat_limbs = [x for ls in limbs for x in ls]
        sums = self.kernels.gathered_sums(flat_limbs, self.flat.positions, self.flat.per)
        out, k = [], 0
        for e, ls in zip(exact, limbs):
            out.append([e.from_limbs(row[k : k + len(ls)]) for row in sums])
            k += len(ls)
        return out


# ----------------------------------------------------------- the statistics


def _calibrated(
    metric: st.Matrix, human: st.Matrix, by: str, kernels: MetaKernels
) -> tuple[float, float]:
    """acc_eq with tie calibration, and its epsilon, grouped by system (the
    kernels' item pairs of the transposed matrices, whose items are the
    systems; every system has as many segments, so each weighs the same)
    or not grouped (``MetaKernels.pooled_calibration`` of all the scores)."""
    if by == "none":
        agreeing, pairs, epsilon = kernels.pooled_calibration(
            *rated([x for row in metric for x in row], [x for row in human for x in row])
        )
        return (agreeing / pairs if pairs else st.nan), epsilon
    counts, epsilon = kernels.item_pairs(
        [list(c) for c in zip(*metric)], [list(c) for c in zip(*human)], 0.0
    )
    return st.mean(c[7] / c[8] if c[8] else st.nan for c in counts), epsilon


def _segment_statistics(
    metric: st.Matrix, human: st.Matrix, settings: Settings, kernels: MetaKernels
) -> tuple[dict[str, float], float, dict[str, float], _ItemValues]:
    """Every segment-level statistic, the calibrated epsilons (by item; of
    the other groupings asked for, by grouping), and the item values
    (``_item_values``) the item-grouped ones come from; grouped by item from
    the kernels' pair counts (``MetaKernels.item_pairs``)."""
    threshold = settings.threshold
    counts, epsilon = kernels.item_pairs(metric, human, threshold)
    items = _item_values(counts)
    # all items' statistic: math.fsum's correctly rounded sums (the exact
    # sums' of every item, without scaling a variant's values that no
    # resample reads)
    out = {name: _quotient(math.fsum(numerators), math.fsum(denominators))
           for name, (numerators, denominators) in items.items()}  # fmt: skip
    for by in ("none", "system"):
        out.update(_grouped(by, kernels.grouped_pair_counts(metric, human, by), threshold))
    epsilons = {}
    for by in CALIBRATED:
        if by in settings.calibrate:
            out[f"acc_eq_{by}_calibrated"], epsilons[by] = _calibrated(metric, human, by, kernels)
    for name in settings.correlations:
        correlation, by = name.rsplit("_", 1)
        out[name] = st.segment_correlation(metric, human, correlation, by, kernels.pair_counts)
    names = settings.segment_statistics()
    return {k: out[k] for k in names}, epsilon, epsilons, items


def _grouped(by: str, pairs: Sequence[st.Pairs], threshold: float) -> dict[str, float]:
    """Kendall-like tau and acc_eq of a grouping (none, system) from its
    groups' pair counts. For tau a pair counts where the humans do not tie
    it, which is WMT's DARR rule at threshold 0 only (else NaN: the counts
    hold no human differences)."""
    return _grouped_rows(by, [p.row() for p in pairs], threshold)


def _grouped_rows(by: str, rows: Sequence[st.PairRow], threshold: float) -> dict[str, float]:
    """``_grouped`` of the groups' ``Pairs`` rows."""
    tau = st.nan
    if threshold == 0:
        tau = st.mean(
            (con - dis - tie_metric) / counted if (counted := con + dis + tie_metric) else st.nan
            for con, dis, tie_metric, _, _ in rows
        )
    return {f"kendall_like_{by}": tau, f"acc_eq_{by}": st.mean(map(st.row_acc_eq, rows))}


def _permutation_p_values(
    totals: Sequence[float], sides: Callable[[int, int], list[float]]
) -> list[list[float]]:
    """p[i][j] (i < j): the share of trials whose difference of i over j
    reaches the observed one; ``sides(i, j)``: the trials' differences."""
    n = len(totals)
    p = [[st.nan] * n for _ in range(n)]
    for i, j in itertools.combinations(range(n), 2):
        observed = totals[i] - totals[j]
        diffs = sides(i, j)
        p[i][j] = sum(d >= observed for d in diffs) / len(diffs)
    return p


def human_p_values(human: st.Matrix, draws: Draws, kernels: MetaKernels) -> list[list[float]]:
    """One-sided paired permutation p-values that system i beats j by the
    mean of its segment scores (Thompson et al. 2024's ``pce``): per trial
    each segment's two scores swapped where the trial's bit is set."""
    # per trial and system: the sum of its scores, each signed by the trial
    partial = list(zip(*(_ExactSums(scores).signed_trials(draws, kernels) for scores in human)))
    totals = [math.fsum(scores) for scores in human]

    def sides(i: int, j: int) -> list[float]:
        # side A keeps i's selected segments and takes j's others: A - B is
        # the signed sum of i's scores minus the signed sum of j's
        return [row[i] - row[j] for row in partial]

    return _permutation_p_values(totals, sides)


#: per system, its selected segments' sums and its others', trial after
#: trial (``MetaKernels.split_sums``)
_Split = tuple[Sequence[RefLength], Sequence[RefLength]]


def _splits(variant: AnyMetric, cols: Sequence[Columns], draws: Draws) -> list[_Split]:
    """Each system's ``split_sums`` of its columns over ``draws``."""
    kernels = meta_kernels(variant.engine)
    return [kernels.split_sums(c, draws) for c in cols]


def metric_p_values(
    variant: AnyMetric, cols: Sequence[Columns], system: Sequence[float], split: list[_Split]
) -> list[list[float]]:
    """The same test of corpus scores by approximate randomization, the
    same draws. Side A of a trial of systems i and j takes i's selected
    segments and j's others: per system, its selected and unselected sums
    are summed once (``split``, of ``_splits``), and each pair's sides are
    sums of those (``score_sums``)."""
    sign = _sign(variant)
    selected, others = [s for s, _ in split], [r for _, r in split]

    def sides(i: int, j: int) -> list[float]:
        a = variant.score_sums(cols[i], selected[i], others[j])
        b = variant.score_sums(cols[i], selected[j], others[i])
        return [sign * (x - y) for x, y in zip(a, b)]

    return _permutation_p_values(system, sides)


def _split_total(cols: Columns, split: _Split) -> Sequence[RefLength]:
    """The columns' sums: a trial's selected and other sums add up to them
    where the rows are integers (read from the first trial, not summed
    again: 2,790 columns of a rated grid took 2.4% of it), else summed."""
    selected, others = split
    if cols.rows is None or not selected:
        return cols.total()
    return [a + b for a, b in zip(selected[: cols.width], others[: cols.width])]


#: per pair of systems i < j, the study's segments (positions) rated for
#: both, and the draws of its paired tests over them
_PairTests = dict[tuple[int, int], tuple[list[int], Draws]]


def pair_tests(human: st.Matrix, settings: Settings) -> _PairTests:
    """Where systems are rated on different segments, each pair of systems
    is tested on the segments both are rated on, with draws of that many
    from the study's seed, the same for the humans and every variant; a
    pair rated on none in common is not tested."""
    out: _PairTests = {}
    for i, j in itertools.combinations(range(len(human)), 2):
        both = [k for k, (a, b) in enumerate(zip(human[i], human[j]))
                if not (math.isnan(a) or math.isnan(b))]  # fmt: skip
        if both:
            out[i, j] = both, Draws.from_seed(len(both), settings.trials, settings.seed)
    return out


def rated_human_p_values(
    human: st.Matrix, pairs: _PairTests, kernels: MetaKernels
) -> list[list[float]]:
    """``human_p_values`` of each pair of systems over its ``pair_tests``
    segments (NaN for a pair not tested)."""
    n = len(human)
    p = [[st.nan] * n for _ in range(n)]
    for (i, j), (both, draws) in pairs.items():
        pair = [[human[x][k] for k in both] for x in (i, j)]
        p[i][j] = human_p_values(pair, draws, kernels)[0][1]
    return p


def rated_metric_p_values(
    variants: Sequence[AnyMetric],
    stats: SystemStatistics,
    segments: Sequence[int],
    pairs: _PairTests,
) -> list[list[list[float]]]:
    """``metric_p_values`` of each pair of systems: its corpus scores and
    approximate randomization over its ``pair_tests`` segments; per variant
    of ``variants``, all of equal statistics (``Metric.statistics_key``),
    whose columns and trials' sums are made once for them all, a pair at a
    time."""
    first = variants[0]
    assert all(v.statistics_key() == first.statistics_key() for v in variants)
    names, n = stats.systems, len(stats.systems)
    out = [[[st.nan] * n for _ in range(n)] for _ in variants]
    for (i, j), (both, draws) in pairs.items():
        rows = [segments[k] for k in both]
        cols = [stats.columns_of(first, names[x], rows) for x in (i, j)]
        split = _splits(first, cols, draws)
        # the columns' sums are the subtotals (``StatisticsStore.subtotal``)
        totals = [c.to_stats(_split_total(c, s)) for c, s in zip(cols, split)]
        for variant, p in zip(variants, out):
            sign = _sign(variant)
            scores = [sign * variant.score_stats(t, stats.nrefs).score for t in totals]
            p[i][j] = metric_p_values(variant, cols, scores, split)[0][1]
    return out


def _once(made: dict[str, Any] | None, what: str, make: Callable[..., Any], *args: Any) -> Any:
    """``made[what]``, made as ``make(*args)`` the first time: what tested
    variants of equal statistics (``Metric.statistics_key``: a BLEU grid's
    variants that differ in their smoothing alone) make alike, their
    columns, their bootstrap resamples' sums and their trials' sums, made
    for the first of them and kept for the others (``run`` tests them
    grouped, each group's kept until the group is done). ``made`` None: a
    group of one variant, which keeps nothing."""
    if made is None:
        return make(*args)
    if what not in made:
        made[what] = make(*args)
    return made[what]


def _by_statistics(variants: Sequence[AnyMetric], tested: Sequence[int]) -> list[list[int]]:
    """The tested variants grouped by ``Metric.statistics_key``, in the
    order of each group's first."""
    groups: dict[Any, list[int]] = {}
    for k in tested:
        groups.setdefault(variants[k].statistics_key(), []).append(k)
    return list(groups.values())


def _intervals(
    variant: AnyMetric,
    columns: Sequence[Columns],
    sums: Sequence[Sequence[RefLength]],
    human_system: Sequence[Sequence[float]],
    item_values: _ItemValues,
    matrices: tuple[st.Matrix, st.Matrix],
    epsilons: dict[str, float],
    resamples: _Resamples,
    settings: Settings,
) -> dict[str, tuple[float, float]]:
    """Percentile intervals of the system-level statistics and of the
    segment-level ones over the segment resamples, each tie-calibrated
    acc_eq at the epsilon calibrated on all the data (``epsilons``: of the
    groupings none and system that were); grouped by system or not at all,
    from the resampled matrices' (metric, human) pair counts
    (``MetaKernels.resampled_pair_rows``). ``sums``: per system, its
    columns' sums in each resample (``Engine.bootstrap_rows``)."""
    sign = _sign(variant)
    kernels = meta_kernels(variant.engine)
    per_system = [[sign * x for x in variant.score_sums(c, rows)] for c, rows in zip(columns, sums)]
    # each resample's systems in a row (a resample without a rated segment
    # of some system has no value)
    metric = array("d", itertools.chain.from_iterable(zip(*per_system, strict=True)))
    human = array("d", itertools.chain.from_iterable(zip(*human_system, strict=True)))
    samples = {
        name: kernels.system_statistics(metric, human, len(per_system), name) for name in SYSTEM
    }
    indices = resamples.flat
    totals = resamples.totals([_ExactSums(v) for pair in item_values.values() for v in pair])
    for k, name in enumerate(item_values):
        samples[name] = _ratios(totals[2 * k], totals[2 * k + 1])
    for by in ("none", "system"):
        counts = kernels.resampled_pair_rows(*matrices, indices, by == "system")
        for groups in counts:
            for name, value in _grouped_rows(by, groups, settings.threshold).items():
                samples.setdefault(name, []).append(value)
        if by in epsilons:
            # at epsilon 0 the counts are those above
            at = counts if epsilons[by] == 0 else kernels.resampled_pair_rows(
                *matrices, indices, by == "system", epsilons[by])  # fmt: skip
            samples[f"acc_eq_{by}_calibrated"] = [st.mean(map(st.row_acc_eq, g)) for g in at]
    out = {}
    for name, values in samples.items():
        kept = [v for v in values if not math.isnan(v)]
        if kept:
            interval = percentile_interval(kept, settings.level)
            out[name] = (interval.low, interval.high)
    return out


def _quotient(numerator: float, denominator: float) -> float:
    """An item-grouped statistic from its sums (NaN with no pair)."""
    return numerator / denominator if denominator else st.nan


class _ExactSums:
    """Floats as integers over one power of two, so that the sum of any of
    them (with repeats: a bootstrap resample; signed: a permutation trial)
    is an exact integer sum, summed by the kernels in limbs, and its
    correctly rounded quotient by that power is ``math.fsum``'s value."""

    def __init__(self, values: Sequence[float]) -> None:
        ratios = [v.as_integer_ratio() for v in values]
        self._shift = max((d.bit_length() - 1 for _, d in ratios), default=0)
        self._scaled = [n << (self._shift - d.bit_length() + 1) for n, d in ratios]

    def limbs(self) -> list[list[int]]:
        """The scaled integers cut in limbs of 31 bits, the lowest first (all
        but the last non-negative): a kernel sums each within int64, and
        ``from_limbs`` adds the sums back exactly."""
        top = max((x.bit_length() for x in self._scaled), default=0) // _LIMB
        return [[x >> (_LIMB * k) if k == top else x >> (_LIMB * k) & _LIMB_MASK
                 for x in self._scaled] for k in range(top + 1)]  # fmt: skip

    def from_limbs(self, sums: Sequence[int]) -> float:
        """The float of a sum of the scaled integers given by its limbs' sums."""
        return sum(x << (_LIMB * k) for k, x in enumerate(sums)) / (1 << self._shift)

    def signed_trials(self, draws: Draws, kernels: MetaKernels) -> list[float]:
        """Per approximate-randomization trial of ``draws``, the sum of the
        values, each negated where the trial swaps it (``randomization_selections``'s
        0), from the kernels' ``batch_signed_trials`` of its limbs."""
        if not self._scaled:
            return [0.0] * draws.count
        # every limb over the same draws: one kernel pass
        sums = kernels.batch_signed_trials(self.limbs(), draws)
        return [self.from_limbs(trial) for trial in zip(*sums)]


#: the bits of a limb (``_ExactSums.limbs``)
_LIMB = 31
_LIMB_MASK = (1 << _LIMB) - 1


#: per item-grouped statistic, its items' numerators and denominators
_ItemValues = dict[str, tuple[list[float], list[float]]]


def _item_values(counts: Sequence[ItemCounts]) -> _ItemValues:
    """Per item (segment), from its pair counts (``MetaKernels.item_pairs``), the
    numerator and denominator of each item-grouped statistic, so that the
    statistic of any items, a resample's among them, is the exact sum of
    their numerators over that of their denominators (``_ExactSums``): the
    pooled Kendall-like tau, and the mean of acc_eq (each item with pairs
    weighing 1), at epsilon 0 and at the calibrated epsilon."""
    ones = [1.0 if c[8] else 0.0 for c in counts]
    return {
        "kendall_like_item": ([float(c[5] - c[6]) for c in counts],
                              [float(c[5] + c[6]) for c in counts]),
        "acc_eq_item": ([(c[0] + c[4]) / c[8] if c[8] else 0.0 for c in counts], ones),
        "acc_eq_item_calibrated": ([c[7] / c[8] if c[8] else 0.0 for c in counts], ones),
    }  # fmt: skip


# ------------------------------------------------------------- PERM-BOTH


def _zscore(values: Sequence[float]) -> list[float]:
    """(x - mean) / population standard deviation (scipy's ``zscore``) of
    the values that are not NaN (those stay NaN: unrated cells); a constant
    vector becomes zeros."""
    kept = [x for x in values if not math.isnan(x)]
    n = len(kept)
    mu = math.fsum(kept) / n if n else 0.0
    sd = math.sqrt(math.fsum((x - mu) ** 2 for x in kept) / n) if n else 0.0
    return [x if math.isnan(x) else (x - mu) / sd if sd else 0.0 for x in values]


def perm_both_system(
    a: Sequence[float],
    b: Sequence[float],
    human: Sequence[float],
    statistic: str,
    draws: Draws,
    kernels: MetaKernels,
) -> float:
    """PERM-BOTH of a system-level statistic: the p-value that variant b
    correlates better than variant a, their scores z-normalized (``draws``:
    one trial per draw, one cell per system; the trials counted by the
    kernels' ``system_swaps``)."""
    return kernels.system_swaps(_zscore(a), _zscore(b), human, statistic, draws) / draws.count


def zscores(matrix: st.Matrix) -> list[float]:
    """A variant's sentence scores z-normalized over all its cells, system
    after system: PERM-BOTH's cells (``item_p_values``, ``pooled_p_values``)."""
    return _zscore(list(itertools.chain(*matrix)))


def _swap_kind(statistic: str) -> str:
    """The pairs a segment-level statistic at epsilon 0 counts
    (``pairs.SWAP_KINDS``): WMT's DARR pairs for Kendall-like tau, every
    pair for acc_eq."""
    return "darr" if statistic.startswith("kendall_like") else "acc_eq"


def item_p_values(
    cells: Sequence[Sequence[float]],
    pairs: Sequence[tuple[int, int]],
    human: st.Matrix,
    statistic: str,
    threshold: float,
    draws: Draws,
    kernels: MetaKernels,
) -> list[float]:
    """PERM-BOTH of an item-grouped statistic that sums over pairs at
    epsilon 0 (Kendall-like tau, acc_eq) for each pair (a, b) of the
    variants' ``zscores`` (``cells``): the p-value that b is better than a;
    ``draws``: one trial per draw, one cell per system and segment. Every
    pair's trials, summed over each item's pair tables, come from one call
    (``MetaKernels.pair_swap_trials``); NaN where no pair of cells counts."""
    kind = _swap_kind(statistic)
    trials = kernels.pair_swap_trials(cells, human, pairs, kind, threshold, draws)
    # the observed difference: no cell swapped (an integer sum, exactly)
    return [st.nan if t is None else sum(x >= t[0] for x in t[1]) / len(t[1]) for t in trials]


def _rows(flat: Sequence[float], human: st.Matrix) -> list[Sequence[float]]:
    """Flat cells, system after system, as a system x item matrix."""
    items = len(human[0])
    return [flat[s * items : (s + 1) * items] for s in range(len(human))]


def perm_both_calibrated(
    flat_a: Sequence[float], flat_b: Sequence[float], human: st.Matrix, draws: Draws,
    kernels: MetaKernels, observed: int | None = None,
) -> float:  # fmt: skip
    """PERM-BOTH of acc_eq tie-calibrated by item, from the variants'
    ``zscores``: each trial's swapped scores calibrated again, each on its
    own (``MetaKernels.calibrated_swap_sums``), as mt-metrics-eval's
    ``PermutationSigDiff`` of ``KendallWithTiesOpt`` does (there with a
    sample of the epsilons; here every one). The differences are counts of
    agreeing pairs (each weighing the least common multiple of the items'
    pair counts over its item's), compared exactly; the observed one is the
    z-scores' own (``calibrated_agreement``'s difference; ``observed``
    where the caller made it)."""
    za, zb = _rows(flat_a, human), _rows(flat_b, human)
    if observed is None:
        observed = calibrated_agreement(flat_b, human, kernels) - calibrated_agreement(
            flat_a, human, kernels
        )
    sums = kernels.calibrated_swap_sums(draws, za, zb, human)
    return sum(x >= observed for x in sums) / len(sums) if sums else st.nan


def calibrated_agreement(flat: Sequence[float], human: st.Matrix, kernels: MetaKernels) -> int:
    """A variant's pairs agreeing under acc_eq tie-calibrated by item, from
    its ``zscores``, each item's weighed as ``perm_both_calibrated``'s trials
    weigh them (``item_weights``): made once a variant, for all its pairs."""
    counts = kernels.item_pairs(_rows(flat, human), human, 0.0)[0]
    return sum(c[7] * w for c, w in zip(counts, item_weights(human)))


def pairwise_calibrated(
    a: tuple[st.Matrix, float],
    b: tuple[st.Matrix, float],
    human: st.Matrix,
    by: str,
    draws: Draws,
    kernels: MetaKernels,
) -> float:
    """The significance of tie-calibrated acc_eq not grouped or by system,
    each variant (its oriented sentence scores and calibrated epsilon) at
    its own epsilon: mt-metrics-eval's ``PairwisePermutationSigDiff``, which
    swaps the two variants' outcomes of each pair by a fair coin, so that
    no trial calibrates again (on 15 x 1,000 scores one calibration sees up
    to 113 million pairs). Only the pairs where one variant agrees and the
    other does not (``MetaKernels.pair_disagreements``) move a trial, each by
    one over its group's pairs: where every group has as many (common
    segments), the p-value that b is better is the binomial tail of b's
    wins over a's, exactly, where mt-metrics-eval estimates it from its
    trials (``weighted_sign_flips``; by trials where the groups differ)."""
    (ma, eps_a), (mb, eps_b) = a, b
    terms = []
    for (row_a, row_h), (row_b, _) in zip(st.groups(ma, human, by), st.groups(mb, human, by)):
        kept_a, kept_h = rated(row_a, row_h)
        kept_b, _ = rated(row_b, row_h)
        wins, losses = kernels.pair_disagreements(kept_a, kept_b, kept_h, eps_a, eps_b)
        terms.append((wins, losses, len(kept_h) * (len(kept_h) - 1) // 2))
    return weighted_sign_flips(terms, draws)


def system_draws(draws: Draws, systems: int, items: int) -> list[Draws]:
    """Kendall-like tau by system's trials: per system, draws of its own
    (seeded from ``draws``'s generator, one after the other), so that each
    system's signed sums come from the approximate-randomization kernel
    over its cells alone; every cell is still swapped by a fair coin of its
    own in every trial."""
    rng = draws.rng()
    return [Draws.from_seed(items, draws.count, rng.getrandbits(64)) for _ in range(systems)]


def pooled_p_values(
    cells: Sequence[Sequence[float]],
    pairs: Sequence[tuple[int, int]],
    human: st.Matrix,
    statistic: str,
    threshold: float,
    draws: Draws,
    kernels: MetaKernels,
    weights: Sequence[Sequence[Sequence[int]]] | None = None,
) -> list[float]:
    """PERM-BOTH of a statistic over every pair of a vector (all the cells,
    or each system's; ``POOLED_TESTED``) for each pair (a, b) of the
    variants' ``zscores`` (``cells``): the p-value that b is better than a.
    A trial's difference is linear in its swaps (``MetaKernels.cell_weights``:
    twice the observed difference with none swapped), so each trial is a
    signed sum of the cells' weights; every pair's weights of a group come
    from one kernel call (``MetaKernels.pair_cell_weights``). Where the
    systems count as many pairs (acc_eq on common segments) their sums add
    up; where not (Kendall-like tau counts only the pairs the humans do not
    tie; acc_eq on each system's rated segments), each system's sum is
    weighed by the others' (the least common multiple over its own), with
    draws of its own (``system_draws``). Kendall-like tau at a threshold
    other than 0 is not defined here (NaN). ``weights``: per group, each
    pair's cell weights where the caller made them (``_pooled_weights``)."""
    kind = _swap_kind(statistic)
    if kind == "darr" and threshold != 0:
        return [st.nan] * len(pairs)
    flat_h = list(itertools.chain(*human))
    cells_n = len(cells[0]) if cells else 0
    size, groups = _pooled_groups(statistic, cells_n, human)
    # per group, every pair's cell weights (b's against a's), 0 for an unrated cell
    if weights is None:
        weights = [kernels.pair_cell_weights([c[cut] for c in cells], flat_h[cut],
                                             [(b, a) for a, b in pairs], kind)
                   for cut in groups]  # fmt: skip
    # by system, a system's pairs: those the humans do not tie for tau (as
    # ``_grouped`` counts them, whatever the metric), every rated one for
    # acc_eq; a system without any has no value (b's, made once a variant)
    tau = statistic == "kendall_like_system"
    counted: dict[int, list[int]] = {}
    # a vector's count of a group depends on the metric only through its
    # unrated cells (NaN), the same for most variants: counted once for each
    # group and set of them (a grid's tested variants took 3% of it)
    known: dict[tuple[int, tuple[int, ...]], int] = {}

    def count(metric: Sequence[float], g: int) -> int:
        key = (g, tuple(itertools.compress(itertools.count(), map(math.isnan, metric))))
        if key not in known:
            known[key] = _counted_pairs(metric, flat_h[groups[g]], tau)
        return known[key]

    for _, b in pairs:
        if b not in counted:
            counted[b] = ([count(cells[b][cut], g) for g, cut in enumerate(groups)]
                          if statistic.endswith("_system") else [])  # fmt: skip
    # one group, or groups of as many pairs: their sums add up; else each
    # group's sums weighed, from draws of its own
    adding = [not tau and len({c for c in counted[b] if c}) < 2 for _, b in pairs]
    trials: dict[int, list[int]] = {}
    observed: dict[int, int] = {}
    summed = [q for q in range(len(pairs)) if adding[q]]
    # a pair's groups' weights one after the other (one group: its own), in
    # int64 (cell weights count pairs of cells): a grid's 78 pairs of 30,000
    # cells as lists of ints took 80 MB
    flats = [weights[0][q] if len(weights) == 1 else joined_ints([group[q] for group in weights])
             for q in summed]  # fmt: skip
    # every pair's trials over the same draws in one kernel call
    for q, flat, sums in zip(summed, flats, kernels.batch_signed_trials(flats, draws)):
        trials[q], observed[q] = sums, sum(flat)
    weighed = [q for q in range(len(pairs)) if not adding[q]]
    if weighed:
        own = system_draws(draws, len(groups), size)
        per_group = [kernels.batch_signed_trials([weights[g][q] for q in weighed], own[g])
                     for g in range(len(groups))]  # fmt: skip
        for i, q in enumerate(weighed):
            c = counted[pairs[q][1]]
            common = math.lcm(*(x for x in c if x)) if any(c) else 1
            scale = [common // x if x else 0 for x in c]
            per_system = [sums[i] for sums in per_group]
            trials[q] = [sum(map(operator.mul, row, scale)) for row in zip(*per_system)]
            observed[q] = sum(sum(weights[g][q]) * k for g, k in enumerate(scale))
    # the trials at or above the observed difference (mapped, not a
    # generator: a grid compares a million trials)
    return [sum(map(observed[q].__le__, trials[q])) / len(trials[q]) if trials[q] else st.nan
            for q in range(len(pairs))]  # fmt: skip


def _pooled_groups(statistic: str, cells: int, human: st.Matrix) -> tuple[int, list[slice]]:
    """The groups of cells a pooled statistic sums its pairs over, and their
    size: all the cells (``_none``) or each system's."""
    size = cells if statistic.endswith("_none") else len(human[0])
    return size, [slice(lo, lo + size) for lo in range(0, cells, size)]


def _pooled_weights(
    cells: Sequence[Sequence[float]],
    tests: Sequence[tuple[str, Sequence[tuple[int, int]]]],
    human: st.Matrix,
    kernels: MetaKernels,
) -> list[list[list[Sequence[int]]]]:
    """``pooled_p_values``'s weights of several statistics of one grouping
    (Kendall-like tau and acc_eq, each with its pairs (a, b) of ``cells``),
    both kinds made by the same passes (``MetaKernels.pair_cell_weights_both``)
    for every pair once: per test, per group, per pair. A pair asked for the
    other way round is the same weights negated (b's against a's)."""
    flat_h = list(itertools.chain(*human))
    # each unordered pair once, as the kernel takes it: (b, a), b's against a's
    where: dict[tuple[int, int], int] = {}
    for _, pairs in tests:
        for a, b in pairs:
            if (b, a) not in where and (a, b) not in where:
                where[b, a] = len(where)
    _, groups = _pooled_groups(tests[0][0], len(cells[0]) if cells else 0, human)
    made = [kernels.pair_cell_weights_both([c[cut] for c in cells], flat_h[cut], list(where))
            for cut in groups]  # fmt: skip
    out = []
    for statistic, pairs in tests:
        kind = _swap_kind(statistic)
        out.append([[both[kind][where[b, a]] if (b, a) in where
                     else array("q", map(operator.neg, both[kind][where[a, b]]))
                     for a, b in pairs] for both in made])  # fmt: skip
    return out


def _counted_pairs(metric: Sequence[float], human: Sequence[float], untied: bool) -> int:
    """The pairs of a vector's rated cells (``rated``), or those of them the
    humans do not tie (``untied``): ``Pairs.total``, or its concordant,
    discordant and metric-tied pairs, counted without ranking the metric."""
    kept = [h for m, h in zip(metric, human) if not (math.isnan(m) or math.isnan(h))]
    pairs = len(kept) * (len(kept) - 1) // 2
    # 0.0 and -0.0 are one key, as they are one tie
    return pairs - sum(c * (c - 1) // 2 for c in Counter(kept).values()) if untied else pairs


def assign_clusters(
    order: Sequence[int], p: dict[tuple[int, int], float], alpha: float
) -> dict[int, int]:
    """mt-metrics-eval's ``AssignRanks``: down the order, a new cluster
    where a variant of the current cluster beats this one with p <= alpha."""
    clusters, current, start = {}, 1, 0
    for k, v in enumerate(order):
        if any(p[order[i], v] <= alpha for i in range(start, k)):
            current += 1
            start = k
        clusters[v] = current
    return clusters


# ------------------------------------------------------------------ study


def run(
    variants: Sequence[AnyMetric],
    stats: SystemStatistics,
    judgements: Judgements,
    settings: Settings = Settings(),
    listed: int | None = None,
) -> Study:
    """The study of ``variants`` (collected in ``stats``) against the
    judgements of the same systems. Every variant gets every point
    statistic; the tested ones also get intervals, soft pairwise accuracy,
    PERM-BOTH and clusters: all of them, or with ``listed`` the first
    ``listed`` and the best of the others (a grid's) for each statistic."""
    settings.check()
    names = stats.systems
    judged = judgements.for_systems(names, stats.segments)
    settings = replace(settings, segments=resolve_segments(judged, names, settings.segments))
    segments = study_segments(judged, names, settings.segments, stats.segments)
    hsign = 1.0 if judged.higher_is_better else -1.0
    # float64 rows: the kernels read them as they are (``kernels._flat``),
    # once for every variant
    human = [array("d", [hsign * _score(judged.scores[s][i]) for i in segments]) for s in names]
    human_system = [_mean_rated(row) for row in human]
    own = [_own(segments, row) for row in human]
    unrated = [_unrated(row) for row in human]
    complete = all(len(rows) == len(segments) for rows in own)
    # WMT's protocol scores the metric on the whole test set: where every
    # system is rated on every segment, that is what the others do too
    whole = settings.segments == "wmt" and not complete

    def measure(
        v: AnyMetric, batched: _Sentences | None = None
    ) -> tuple[VariantResult, _Scores, _ItemValues]:
        scores = _variant_scores(v, stats, segments, unrated, own, whole, batched)
        system = {name: f(scores.system, human_system) for name, f in SYSTEM.items()}
        system[SPA] = st.nan
        segment, epsilon, epsilons, items = _segment_statistics(
            scores.sentences, human, settings, meta_kernels(v.engine)
        )
        point = VariantResult(
            v.name, v.signature(stats.nrefs).long, v.sentence_variant().name, v.higher_is_better,
            tuple(scores.system), system, segment, epsilon, epsilons=epsilons,
        )  # fmt: skip
        return point, scores, items

    # the listed variants are always tested: their scores are kept; a grid's
    # others are not (their memory), and the few tested are measured again
    always = len(variants) if listed is None else listed
    points: list[VariantResult] = []
    kept: dict[int, _Scores] = {}
    item_values: dict[int, _ItemValues] = {}
    stage("measuring the variants", len(variants), "variants")
    # (the pass's own: a variant measured again when it is tested is alone)
    batched = _Sentences(stats, variants)
    for k, v in enumerate(variants):
        point, scores, items = measure(v, batched)
        points.append(point)
        if k < always:
            kept[k], item_values[k] = scores, items
        advance()
    del batched
    tested = list(range(len(variants))) if listed is None else _shortlist(points, listed)
    stage("testing the variants", len(tested), "variants")

    n = len(segments)
    kernels = meta_kernels(variants[0].engine)
    boot = Draws.from_seed(n, settings.samples, settings.seed) if settings.samples else None
    indices = kernels.bootstrap_resamples(boot) if boot else FlatResamples([])
    resamples = _Resamples(indices, kernels)
    human_boot = _resampled_means(human, resamples)
    perm = Draws.from_seed(n, settings.trials, settings.seed) if settings.trials else None
    human_p = None
    # a pair of systems' human test: on the segments both are rated on
    pairs = pair_tests(human, settings) if perm and not complete else {}
    if perm:
        human_p = (human_p_values(human, perm, kernels) if complete
                   else rated_human_p_values(human, pairs, kernels))  # fmt: skip
    results = list(points)
    rated_p: dict[int, list[list[float]]] = {}
    for group in _by_statistics(variants, tested):
        made: dict[str, Any] | None = {} if len(group) > 1 else None
        if perm and human_p is not None and settings.spa != "segments" and not (complete or whole):
            # each pair's columns and trials made once for the group
            tests = rated_metric_p_values([variants[k] for k in group], stats, segments, pairs)
            rated_p = dict(zip(group, tests))
        for k in group:
            v, point = variants[k], points[k]
            if k not in kept:
                _, kept[k], item_values[k] = measure(v)
            scores = kept[k]
            columns = (_once(made, "columns", _columns, v, stats, segments, human, whole)
                       if perm or boot else [])  # fmt: skip
            system = dict(point.system)
            if perm and human_p is not None:
                if settings.spa == "segments":
                    # the metric's segment scores tested as the humans' are
                    sentences = scores.sentences
                    p_values = (human_p_values(sentences, perm, kernels) if complete
                                else rated_human_p_values(sentences, pairs, kernels))  # fmt: skip
                elif complete or whole:
                    # the metric's test on the segments its scores come from
                    # (not held past the test where they are not kept)
                    split = _once(made, "splits", _splits, v, columns, perm)
                    p_values = metric_p_values(v, columns, scores.system, split)
                    del split
                else:
                    p_values = rated_p.pop(k)
                system[SPA] = st.soft_pairwise_accuracy(p_values, human_p)
            intervals = {}
            if boot:
                sums = _once(made, "resamples", v.engine.bootstrap_rows, columns, boot)
                intervals = _intervals(v, columns, sums, human_boot, item_values[k],
                                       (scores.sentences, human), point.epsilons, resamples,
                                       settings)  # fmt: skip
            curve = fit(system_pairs(point.system_scores, human_system), judged.source)
            results[k] = replace(point, system=system, intervals=intervals, delta=curve)
            stats.release_columns(v)  # the whole test set's columns (``_columns``)
            advance()
        made = None  # the group's columns and sums, freed before the next group's

    significance = []
    if settings.trials and len(tested) > 1:
        statistics = settings.tested_statistics()
        stage("comparing the tested variants", len(statistics), "statistics")
        pooled: dict[str, dict[tuple[int, int], float]] = {}
        for k, statistic in enumerate(statistics):
            significance.append(_significance(
                statistic, results, kept, human, human_system, tested, settings, kernels, pooled,
                statistics[k + 1 :],
            ))  # fmt: skip
            advance()
    notes = study_notes(results, human_system, settings, bool(significance), n, stats.segments)
    williams = None
    if len(tested) > 1 and len(names) > 3:
        williams = williams_test(results, tested, human_system)
        notes += _separable(results, williams, len(names))
    return Study(
        judged.source, tuple(names), tuple(human_system), n, stats.segments, settings,
        tuple(results), tuple(significance), tuple(tested), tuple(notes), williams,
    )  # fmt: skip


def williams_test(
    results: Sequence[VariantResult], tested: Sequence[int], human_system: Sequence[float]
) -> Significance:
    """The Williams test (``williams.williams_p``) of system-level Pearson's
    r between every two tested variants, the WMT metrics tasks' test up to
    2021: p[a, b] that a (the higher r) correlates better than b, from
    both r's and the two variants' correlation with each other over the
    systems; clusters by mt-metrics-eval's rule."""
    defined = [k for k in tested if not math.isnan(results[k].system["pearson"])]
    order = sorted(defined, key=lambda k: results[k].system["pearson"], reverse=True)
    n = len(human_system)
    p = {}
    for x, y in itertools.combinations(order, 2):
        a, b = results[x], results[y]
        between = st.pearson(a.system_scores, b.system_scores)
        p[x, y] = williams_p(a.system["pearson"], b.system["pearson"], between, n)
    if len(order) < 2 or any(math.isnan(v) for v in p.values()):
        return Significance("pearson", tuple(order), {}, (0,) * len(results), "williams",
                            "undefined for fewer than two tested variants")  # fmt: skip
    clusters = assign_clusters(order, p, ALPHA)
    ranks = tuple(clusters.get(k, 0) for k in range(len(results)))
    return Significance("pearson", tuple(order), p, ranks, "williams")


def _separable(results: Sequence[VariantResult], williams: Significance, systems: int) -> list[str]:
    """Where the Williams test does not separate the two tested variants of
    highest Pearson's r: how many systems of these correlations it would
    need to (``williams.items_needed``), one line."""
    if williams.untested or len(williams.order) < 2:
        return []
    first, second = williams.order[:2]
    if williams.p[first, second] <= ALPHA:
        return []
    a, b = results[first], results[second]
    r12, r13 = a.system["pearson"], b.system["pearson"]
    needed = items_needed(r12, r13, st.pearson(a.system_scores, b.system_scores), ALPHA)
    size = "no number of systems up to 100,000 would" if needed is None else (
        f"about {needed:,} systems of these correlations would")  # fmt: skip
    return [
        f"Pearson's r of {a.name} ({r12:.3f}) and {b.name} ({r13:.3f}), the two highest "
        f"tested, are not separated by the Williams test with {systems} systems "
        f"(p = {williams.p[first, second]:.3f}); {size} separate them at {ALPHA}"
    ]


def _alike(values: Sequence[float]) -> bool:
    """Whether every value is the same (a correlation with them is undefined)."""
    kept = [x for x in values if not math.isnan(x)]
    return len(set(kept)) < 2


def _why_undefined(statistic: str, settings: Settings) -> str:
    """Why a segment-level statistic can be undefined (NaN)."""
    if statistic.startswith("kendall_like"):
        if settings.threshold != 0 and not statistic.endswith("_item"):
            return (
                f"Kendall-like tau not grouped and by system is not defined at a threshold "
                f"other than 0 ({settings.threshold:g}); grouped by item it is"
            )
        if settings.threshold:
            return (
                f"no pair of segments whose human scores differ by {settings.threshold:g} or "
                "more (Kendall-like tau skips the others)"
            )
        return "the humans tie every pair of segments (Kendall-like tau skips ties)"
    if statistic in CORRELATIONS:
        return "no group of two rated cells where neither side is constant"
    return "no pair of scores to compare"


def study_notes(
    results: Sequence[VariantResult],
    human_system: Sequence[float],
    settings: Settings,
    tested: bool,
    segments: int,
    test_set: int,
) -> list[str]:
    """What the values cannot tell, one line each: why a value is undefined
    ('–' in the tables, null in the JSON; such a statistic gets no test and
    no cluster), what a study of so few systems cannot separate, and what
    a study on a small share of the test set loses."""
    notes = []
    if settings.segments == "common" and 2 * segments < test_set:
        notes.append(
            f"common keeps {segments:,} of {test_set:,} segments ({segments / test_set:.0%}): "
            f"each metric score rests on that share of the test set, its standard error about "
            f"sqrt({test_set:,}/{segments:,}) = {math.sqrt(test_set / segments):.1f} times the "
            "whole test set's, and the humans' ranking may differ from the campaign's; "
            "--segments wmt scores the metric on the whole test set"
        )
    systems = len(human_system)
    correlations = [name.replace("_", " ") for name in SYSTEM if name != "pairwise_accuracy"]
    if _alike(human_system):
        notes.append(
            f"the humans score every system alike: {', '.join(correlations)} are undefined (–)"
        )
    else:
        flat = [v.name for v in results if _alike(v.system_scores)]
        if flat:
            notes.append(
                f"{', '.join(flat)}: {', '.join(correlations)} undefined (–): every system "
                "scored alike"
            )
    for statistic in settings.segment_statistics():
        undefined = [v.name for v in results if math.isnan(v.segment[statistic])]
        if undefined:
            who = "every variant" if len(undefined) == len(results) else ", ".join(undefined)
            reason = _why_undefined(statistic, settings)
            notes.append(f"{statistic.replace('_', ' ')} undefined (–) for {who}: {reason}")
    if systems == 2:
        notes.append(
            "2 systems: every system-level correlation is +1 or -1 (two points always lie on "
            "a line) and pairwise accuracy 0 or 1; the system level cannot tell variants apart"
        )
    if tested and 0 < systems and 2.0**-systems > ALPHA:
        notes.append(
            f"{systems} systems: PERM-BOTH's system-level p-values are at least about "
            f"1/2^{systems} = {2.0**-systems:.4f} (the trial that swaps no system reaches the "
            f"observed difference), above {ALPHA}: no system-level difference can be significant"
        )
    return notes


def _shortlist(points: Sequence[VariantResult], listed: int) -> list[int]:
    """The first ``listed`` variants, and the best of the others for each
    statistic ranked (the first of equals)."""
    chosen = list(range(min(listed, len(points))))
    for statistic in (*SYSTEM, *SEGMENT):
        scored = [(v.value(statistic), -k) for k, v in enumerate(points)
                  if k >= listed and not math.isnan(v.value(statistic))]  # fmt: skip
        if scored:
            best = -max(scored)[1]
            if best not in chosen:
                chosen.append(best)
    return chosen


def _significance(
    statistic: str,
    results: Sequence[VariantResult],
    scores: dict[int, _Scores],
    human: st.Matrix,
    human_system: Sequence[float],
    tested: Sequence[int],
    settings: Settings,
    kernels: MetaKernels,
    pooled: dict[str, dict[tuple[int, int], float]],
    later: Sequence[str] = (),
) -> Significance:
    """One statistic's tests between the tested variants, and its clusters.
    A pooled statistic's p-values are made together with those of the
    pooled statistics of its grouping among ``later`` (the statistics still
    to come), kept in ``pooled`` until their turn: their cell weights come
    from the same passes."""
    order = _ranked(statistic, results, tested)
    test = _test_of(statistic)
    if len(order) < 2:
        why = "undefined for every tested variant" if not order else "defined for one variant"
        return Significance(statistic, tuple(order), {}, (0,) * len(results), test, why)
    # the same trials for every pair: a pair's p-value does not depend on
    # which other variants are studied
    cells = len(human_system) if statistic in SYSTEM else len(human) * len(human[0])
    draws = Draws.from_seed(cells, settings.trials, settings.seed)
    p: dict[tuple[int, int], float] = {}
    if statistic in POOLED_TESTED:
        if statistic not in pooled:
            by = statistic.rsplit("_", 1)[1]
            siblings = [s for s in later if s in POOLED_TESTED and s.endswith(f"_{by}")]
            pooled.update(_pooled_tests([statistic, *siblings], results, scores, human, tested,
                                        settings.threshold, draws, kernels))  # fmt: skip
        p = pooled.pop(statistic)
    elif test == "perm-both" and statistic not in SYSTEM:
        # every pair at once (the kernels draw each trial's swaps once):
        # pair (y, x) of the order, x ahead, is (worse, better)
        combos = list(itertools.combinations(range(len(order)), 2))
        values = item_p_values([scores[k].cells for k in order], [(y, x) for x, y in combos],
                               human, statistic, settings.threshold, draws, kernels)  # fmt: skip
        p = {(order[x], order[y]): value for (x, y), value in zip(combos, values)}
    else:
        # a variant's calibrated agreement, made once for all its pairs
        agreement = ({k: calibrated_agreement(scores[k].cells, human, kernels) for k in order}
                     if test == "perm-both-recalibrated" else {})  # fmt: skip
        pairs = [(order[x], order[y]) for x, y in itertools.combinations(range(len(order)), 2)]

        def p_value(pair: tuple[int, int]) -> float:
            better, worse = pair
            # one thread a pair: a kernel that split its trials between
            # threads would prepare its pair once a thread
            with call_threads(1):
                if statistic in SYSTEM:
                    return perm_both_system(
                        scores[worse].system, scores[better].system, human_system, statistic,
                        draws, kernels,
                    )  # fmt: skip
                if test == "perm-both-recalibrated":
                    return perm_both_calibrated(
                        scores[worse].cells, scores[better].cells, human, draws, kernels,
                        agreement[better] - agreement[worse],
                    )  # fmt: skip
                by = statistic.split("_")[2]
                return pairwise_calibrated(
                    (scores[worse].sentences, results[worse].epsilons[by]),
                    (scores[better].sentences, results[better].epsilons[by]),
                    human, by, draws, kernels,
                )  # fmt: skip

        # the pairs' tests side by side, each in its own thread
        p = dict(zip(pairs, ordered_map(p_value, pairs, workers())))
    if any(math.isnan(x) for x in p.values()):
        # the trials' statistic is undefined where the variants' is not
        return Significance(statistic, tuple(order), {}, (0,) * len(results), test,
                            "its permutation trials are undefined")  # fmt: skip
    clusters = assign_clusters(order, p, ALPHA)
    return Significance(statistic, tuple(order), p,
                        tuple(clusters.get(k, 0) for k in range(len(results))), test)  # fmt: skip


def _ranked(statistic: str, results: Sequence[VariantResult], tested: Sequence[int]) -> list[int]:
    """The tested variants in order of a statistic, best first. An undefined
    value (NaN) has no rank: its variant gets no test and no cluster (its
    p-values would compare nothing with something)."""
    defined = [k for k in tested if not math.isnan(results[k].value(statistic))]
    return sorted(defined, key=lambda k: results[k].value(statistic), reverse=True)


def _pooled_tests(
    statistics: Sequence[str],
    results: Sequence[VariantResult],
    scores: dict[int, _Scores],
    human: st.Matrix,
    tested: Sequence[int],
    threshold: float,
    draws: Draws,
    kernels: MetaKernels,
) -> dict[str, dict[tuple[int, int], float]]:
    """``pooled_p_values`` of pooled statistics of one grouping, every pair
    of each one's ranked variants (two or more), the weights of both kinds
    made once (``_pooled_weights``); Kendall-like tau at a threshold other
    than 0 needs none (it is NaN)."""
    orders = {s: _ranked(s, results, tested) for s in statistics}
    ranked = [s for s in statistics if len(orders[s]) > 1]
    weighed = [s for s in ranked if threshold == 0 or _swap_kind(s) != "darr"]
    union = list(dict.fromkeys(k for s in ranked for k in orders[s]))
    cells = [scores[k].cells for k in union]
    # pair (y, x) of an order, x ahead, is (worse, better)
    combos = {s: list(itertools.combinations(orders[s], 2)) for s in ranked}
    pairs = {s: [(union.index(y), union.index(x)) for x, y in combos[s]] for s in ranked}
    tests = [(s, pairs[s]) for s in weighed]
    made = dict(zip(weighed, _pooled_weights(cells, tests, human, kernels) if tests else []))
    out = {}
    for s in ranked:
        values = pooled_p_values(cells, pairs[s], human, s, threshold, draws, kernels,
                                 made.get(s))  # fmt: skip
        out[s] = dict(zip(combos[s], values))
    return out


def _test_of(statistic: str) -> str:
    """The test of a statistic's significance (``TEST_NAMES``)."""
    if statistic == "acc_eq_item_calibrated":
        return "perm-both-recalibrated"
    if statistic.endswith("_calibrated"):
        return "pairwise-permutation"
    return "perm-both"


# ------------------------------------------------------------------- grids


def grid_names(base: str, axes: Sequence[tuple[str, Sequence[Any]]]) -> list[str]:
    """Every combination of the axes' values (field, values) as overrides
    of ``base``: the names ``load_metric`` loads (``BLEUw4[max_order=5,...]``)."""
    if not axes:
        return []
    fields = [name for name, _ in axes]
    if len(set(fields)) != len(fields):
        raise InputError(f"--search names a field twice: {', '.join(fields)}")
    names = []
    for values in itertools.product(*(v for _, v in axes)):
        overrides = ",".join(f"{f}={_yaml(v)}" for f, v in zip(fields, values))
        names.append(f"{base}[{overrides}]")
    return names


def _yaml(value: Any) -> str:
    """A value as a variant name writes it (YAML scalars)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
