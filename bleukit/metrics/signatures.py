"""The one table of each metric's classes, by the versioned name its
configuration's ``metric`` gives (a BLEU configuration has none): its
implementation of ``Metric`` and its signature, so that a configuration's
signature is had without building its metric (and so without loading a
tokenizer whose extra is not installed)."""

from __future__ import annotations

from importlib import import_module
from typing import Any, Literal

from .base import MetricSignature

#: metric -> (module of its variant, class), (module of its signature, class)
_CLASSES = {
    "chrf.v1": (("chrf.variant", "ChrfVariant"), ("chrf.core", "ChrfSignature")),
    "ter.v1": (("ter.variant", "TerVariant"), ("ter.core", "TerSignature")),
    "nist.v1": (("nist.variant", "NistVariant"), ("nist.core", "NistSignature")),
    "gleu.v1": (("gleu.variant", "GleuVariant"), ("gleu.core", "GleuSignature")),
    None: (("bleu.variant", "Variant"), ("bleu.signature", "Signature")),
}


def implementation(config: Any, role: Literal["variant", "signature"]) -> Any:
    """The class of ``config``'s metric that plays ``role``."""
    variant, signature = _CLASSES[getattr(config, "metric", None)]
    module, name = variant if role == "variant" else signature
    return getattr(import_module(f".{module}", __package__), name)


def signature_for(config: Any, nrefs: int | str) -> MetricSignature:
    """The signature of ``config``'s scores with ``nrefs`` references."""
    return implementation(config, "signature")(config, nrefs)  # type: ignore[no-any-return]


def parse_own_signature(text: str) -> MetricSignature:
    """The signature a bleukit signature's text states (long or short form,
    any metric): the field metric whose ``metric`` key it carries, else
    BLEU's, which carries none."""
    from ..config.schema import validate_any

    for metric, (_, (module, name)) in _CLASSES.items():
        if metric is not None:
            cls = getattr(import_module(f".{module}", __package__), name)
            if cls.form.states(text):
                return cls.parse(text, validate_any)  # type: ignore[no-any-return]
    from .bleu.signature import parse_signature

    return parse_signature(text)
