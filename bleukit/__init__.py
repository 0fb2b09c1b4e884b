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
    from .chrf import ChrfResult, ChrfSignature
    from .chrf_variant import ChrfVariant, load_chrf, load_metric
    from .errors import (
        BleukitError,
        ConfigError,
        InputError,
        MissingDependencyError,
        PluginError,
        UnknownComponentError,
    )
    from .results import BleuResult
    from .signature import Signature, parse_signature
    from .variant import Variant, load_variant

_EXPORTS = {
    "BleuResult": "results",
    "ChrfResult": "chrf",
    "ChrfSignature": "chrf",
    "ChrfVariant": "chrf_variant",
    "load_chrf": "chrf_variant",
    "load_metric": "chrf_variant",
    "BleukitError": "errors",
    "ConfigError": "errors",
    "InputError": "errors",
    "MissingDependencyError": "errors",
    "PluginError": "errors",
    "Signature": "signature",
    "UnknownComponentError": "errors",
    "Variant": "variant",
    "load_variant": "variant",
    "parse_signature": "signature",
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
