"""Loading a variant by name or path: the raw fields (``config``), validated
(``schema``), or, for a built-in name, the table of built-ins validated when
it was generated (``variants/table.py``), so that the commonest start-up,
``bleukit score -v sacrebleu``, imports neither PyYAML nor pydantic.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import ConfigError
from .model import METRIC_CONFIGS, AnyConfig, VariantConfig, raw_config


def builtin_config(name: str) -> AnyConfig | None:
    """The built-in variant ``name`` as validated, or None for any other
    name (a family name, a modified name, a path)."""
    from ..variants.table import BUILTIN

    data = BUILTIN.get(name)
    if data is None:
        return None
    return METRIC_CONFIGS[data["metric"]](**data) if "metric" in data else VariantConfig(**data)


def load_config(ref: str, overrides: dict[str, Any] | None = None) -> VariantConfig:
    """A validated BLEU variant from a built-in name or a YAML path, with
    overrides (``NAME[key=value,...]`` is a name with overrides)."""
    config = load_any_config(ref, overrides)
    if not isinstance(config, VariantConfig):
        raise ConfigError(
            f"variant {ref}: a {config.metric} variant, not a BLEU one "
            "(bleukit.load_metric loads it)"
        )
    return config


def load_any_config(ref: str, overrides: dict[str, Any] | None = None) -> AnyConfig:
    """A validated variant of any metric: a file or built-in with
    ``metric: chrf.v1`` is a chrF variant, ``metric: ter.v1`` a TER one,
    one without ``metric`` a BLEU variant."""
    if not overrides:
        builtin = builtin_config(ref)
        if builtin is not None:
            return builtin
    from .schema import validate_any

    data, source = raw_config(ref, overrides)
    return validate_any(data, source)
