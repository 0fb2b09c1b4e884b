"""bleukit: reproducible, comparable, fast BLEU.

Pipeline, one module per stage: text (``files``) -> ``tokenizers`` ->
``ngrams`` -> per-segment ``stats`` (the ``reflen`` policy picks a reference
length) -> additive corpus statistics -> ``smoothing`` and weights ->
``score`` -> ``signature`` -> ``report``. Variants (``config``) assemble the
components from YAML; ``variant.Variant`` is the Python API. chrF and chrF++
(``chrf``, ``chrf_variant.ChrfVariant``) share the tokenizers and engines.

The names below are imported on first use, so that ``import bleukit`` (and
``bleukit --help``) stay fast; type checkers see them as the real types.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:
    from .core.errors import (
        BleukitError,
        ConfigError,
        InputError,
        MissingDependencyError,
        PluginError,
        UnknownComponentError,
    )
    from .core.results import BleuResult
    from .metrics.bleu.signature import Signature, parse_signature
    from .metrics.bleu.variant import Variant, load_variant
    from .metrics.chrf.core import ChrfResult, ChrfSignature
    from .metrics.chrf.variant import ChrfVariant, load_chrf, load_metric

_EXPORTS = {
    "BleuResult": "core.results",
    "ChrfResult": "metrics.chrf.core",
    "ChrfSignature": "metrics.chrf.core",
    "ChrfVariant": "metrics.chrf.variant",
    "load_chrf": "metrics.chrf.variant",
    "load_metric": "metrics.chrf.variant",
    "BleukitError": "core.errors",
    "ConfigError": "core.errors",
    "InputError": "core.errors",
    "MissingDependencyError": "core.errors",
    "PluginError": "core.errors",
    "Signature": "metrics.bleu.signature",
    "UnknownComponentError": "core.errors",
    "Variant": "metrics.bleu.variant",
    "load_variant": "metrics.bleu.variant",
    "parse_signature": "metrics.bleu.signature",
}

__all__ = [
    "BleuResult",
    "BleukitError",
    "ChrfResult",
    "ChrfSignature",
    "ChrfVariant",
    "ConfigError",
    "InputError",
    "MissingDependencyError",
    "PluginError",
    "Signature",
    "UnknownComponentError",
    "Variant",
    "__version__",
    "load_chrf",
    "load_metric",
    "load_variant",
    "parse_signature",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bleukit' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
