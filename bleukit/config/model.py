"""Variant configuration: the raw fields of a variant of any metric, read
from YAML with ``extends`` and overrides, and what every metric's validated
configuration shares (``ConfigFields``, ``SignatureKey``). Each metric's
configuration class lives in its package (``bleukit.metrics.NAME.config``),
found through ``bleukit.metrics.registry``; nothing here names one.

A variant fixes every choice that can move a score. Built-in variants are
YAML files shipped in ``bleukit/variants`` and in metric packages (their
``MetricSpec.variants``); a user file may ``extends:`` a built-in name or
another YAML file (a path relative to the extending file) and override any
field. What validates the raw fields is in ``schema`` (imported only when
something needs validating); ``bleukit.metrics.registry`` puts the two
together.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, did_you_mean
from ..core.record import Record, field, fields
from ..core.reflen import REF_LENGTHS
from ..core.registry import Registry
from ..core.smoothing import SMOOTHINGS
from ..tokenizers import SPLITTERS, TOKENIZERS

if TYPE_CHECKING:
    from importlib.abc import Traversable
    from pathlib import Path

    import yaml

MAX_ORDER_LIMIT = 100


class _Any:
    """Marks a SignatureKey without a sacrebleu requirement."""

    def __repr__(self) -> str:
        return "any value"


ANY = _Any()


class SignatureKey(Record):
    """How a scoring field is written in signatures (docs/signatures.md).
    Every field that can change a score declares one: the signature's forms
    and its parser are derived from these declarations (``signature.py``).

    * ``long``, ``short``: the key in the long and short forms;
    * ``spelling``: how each value is written (long, short); None: the value
      as text (a component name, a number);
    * ``bracketed``: the field is written in brackets after the value of the
      field declared before it with the same key (``floor.v1[0.1]``);
    * ``sacrebleu``: the key of sacrebleu's signature that states this field
      (its value: ``sacrebleu_spelling``, or for a component the
      component's ``sacrebleu`` name; a value without one is not
      computable by sacrebleu);
    * ``sacrebleu_requires``: the one value sacrebleu can compute;
    * ``sacrebleu_states``: the one value sacrebleu's signature can state
      (sacrebleu computes others, but its signature would not say so).
    """

    long: str
    short: str
    spelling: Mapping[object, tuple[str, str]] | None = None
    bracketed: bool = False
    sacrebleu: str | None = None
    sacrebleu_spelling: Mapping[object, str] | None = None
    sacrebleu_requires: object = ANY
    sacrebleu_states: object = ANY


#: fields naming a registered component, and their registries
COMPONENT_FIELDS: dict[str, Registry[Any]] = {
    "tokenizer": TOKENIZERS,
    "split": SPLITTERS,
    "ref_length": REF_LENGTHS,
    "smoothing": SMOOTHINGS,
}


def registries() -> dict[str, Registry[Any]]:
    """Every kind of component, by the name ``bleukit components --names``
    takes: the scoring fields' registries, and the engines."""
    from ..engines import ENGINES

    return {
        "tokenizer": TOKENIZERS, "splitter": SPLITTERS, "reflen": REF_LENGTHS,
        "smoothing": SMOOTHINGS, "engine": ENGINES,
    }  # fmt: skip


def declares(key: SignatureKey) -> Any:
    """A scoring field of a configuration, with the signature key it
    declares (see how a metric package's ``config`` module uses it)."""
    return field(metadata={"signature": key})


class ConfigFields:
    """What every metric's configuration (a frozen dataclass) gives: its
    fields as a dict."""

    def as_dict(self) -> dict[str, Any]:
        """Every field, descriptive ones included."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: fields that only describe a variant: every other field of a metric's
#: configuration can change its score (tests/test_config.py checks it)
DESCRIPTIVE_FIELDS = ("name", "description")


# ------------------------------------------------------------------ loading

_BUILTIN_PACKAGE = "bleukit.variants"


def _no_folders() -> tuple[Path, ...]:
    return ()


def _no_family(name: str) -> dict[str, Any] | None:
    return None


def _no_help() -> str:
    return ""


class Builtins(Record):
    """Where built-in variants come from beside ``bleukit/variants``, each
    asked for only when a name is not one of its files
    (``bleukit.metrics.registry.METRIC_BUILTINS`` gives the metrics'):

    * ``folders``: folders of variant files that metric packages bring;
    * ``family``: the raw fields of a family name (a built-in with a field
      set from the name, as BLEU's ``BLEUw2``), None for another name;
    * ``family_help``: the family names, for messages ("" for none).
    """

    folders: Callable[[], tuple[Path, ...]] = _no_folders
    family: Callable[[str], dict[str, Any] | None] = _no_family
    family_help: Callable[[], str] = _no_help


#: ``bleukit/variants`` alone
NO_BUILTINS = Builtins()


def builtin_files(builtins: Builtins = NO_BUILTINS) -> dict[str, Traversable]:
    """Each built-in variant's file by name: ``bleukit/variants`` first,
    then the metric packages' folders (a name in two: the first)."""
    from importlib import resources

    out: dict[str, Traversable] = {}
    for where in (resources.files(_BUILTIN_PACKAGE), *builtins.folders()):
        for f in sorted(where.iterdir(), key=lambda f: f.name):
            if f.name.endswith(".yaml"):
                out.setdefault(f.name[:-5], f)
    return out


def builtin_names(builtins: Builtins = NO_BUILTINS) -> list[str]:
    return sorted(builtin_files(builtins))


#: the longest piece of a YAML error message repeated in ours
_MAX_PROBLEM = 200


def shorten(text: str) -> str:
    return text if len(text) <= _MAX_PROBLEM else text[:_MAX_PROBLEM] + "..."


#: the most values a YAML document may expand to, aliases followed: a
#: variant has a few dozen; "billion laughs" aliases expand to billions
MAX_YAML_VALUES = 10_000


def _check_document(node: yaml.Node, source: str) -> None:
    """A composed document checked before it is built: no mapping key given
    twice (safe_load would keep the last value silently), no alias that
    contains itself, and at most MAX_YAML_VALUES values once aliases are
    expanded. Each distinct node is visited once (aliases share nodes), so
    the check is linear in the text whatever the aliases expand to."""
    import yaml

    def children(n: yaml.Node) -> list[yaml.Node]:
        if isinstance(n, yaml.MappingNode):
            return [part for pair in n.value for part in pair]
        return list(n.value) if isinstance(n, yaml.SequenceNode) else []

    size: dict[int, int] = {}  # values under a node, aliases expanded (capped)
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, finished = stack.pop()
        key = id(current)
        if finished:
            on_path.discard(key)
            total = 1 + sum(size[id(c)] for c in children(current))
            if total > MAX_YAML_VALUES:
                raise ConfigError(
                    f"{source}: the YAML holds more than {MAX_YAML_VALUES:,} values (an alias "
                    "counts its anchor's values again); a variant has a few dozen"
                )
            size[key] = total
            continue
        if key in size:
            continue
        if key in on_path:
            line = current.start_mark.line + 1
            raise ConfigError(f"{source}: line {line}: a YAML alias refers to itself")
        if isinstance(current, yaml.MappingNode):
            seen = set()
            for name, value in current.value:
                if isinstance(name, yaml.ScalarNode):
                    line = name.start_mark.line + 1
                    if name.value in seen:
                        raise ConfigError(
                            f"{source}: line {line}: key {shorten(name.value)!r} is given twice"
                        )
                    seen.add(name.value)
                    digits = _too_long(value)
                    if digits:
                        raise ConfigError(
                            f"{source}: line {line}: key {shorten(name.value)!r}: a number of "
                            f"{digits:,} digits is too long to read"
                        )
        on_path.add(key)
        stack.append((current, True))
        stack.extend((c, False) for c in children(current) if id(c) not in size)


#: the most digits of an integer Python converts from text by default
#: (sys.get_int_max_str_digits(), 4300); no field takes a longer one
_MAX_DIGITS = 4300


def _too_long(node: yaml.Node) -> int:
    """The digits of an integer too long to convert in a key's value (a
    scalar, or a list's item), 0 where there is none: found before
    ``int()`` fails, so that the error names the key."""
    import yaml

    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    for item in items:
        if (
            isinstance(item, yaml.ScalarNode)
            and item.tag == "tag:yaml.org,2002:int"
            and len(item.value) > _MAX_DIGITS
        ):
            return len(item.value)
    return 0


def safe_yaml(text: str, source: str) -> Any:
    """``yaml.safe_load`` of ``text``, with every failure one ConfigError
    naming ``source``: invalid YAML (its line), a key given twice, nesting
    too deep to read, a number too long to convert. PyYAML is imported here:
    a built-in variant by name never reads YAML (``variants/table.py``)."""
    import yaml

    try:
        return _load_checked(text, source)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{source}:{where} invalid YAML: {shorten(problem)}") from None
    except RecursionError:
        raise ConfigError(f"{source}: invalid YAML: nested too deeply to read") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        problem = "a number too long to read" if "digits" in str(exc) else shorten(str(exc))
        raise ConfigError(f"{source}: invalid YAML: {problem}") from None


def _load_checked(text: str, source: str) -> Any:
    """One parse: the composed document is checked (``_check_document``),
    then constructed (yaml.safe_load's two steps, with the check between)."""
    import yaml

    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_document(node, source)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _read_yaml(text: str, source: str) -> dict[str, Any]:
    data = safe_yaml(text, source)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a variant must be a YAML mapping of keys to values")
    return data


def _raw_builtin(name: str, builtins: Builtins) -> dict[str, Any]:
    if not name.strip():
        # what an unset shell variable gives (-v "$VARIANT"): never the default
        raise ConfigError("empty variant name: give a variant's name or a .yaml path")
    found = builtin_files().get(name) or builtin_files(builtins).get(name)
    if found is None:
        family = builtins.family(name)
        if family is not None:
            return family
        names = builtin_names(builtins)
        families = builtins.family_help()
        raise ConfigError(
            f"unknown variant {shorten(name)!r}; {did_you_mean(name, names)}"
            f"built-in variants: {', '.join(names)}"
            f"{f', and {families}' if families else ''} (or give the path of a .yaml file)"
        )
    return _read_yaml(found.read_text(encoding="utf-8"), f"built-in variant {name}")


#: the largest variant file read: a variant is a few hundred bytes, and a
#: large file given by mistake (a corpus, a foreign YAML) should fail fast
MAX_VARIANT_BYTES = 1 << 20


def _raw_file(path: Path) -> dict[str, Any]:
    try:
        # what is read is capped, not what stat says: a device (/dev/zero,
        # /dev/urandom) or a pipe has no size and no end
        with path.open("rb") as fh:
            data = fh.read(MAX_VARIANT_BYTES + 1)
        if len(data) > MAX_VARIANT_BYTES:
            raise ConfigError(
                f"{path}: more than {MAX_VARIANT_BYTES:,} bytes is no variant file (a variant "
                "is a few hundred)"
            )
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: variant file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read variant file: {exc}") from None
    return _read_yaml(text, str(path))


def looks_like_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def resolve_raw(
    ref: str,
    base: Path | None = None,
    seen: tuple[str, ...] = (),
    builtins: Builtins = NO_BUILTINS,
) -> tuple[dict[str, Any], str]:
    """Merge a variant with everything it extends. Returns (fields, source)."""
    if "\0" in ref:  # no file system takes it: os calls would raise ValueError
        raise ConfigError(f"variant {shorten(ref)!r}: a name or path cannot contain a NUL byte")
    if looks_like_path(ref):
        from pathlib import Path  # a file's variant: not the start-up of a built-in

        path = Path(ref)
        if base is not None and not path.is_absolute():
            path = base / path
        key, source = str(path.resolve()), str(path)
        data, parent_base = _raw_file(path), path.parent
    else:
        key, source = f"builtin:{ref}", f"built-in variant {ref}"
        data = _raw_builtin(ref, builtins)
        parent_base = None
    if key in seen:
        raise ConfigError(f"{source}: 'extends' forms a cycle")
    parent = data.pop("extends", None)
    if looks_like_path(ref):
        # a file without a name is called after the file
        data.setdefault("name", path.stem)
    if parent is None:
        return data, source
    if not isinstance(parent, str):
        raise ConfigError(f"{source}: key 'extends' must be a variant name or a file path")
    merged, _ = resolve_raw(parent, parent_base, (*seen, key), builtins)
    # the extending file's name and description replace the parent's
    merged.pop("description", None)
    merged.pop("name", None)
    return merge(merged, data), source


def merge(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``base`` updated with ``changes``. A field ``X_value`` is the value of
    the component field ``X`` (BLEU's ``smoothing_value``): changing ``X``
    without giving one drops the old component's value, so the new one's
    default applies instead of a value meant for another component."""
    out = dict(base)
    for key in changes:
        if f"{key}_value" in base and f"{key}_value" not in changes:
            out[f"{key}_value"] = None
    out.update({k: tuple(v) if isinstance(v, list) else v for k, v in changes.items()})
    return out


def with_overrides(data: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Apply overrides; a modified variant is renamed ``NAME[key=value,...]``
    so that it never passes for the original in a report."""
    out = merge(data, overrides)
    if data.get("name") and "name" not in overrides:
        out["name"] = modified_name(data["name"], overrides)
    return out


def modified_name(name: str, overrides: Mapping[str, Any]) -> str:
    """The name of variant ``name`` with ``overrides``: ``NAME[key=value,...]``,
    the overrides it already names included."""
    base, earlier = split_name(name)
    changed = {**earlier, **overrides}
    return f"{base}[{','.join(f'{k}={changed[k]}' for k in sorted(changed))}]"


def parse_override(text: str) -> tuple[str, Any]:
    """``key=value`` from the command line; the value is read as YAML."""
    if "=" not in text:
        raise ConfigError(f"--set {text!r}: expected key=value")
    key, raw = text.split("=", 1)
    key = key.strip()
    value = safe_yaml(raw, f"--set {key}") if raw.strip() else None
    if isinstance(value, list):
        value = tuple(value)
    return key, value


_WITH_OVERRIDES = r"^(?P<base>[^\[\]]+)\[(?P<overrides>[^\[\]]*)\]$"


def split_name(ref: str) -> tuple[str, dict[str, Any]]:
    """``BLEUw4[max_order=2,lowercase=true]`` -> ("BLEUw4", overrides): the
    name a modified variant carries in reports loads back as that variant.
    Values are YAML scalars, or tuples in parentheses (``weights=(0.5, 0.5)``)."""
    m = re.match(_WITH_OVERRIDES, ref)
    if m is None:
        return ref, {}
    # a tuple value (weights=(0.5, 0.5), as a modified name writes it) is one piece
    pairs = [p for p in _split_top_level(m["overrides"], "(", ")") if p.strip()]
    return m["base"], dict(parse_override(_tuple_as_yaml(p)) for p in pairs)


def _split_top_level(text: str, opening: str, closing: str) -> list[str]:
    """Split at the commas outside ``opening``...``closing`` pairs."""
    pieces, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == opening) - (ch == closing)
        if ch == "," and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += ch
    return [*pieces, current]


def _tuple_as_yaml(pair: str) -> str:
    """``key=(a, b)`` -> ``key=[a, b]``, the YAML flow list parse_override reads
    (the name cannot hold brackets: they delimit the overrides)."""
    key, sep, value = pair.partition("=")
    value = value.strip()
    if sep and value.startswith("(") and value.endswith(")"):
        return f"{key}=[{value[1:-1]}]"
    return pair


def split_variant_list(text: str) -> list[str]:
    """``BLEUw4,BLEUw4[max_order=2,lowercase=true],BLEUc18`` -> three names:
    commas inside brackets belong to the name."""
    names = [n.strip() for n in _split_top_level(text, "[", "]") if n.strip()]
    if not names:
        raise ConfigError("no variant given")
    return names


def raw_config(
    ref: str, overrides: dict[str, Any] | None, builtins: Builtins = NO_BUILTINS
) -> tuple[dict[str, Any], str]:
    """The fields of a variant by name or path, with everything it extends
    and the overrides applied (not yet validated), and its source."""
    ref, in_name = split_name(ref)
    overrides = {**in_name, **(overrides or {})}
    data, source = resolve_raw(ref, builtins=builtins)
    if overrides:
        data = with_overrides(data, overrides)
        source = f"{source} (with overrides {', '.join(sorted(overrides))})"
    if isinstance(data.get("weights"), list):
        data["weights"] = tuple(data["weights"])
    return data, source
