"""The metric registry: every metric, built in or a plugin, is one package
behind one ``MetricSpec``, found here and nowhere else.

A metric's versioned name (``chrf.v1``) is what its variants' YAML gives
as ``metric`` (a variant without that key is BLEU's, ``bleu.v1``). Its
spec says which configuration class it fills, which fields change its
score (in signature order), and where its pydantic model, its ``Metric``
class and its signature class live (``module:attribute``, imported on
first use: a spec costs one small module, so that start-up loads only the
metric asked for).

Built-in metrics are found by their package, not by a table: the metric
``NAME.vN`` is the ``METRICS`` of ``bleukit.metrics.NAME`` (``bleukit.metrics.eed``
for ``eed.v1``), so a new metric is one new package. Third-party metrics
plug in through the entry-point group ``bleukit.metrics``: the entry point's
name is the versioned name, its object a ``MetricSpec`` (docs/extending.md,
docs/examples/metric_plugin).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, PluginError, UnknownComponentError
from ..core.record import Record, field_names, has_fields, replace
from ..core.registry import Entry, Registry

if TYPE_CHECKING:
    from pathlib import Path

    from ..config.model import Builtins

#: the metric of a variant whose YAML has no ``metric`` key (compatibility:
#: BLEU variants predate the other metrics, and their files name none)
DEFAULT_METRIC = "bleu.v1"

#: a validated variant of any metric (each metric's configuration class)
AnyConfig = Any


def _resolve(reference: str, metric: str = "") -> Any:
    """The object a ``module:attribute`` reference names; one PluginError
    naming the metric and the reference where it cannot be had (a plugin's
    broken module must not end a score with a traceback)."""
    module, _, attribute = reference.partition(":")
    try:
        return getattr(import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise PluginError(f"metric {metric}: cannot load {reference!r}: {exc}") from None


class MetricSpec(Record):
    """What the rest of bleukit knows of a metric.

    * ``name``: the versioned name its variants' ``metric`` key gives;
    * ``config``: its configuration, a frozen dataclass whose fields are the
      YAML keys (``name`` and ``description`` first) with ``as_dict()``;
    * ``scoring_fields``: the fields that change a score, in signature order;
    * ``model``: the pydantic model (``extra="forbid"``) that validates the
      fields; its fields are the configuration's;
    * ``variant``: the ``bleukit.metrics.base.Metric`` subclass built from a
      configuration as ``cls(config, engine, threads)``;
    * ``signature``: its ``MetricSignature`` class, built as
      ``cls(config, nrefs)``, with ``form.states(text)`` and
      ``parse(text, validate)`` for the metrics written with a ``metric`` key;
    * ``label``: what messages call the metric ("chrF");
    * ``variants``: a folder of built-in variant files (``NAME.yaml``) that
      come with the metric, or None;
    * ``family``: ``module:function`` giving the raw fields of a family
      name (BLEU's ``BLEUw2``: ``extends: BLEUw4``, ``max_order: 2``), None
      for another name; ``family_help`` names the family for messages.
    """

    name: str
    config: type
    scoring_fields: tuple[str, ...]
    model: str
    variant: str
    signature: str
    label: str
    variants: Path | None = None
    family: str | None = None
    family_help: str = ""

    def validate(self, data: Mapping[str, Any], source: str) -> Any:
        """The configuration from raw fields; every problem one ConfigError
        naming ``source`` and the keys (``config.schema.checked``)."""
        from ..config.schema import checked

        model = _resolve(self.model, self.name)
        return self.config(**checked(model, self.scoring_fields, data, source))

    def variant_class(self) -> Any:
        return _resolve(self.variant, self.name)

    def signature_class(self) -> Any:
        return _resolve(self.signature, self.name)


def _check(obj: object) -> MetricSpec:
    """The contract: a MetricSpec whose configuration is a dataclass holding
    every scoring field and (every metric but BLEU) a ``metric`` field."""
    if not isinstance(obj, MetricSpec):
        raise TypeError(f"expected a bleukit.metrics.registry.MetricSpec, got {type(obj).__name__}")
    if not has_fields(obj.config):
        raise TypeError(f"its config {obj.config!r} is not a dataclass or a bleukit Record")
    names = set(field_names(obj.config))
    keyed = () if obj.name == DEFAULT_METRIC else ("metric",)
    missing = [f for f in (*keyed, *obj.scoring_fields) if f not in names]
    if missing:
        raise ValueError(f"its config {obj.config.__name__} has no field {missing[0]!r}")
    for reference in (obj.model, obj.variant, obj.signature, obj.family or ":"):
        if ":" not in reference:
            raise ValueError(f"{reference!r} is not a 'module:attribute' reference")
    return obj


# os.path, not pathlib: a built-in variant's start-up imports neither
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_PACKAGE_CHARS = _LOWER | frozenset("0123456789_")


def _is_package(name: str) -> bool:
    """A metric package's name (``[a-z][a-z0-9_]*``, checked as sets: no
    pattern compiled at start-up) that is a package of bleukit.metrics."""
    return (
        name[:1] in _LOWER
        and _PACKAGE_CHARS.issuperset(name)
        and os.path.isfile(os.path.join(_PACKAGE, name, "__init__.py"))
    )


class MetricRegistry(Registry[MetricSpec]):
    """The registry of metrics. A built-in is registered when its package
    is first imported: asking for ``chrf.v1`` imports ``bleukit.metrics.chrf``
    only; listing the names imports every metric package."""

    def __init__(self) -> None:
        super().__init__("metric", "bleukit.metrics", _check)
        self._imported: set[str] = set()

    def _import(self, package: str) -> None:
        if package in self._imported:
            return
        self._imported.add(package)
        if not _is_package(package):
            return
        for spec in getattr(import_module(f"{__package__}.{package}"), "METRICS", ()):
            self.register(spec.name, _check(spec), (spec.config.__doc__ or "").strip())

    def entry(self, name: str) -> Entry[MetricSpec]:
        if isinstance(name, str) and name:
            self._import(self.canonical(name).rpartition(".v")[0])
        return super().entry(name)

    def builtin_names(self) -> list[str]:
        """The built-in metrics (every metric package imported), no plugin."""
        for name in sorted(os.listdir(_PACKAGE)):
            if _is_package(name):
                self._import(name)
        return sorted(self._builtin)

    def names(self) -> list[str]:
        self.builtin_names()
        return super().names()


#: every metric, by versioned name
METRICS = MetricRegistry()


def metric_name(config: Any) -> str:
    """The versioned name of a configuration's metric."""
    return str(getattr(config, "metric", DEFAULT_METRIC))


def spec_of(config: Any) -> MetricSpec:
    """The spec of the metric a validated configuration configures."""
    return METRICS.get(metric_name(config))


def scoring_fields(config: Any) -> tuple[str, ...]:
    """The fields that can change a variant's score, in signature order."""
    return spec_of(config).scoring_fields


def all_scoring_fields() -> list[str]:
    """Every metric's scoring fields, each once (what ``--set`` takes)."""
    out: dict[str, None] = {}
    for name in METRICS.names():
        out.update(dict.fromkeys(METRICS.get(name).scoring_fields))
    return list(out)


def validate_any(data: Mapping[str, Any], source: str) -> Any:
    """A validated variant of the metric the data's ``metric`` key names
    (no key: BLEU)."""
    metric = data.get("metric", DEFAULT_METRIC)
    try:
        spec = METRICS.get(metric) if isinstance(metric, str) and "." in metric else None
    except UnknownComponentError:
        spec = None
    if spec is None or (metric == DEFAULT_METRIC and "metric" in data):
        known = ", ".join(repr(m) for m in METRICS.names() if m != DEFAULT_METRIC)
        raise ConfigError(f"{source}: key 'metric': expected one of {known} (or no key: BLEU)")
    return spec.validate(data, source)


def metric_for(config: Any, engine: str | None = None, threads: int | None = None) -> Any:
    """The variant (a ``Metric``) of whichever metric ``config`` configures."""
    return spec_of(config).variant_class()(config, engine, threads)


def signature_for(config: Any, nrefs: int | str) -> Any:
    """The signature (a ``base.MetricSignature``) of ``config``'s scores
    with ``nrefs`` references."""
    return spec_of(config).signature_class()(config, nrefs)


def builtin_config(name: str) -> Any | None:
    """The built-in variant ``name`` as validated when the table of
    built-ins was generated (``variants/table.py``), or None for any other
    name (a family name, a modified name, a path, a metric package's own)."""
    from ..variants.table import BUILTIN

    data = BUILTIN.get(name)
    if data is None:
        return None
    return METRICS.get(data.get("metric", DEFAULT_METRIC)).config(**data)


def load_any_config(ref: str, overrides: dict[str, Any] | None = None) -> Any:
    """A validated variant of any metric, by built-in name or YAML path,
    with overrides (``NAME[key=value,...]`` is a name with overrides)."""
    builtin = builtin_config(ref)
    if builtin is not None:
        if not overrides:
            return builtin
        if _restated(builtin, overrides):
            # overrides that give a built-in its own values (the sacrebleu
            # API's defaults): what validating them gives, renamed as any
            # modified variant is, without the validator's start-up
            # (pydantic and the plugins' metadata: 60 ms a command)
            from ..config.model import modified_name

            return replace(builtin, name=modified_name(builtin.name, overrides))
    from ..config.model import raw_config

    data, source = raw_config(ref, overrides, metric_builtins())
    return validate_any(data, source)


def _restated(config: Any, overrides: Mapping[str, Any]) -> bool:
    """Whether every override is a field of ``config`` with that very value
    (of the same type: 0 is no ``False``), the name excepted."""
    names = set(field_names(config))
    return "name" not in overrides and all(
        key in names and type(value) is type(getattr(config, key)) and value == getattr(config, key)
        for key, value in overrides.items()
    )


def load_config_of(metric: str, ref: str, overrides: dict[str, Any] | None) -> Any:
    """``load_any_config``, refusing a variant of another metric than
    ``metric`` with one line that says what loads it."""
    config = load_any_config(ref, overrides)
    if metric_name(config) != metric:
        raise ConfigError(
            f"variant {ref}: a {spec_of(config).label} variant ({metric_name(config)}), not a "
            f"{METRICS.get(metric).label} one (bleukit.load_metric loads it)"
        )
    return config


def metric_variant_folders() -> tuple[Path, ...]:
    """The folders of built-in variant files that metrics bring with them
    (searched after ``bleukit/variants``)."""
    found = (METRICS.get(name).variants for name in METRICS.names())
    return tuple(folder for folder in found if folder is not None)


def family_of(name: str) -> dict[str, Any] | None:
    """The raw fields of a family name of any metric, None for another
    name: the built-in metrics asked first, so that their family names
    need no plugin's metadata read."""
    builtin = METRICS.builtin_names()
    found = _family_among(builtin, name)
    if found is None:  # each plugin once, the built-ins not asked again
        found = _family_among([n for n in METRICS.names() if n not in builtin], name)
    return found


def _family_among(metrics: list[str], name: str) -> dict[str, Any] | None:
    """The raw fields the first of ``metrics`` whose family ``name`` is gives."""
    for spec in (METRICS.get(m) for m in metrics):
        fields_of = _resolve(spec.family, spec.name)(name) if spec.family else None
        if fields_of is not None:
            return fields_of  # type: ignore[no-any-return]
    return None


def family_help() -> str:
    """Every metric's family names, for messages."""
    return ", ".join(
        METRICS.get(n).family_help for n in METRICS.names() if METRICS.get(n).family_help
    )


def metric_builtins() -> Builtins:
    """Built-in variants beside ``bleukit/variants``: the metrics' folders
    and family names."""
    from ..config.model import Builtins

    return Builtins(metric_variant_folders, family_of, family_help)


def validated_builtins(builtins: Builtins | None = None) -> dict[str, dict[str, Any]]:
    """Every built-in variant file's fields, read and validated: those of
    ``bleukit/variants`` (what ``variants/table.py`` holds), and with
    ``builtins`` (``metric_builtins()``) those of the metrics' folders."""
    from ..config.model import NO_BUILTINS, builtin_names, raw_config

    out: dict[str, dict[str, Any]] = {}
    for name in builtin_names(builtins or NO_BUILTINS):
        data, source = raw_config(name, None, builtins or NO_BUILTINS)
        out[name] = validate_any(data, source).as_dict()
    return out
