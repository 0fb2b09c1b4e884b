"""Signatures of any metric, through the metric registry: a configuration's
signature without building its metric (and so without loading a tokenizer
whose extra is not installed), and the signature a bleukit signature's text
states."""

from __future__ import annotations

from typing import Any

from .base import MetricSignature
from .registry import DEFAULT_METRIC, METRICS, signature_for, validate_any

__all__ = ["parse_own_signature", "signature_for"]


def parse_own_signature(text: str) -> MetricSignature:
    """The signature a bleukit signature's text states (long or short form,
    any metric): the metric whose ``metric`` key it carries, else BLEU's,
    which carries none."""
    for name in METRICS.names():
        if name == DEFAULT_METRIC:
            continue
        cls: Any = METRICS.get(name).signature_class()
        if cls.form.states(text):
            return cls.parse(text, validate_any)  # type: ignore[no-any-return]
    from .bleu.signature import parse_signature

    return parse_signature(text)
