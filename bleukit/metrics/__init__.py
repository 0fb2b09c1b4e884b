"""The metrics: one interface (``base.Metric``), one package per metric
(``bleu``, ``chrf``, ``ter``, ``nist``, ``gleu``...), each found through one
registry (``registry.METRICS``, with plugins from the entry-point group
``bleukit.metrics``). Nothing outside ``metrics`` names a metric's class."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import AnyMetric, MetricSignature
    from .bleu.result import BleuResult
    from .bleu.signature import Signature, parse_signature
    from .bleu.variant import Variant, load_variant
    from .chrf.core import ChrfResult, ChrfSignature
    from .chrf.variant import ChrfVariant, load_chrf
    from .sacrebleu_signature import SacrebleuSignature

#: the metrics' public names (re-exported by ``bleukit``), imported on first
#: use: name -> its module under ``metrics``
PUBLIC = {
    "BleuResult": "bleu.result",
    "Signature": "bleu.signature",
    "parse_signature": "bleu.signature",
    "Variant": "bleu.variant",
    "load_variant": "bleu.variant",
    "ChrfResult": "chrf.core",
    "ChrfSignature": "chrf.core",
    "ChrfVariant": "chrf.variant",
    "load_chrf": "chrf.variant",
}

__all__ = [
    "BleuResult",
    "ChrfResult",
    "ChrfSignature",
    "ChrfVariant",
    "Signature",
    "Variant",
    "load_chrf",
    "load_metric",
    "load_variant",
    "parse_signature",
]


def __getattr__(name: str) -> Any:
    module = PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'bleukit.metrics' has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


def external_scores(
    label: str,
    path: str,
    systems: Sequence[str],
    about: str = "",
    lower_is_better: bool = False,
) -> AnyMetric:
    """External segment scores (COMET, BLEURT, MetricX...) as a metric of
    the ``systems`` (their names, in the order their statistics are
    collected): ``label`` is what outputs call them, ``about`` what they are
    (the model, its version: the signature keeps it), ``path`` a file or
    directory of scores in one of ``scores.reading``'s layouts, its sha256
    in the signature."""
    from .registry import METRICS
    from .scores.reading import digest

    spec = METRICS.get("scores.v1")
    data = {
        "name": label, "metric": "scores.v1", "label": label, "about": about,
        "lower_is_better": lower_is_better, "sha256": digest(path), "path": path,
        "systems": tuple(systems),
    }  # fmt: skip
    return metric_for(spec.validate(data, f"--scores {label}"))


def metric_for(config: Any, engine: str | None = None, threads: int | None = None) -> AnyMetric:
    """The variant of whichever metric ``config`` configures."""
    from .registry import metric_for as build

    return build(config, engine, threads)  # type: ignore[no-any-return]


def load_metric(
    name_or_path: str, engine: str | None = None, threads: int | None = None, **overrides: Any
) -> AnyMetric:
    """A variant of any metric (BLEU or chrF), by name or YAML file, with
    keyword overrides."""
    from .registry import load_any_config

    return metric_for(load_any_config(name_or_path, overrides), engine, threads)


def as_metric(variant: str | AnyMetric) -> AnyMetric:
    """A variant object from a name, a YAML path or a variant."""
    return load_metric(variant) if isinstance(variant, str) else variant


def read_signature(text: str) -> MetricSignature | SacrebleuSignature:
    """A signature in any form bleukit reads: its own (long or short, every
    metric) or sacrebleu's (2.x and 1.x; ``sacrebleu_signature``)."""
    from .sacrebleu_signature import is_sacrebleu_signature, parse_sacrebleu_signature

    if is_sacrebleu_signature(text):
        return parse_sacrebleu_signature(text)
    return parse_any_signature(text)  # type: ignore[no-any-return]


def parse_any_signature(text: str) -> Any:
    """The signature (``Signature``, ``ChrfSignature``, ``TerSignature``,
    ``NistSignature``, ``GleuSignature``) a
    text states, in its long or short form: the configuration (``.config``)
    and ``.nrefs``."""
    from .signatures import parse_own_signature

    return parse_own_signature(text)
