"""Corpus BLEU as a torchmetrics ``Metric`` whose states are exact int64
counts (``pip install 'bleukit[torchmetrics]'``): ``update(preds, target)``
in a training or evaluation loop, on one process or many, and ``compute()``
gives bleukit's corpus score of everything seen.

torchmetrics' own ``BLEUScore`` and ``SacreBLEUScore`` keep their n-gram
counts and lengths as float32 states, which stop counting exactly past
2**24 (16.8M): one more n-gram added to 2**24 is lost. Here every state is
an int64 tensor, summed across processes (``dist_reduce_fx="sum"``), so a
2-process sum equals the 1-process count exactly and the score equals
``Variant.corpus_score`` on the same text.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from .core.errors import InputError, MissingDependencyError
from .core.stats import Stats
from .metrics.bleu.result import BleuResult
from .metrics.bleu.variant import Variant, load_variant
from .metrics.inputs import streams_from_rows

#: the reference count state's start for the min-reduction (no update yet)
_NO_REFERENCES = 2**62


@cache
def _bleu_class() -> type:
    """The metric class, defined on first use: torchmetrics is imported
    only then, so importing this module needs neither it nor torch."""
    try:
        import torch
        from torchmetrics import Metric
    except ImportError:
        raise MissingDependencyError(
            "bleukit.torchmetrics needs torchmetrics: pip install 'bleukit[torchmetrics]'"
        ) from None

    class BLEU(Metric):  # type: ignore[misc]  # torchmetrics ships no type information here
        """bleukit's corpus BLEU under ``variant`` (a name, a YAML path or a
        ``Variant``), as a torchmetrics metric: ``update(preds, target)`` with
        ``target[i]`` the reference (or list of references) of ``preds[i]``;
        ``compute()`` gives the score (0-100, float64; torchmetrics' BLEUScore
        gives 0-1), ``result()`` the full ``BleuResult`` with its signature."""

        is_differentiable = False
        higher_is_better = True
        full_state_update = False
        # the states add_state creates (int64 tensors)
        sys_len: Any
        ref_len: Any
        segments: Any
        counts: Any
        totals: Any
        nrefs_min: Any
        nrefs_max: Any

        def __init__(self, variant: str | Variant = "sacrebleu", **kwargs: Any) -> None:
            super().__init__(**kwargs)
            v = load_variant(variant) if isinstance(variant, str) else variant
            if v.reads_last_segment:
                raise InputError(
                    f"{v.name}: its smoothing reads the corpus's last segment, which processes "
                    "that each see part of the data do not share; choose another smoothing"
                )
            if v.config.ref_length == "average.v1":
                raise InputError(f"{v.name}: the average reference length is no integer state")
            self.variant = v
            order = v.stat_order
            for name, shape in (("sys_len", ()), ("ref_len", ()), ("segments", ())):
                self.add_state(name, torch.zeros(shape, dtype=torch.int64), dist_reduce_fx="sum")
            for name in ("counts", "totals"):
                self.add_state(name, torch.zeros(order, dtype=torch.int64), dist_reduce_fx="sum")
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
            stats = partial.stats
            assert isinstance(stats, Stats)
            device = self.counts.device
            self.sys_len += stats.sys_len
            self.ref_len += int(stats.ref_len)
            self.segments += partial.segments
            self.counts += torch.tensor(stats.counts, dtype=torch.int64, device=device)
            self.totals += torch.tensor(stats.totals, dtype=torch.int64, device=device)
            self.nrefs_min = torch.minimum(
                self.nrefs_min, torch.tensor(min(partial.nrefs), device=device)
            )
            self.nrefs_max = torch.maximum(
                self.nrefs_max, torch.tensor(max(partial.nrefs), device=device)
            )

        def result(self) -> BleuResult:
            """The corpus result (score, precisions, signature) of the states."""
            segments = int(self.segments)
            if not segments:
                raise InputError("no segments to score (update() was never given any)")
            low, high = int(self.nrefs_min), int(self.nrefs_max)
            stats = Stats(
                int(self.sys_len),
                int(self.ref_len),
                tuple(int(c) for c in self.counts),
                tuple(int(t) for t in self.totals),
                segments,
            )
            return self.variant.score_stats(stats, low if low == high else "var")

        def compute(self) -> Any:
            return torch.tensor(self.result().score, dtype=torch.float64)

    # pickled by reference as bleukit.torchmetrics.BLEU (this module's __getattr__)
    BLEU.__qualname__ = "BLEU"
    return BLEU


def __getattr__(name: str) -> Any:
    if name == "BLEU":
        return _bleu_class()
    raise AttributeError(f"module 'bleukit.torchmetrics' has no attribute {name!r}")
