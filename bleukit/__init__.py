"""bleukit: reproducible, comparable, fast BLEU.

Pipeline, one package per stage: text (``io``) -> ``tokenizers`` -> n-gram
counts and per-segment statistics (``core``, counted by ``engines``) ->
additive corpus statistics -> a score and its signature (``metrics``: BLEU,
chrF, behind one ``Metric`` interface) -> ``significance`` -> ``report``.
Variants (``config``) assemble the components from YAML; ``load_variant``
and ``load_metric`` give the Python API.

The names below are imported on first use, so that ``import bleukit`` (and
``bleukit --help``) stay fast; type checkers see them as the real types.
"""

from typing import TYPE_CHECKING, Any

from . import _moved, metrics
from ._version import __version__
from .core.lazy import lazy_names

# the public paths that moved answer, with a DeprecationWarning, until 0.2
_moved.install()

if TYPE_CHECKING:
    from .core.errors import (
        BleukitError,
        ConfigError,
        InputError,
        MissingDependencyError,
        PluginError,
        UnknownComponentError,
    )
    from .metrics import *  # noqa: F403

#: public name -> the module it lives in (the metrics' names: ``metrics.PUBLIC``)
_EXPORTS = {
    **{name: f"metrics.{module}" for name, module in metrics.PUBLIC.items()},
    "load_metric": "metrics",
    "BleukitError": "core.errors",
    "ConfigError": "core.errors",
    "InputError": "core.errors",
    "MissingDependencyError": "core.errors",
    "PluginError": "core.errors",
    "UnknownComponentError": "core.errors",
}

__all__ = [
    "BleukitError",
    "ConfigError",
    "InputError",
    "MissingDependencyError",
    "PluginError",
    "UnknownComponentError",
    "__version__",
]
__all__ += metrics.__all__


_get, _listed = lazy_names(_EXPORTS, globals())


def __getattr__(name: str) -> Any:
    return _get(name)


def __dir__() -> list[str]:
    return _listed()
