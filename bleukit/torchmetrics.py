"""Corpus BLEU and chrF as torchmetrics ``Metric``s whose states are exact
int64 counts (``pip install 'bleukit[torchmetrics]'``): ``update(preds,
target)`` in a training or evaluation loop, on one process or many, and
``compute()`` gives bleukit's corpus score of everything seen.

torchmetrics' own ``BLEUScore`` and ``SacreBLEUScore`` keep their n-gram
counts and lengths as float32 states (``CHRFScore`` too), which stop
counting exactly past 2**24 (16.8M): one more n-gram added to 2**24 is
lost. Here the state is the metric's additive row of statistics
(``Metric.row``: BLEU's lengths, matches and totals; chrF's n-gram counts
and matches per order) as one int64 tensor, summed across processes
(``dist_reduce_fx="sum"``), so a 2-process sum equals the 1-process count
exactly and the score equals ``corpus_score`` on the same text.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

from .core.errors import InputError, MissingDependencyError
from .metrics import as_metric
from .metrics.base import AnyMetric, MetricResult
from .metrics.inputs import streams_from_rows

#: the reference count state's start for the min-reduction (no update yet)
_NO_REFERENCES = 2**62
#: each class's metric (``Metric.family``)
_FAMILIES = {"BLEU": "BLEU", "CHRF": "chrF"}


@cache
def _classes() -> dict[str, type]:
    """The metric classes, defined on first use: torchmetrics is imported
    only then, so importing this module needs neither it nor torch."""
    try:
        import torch
        from torchmetrics import Metric
    except ImportError:
        raise MissingDependencyError(
            "bleukit.torchmetrics needs torchmetrics: pip install 'bleukit[torchmetrics]'"
        ) from None

    class ExactScore(Metric):  # type: ignore[misc]  # torchmetrics ships no type information here
        """bleukit's corpus score under a variant (a name, a YAML path or a
        variant), as a torchmetrics metric: ``update(preds, target)`` with
        ``target[i]`` the reference (or list of references) of ``preds[i]``;
        ``compute()`` gives the score (0-100, float64; torchmetrics' scores
        are 0-1), ``result()`` the full result with its signature."""

        is_differentiable = False
        higher_is_better = True
        full_state_update = False
        #: the variant when none is given, and the metric its scores are named by
        default: ClassVar[str]
        family: ClassVar[str]
        # the states add_state creates (int64 tensors)
        stats: Any
        segments: Any
        nrefs_min: Any
        nrefs_max: Any

        def __init__(self, variant: str | AnyMetric | None = None, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            v = as_metric(self.default if variant is None else variant)
            if v.family != self.family:
                cls = next((c for c, f in _FAMILIES.items() if v.family == f), None)
                advice = f"use bleukit.torchmetrics.{cls}" if cls else "no class here scores it"
                raise InputError(
                    f"bleukit.torchmetrics.{type(self).__name__} scores {self.family} variants; "
                    f"{v.name} is scored as {v.score_name}: {advice}"
                )
            v.check_partitioned()
            if v.reads_last_segment:
                raise InputError(
                    f"{v.name}: its smoothing reads the corpus's last segment, which processes "
                    "that each see part of the data do not share; choose another smoothing"
                )
            self.variant = v
            width = len(v.row(v.zero_stats()))
            self.add_state("stats", torch.zeros(width, dtype=torch.int64), dist_reduce_fx="sum")
            self.add_state("segments", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")
            start = torch.tensor(_NO_REFERENCES, dtype=torch.int64)
            self.add_state("nrefs_min", start, dist_reduce_fx="min")
            self.add_state("nrefs_max", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="max")

        def update(self, preds: Sequence[str], target: Sequence[Sequence[str] | str]) -> None:
            if len(preds) != len(target):
                raise InputError(f"{len(preds)} predictions but {len(target)} targets")
            if not len(preds):
                return
            # torchmetrics' target: per prediction, a reference or a list of them
            rows = [[ref] if isinstance(ref, str) else list(ref) for ref in target]
            partial = self.variant.partial(list(preds), streams_from_rows(rows))
            row = self.variant.row(partial.stats)
            if not all(isinstance(x, int) for x in row):
                raise InputError(
                    f"{self.variant.name}: its statistics are not whole numbers (an average "
                    "reference length is a fraction), which no integer state holds exactly"
                )
            device = self.stats.device
            self.stats += torch.tensor(row, dtype=torch.int64, device=device)
            self.segments += partial.segments
            low, high = (torch.tensor(f(partial.nrefs), device=device) for f in (min, max))
            self.nrefs_min = torch.minimum(self.nrefs_min, low)
            self.nrefs_max = torch.maximum(self.nrefs_max, high)

        def result(self) -> MetricResult:
            """The corpus result (score, details, signature) of the states."""
            segments = int(self.segments)
            if not segments:
                raise InputError("no segments to score (update() was never given any)")
            low, high = int(self.nrefs_min), int(self.nrefs_max)
            v = self.variant
            stats = v.from_row([int(x) for x in self.stats], segments, v.zero_stats())
            return v.score_stats(stats, low if low == high else "var")

        def compute(self) -> Any:
            # on the states' device, as torchmetrics' own metrics return
            return torch.tensor(self.result().score, dtype=torch.float64, device=self.stats.device)

    class BLEU(ExactScore):
        default = "sacrebleu"
        family = _FAMILIES["BLEU"]

    class CHRF(ExactScore):
        default = "chrF"
        family = _FAMILIES["CHRF"]

    for cls in (BLEU, CHRF):
        # pickled by reference as bleukit.torchmetrics.NAME (this module's __getattr__)
        cls.__qualname__ = cls.__name__
        cls.__doc__ = f"{ExactScore.__doc__}\n\n        Default variant: {cls.default}."
    return {"BLEU": BLEU, "CHRF": CHRF}


def __getattr__(name: str) -> Any:
    if name in ("BLEU", "CHRF"):
        return _classes()[name]
    raise AttributeError(f"module 'bleukit.torchmetrics' has no attribute {name!r}")
