"""Registries of versioned components, with entry-point plugins.

Every behavioural choice in bleukit (tokenizer, token splitter, reference
length policy, smoothing method) is a component registered under a versioned
name such as ``13a.v1``. A component whose behaviour changes is registered
under a new version; an existing version is never edited, so a name in a
signature always means the same computation.

A bare name (``13a``) always means ``.v1``: adding ``13a.v2`` later never
changes what ``13a`` computes. Engines are the exception: they compute the
same numbers, are not part of any signature, and are named without a
version (``c``, ``python``).

Third-party components are discovered through the entry-point group named by
the registry (for example ``bleukit.tokenizers``). The entry-point name is the
versioned component name; the object it points to is the component. Each
registry checks what a plugin gives it (its contract: a tokenizer must map a
line to a string, a smoothing method must be a ``Smoothing``...), and every
way a plugin can be broken is one :class:`~bleukit.core.errors.PluginError` that
names the plugin, its entry point and its distribution. Built-in names
cannot be shadowed, and two plugins claiming one name is an error that names
both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Generic, TypeVar

from .errors import PluginError, UnknownComponentError, did_you_mean
from .record import Record

if TYPE_CHECKING:
    from importlib import metadata

T = TypeVar("T")

# the names' characters, checked as sets: every command registers dozens of
# built-ins, and the regular expressions this replaces cost a start 0.3 ms
# to compile
_FIRST = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_NAME = _FIRST | frozenset("_+-")


def _version_split(name: str) -> tuple[str, str | None]:
    """``name`` without its version ending ``.vN`` (N: ASCII digits), and N
    (None: it has no such ending)."""
    head, dot, version = name.rpartition(".v")
    if dot and version.isascii() and version.isdigit():
        return head, version
    return name, None


def has_version(name: str) -> bool:
    """Whether ``name`` ends in a version, ``.vN``."""
    return _version_split(name)[1] is not None


def is_component_name(name: str, versioned: bool = True) -> bool:
    """``[a-z0-9][a-z0-9_+-]*``, with ``.vN`` after it (N from 1, no
    leading zero) where ``versioned``."""
    if versioned:
        name, version = _version_split(name)
        if version is None or version[0] == "0":
            return False
    return name[:1] in _FIRST and _NAME.issuperset(name)


class Entry(Record, Generic[T]):
    """A registered component and where it came from: ``origin`` is
    "builtin" or the plugin's distribution, version and entry point;
    ``provenance`` (plugins only) is ``DIST==VERSION``, which long
    signatures carry after the component's name."""

    name: str
    component: T
    origin: str
    description: str
    provenance: str | None = None


class Lazy:
    """A built-in component built on first use: its construction imports
    an optional extra, or a module that start-up need not import (a
    tokenizer that a 13a score never uses). ``attributes`` are known
    without building it (e.g. ``sacrebleu``, the name sacrebleu gives the
    component; tests/test_tokenizers.py checks they are the built one's)."""

    def __init__(self, factory: Callable[[], object], **attributes: object) -> None:
        self._factory = factory
        self._instance: object | None = None
        self.__dict__.update(attributes)

    def instance(self) -> object:
        if self._instance is None:
            self._instance = self._factory()
        return self._instance


def _entry_points(group: str) -> Iterable[metadata.EntryPoint]:
    # imported here: reading installed distributions' metadata costs
    # start-up time, and built-in names never need it
    from importlib import metadata

    return metadata.entry_points(group=group)


def _why(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    return str(exc) or type(exc).__name__


class Registry(Generic[T]):
    """Names to components, built-ins first, then entry points.

    ``check`` turns what a plugin's entry point loads into the component
    (instantiating a class, say) and raises ``TypeError`` or ``ValueError``
    saying why it is not one; the registry reports that as a PluginError.
    """

    def __init__(
        self,
        kind: str,
        group: str,
        check: Callable[[object], T],
        versioned: bool = True,
    ) -> None:
        self.kind = kind
        self.group = group
        self._check = check
        self._versioned = versioned
        self._builtin: dict[str, Entry[T]] = {}
        self._plugins: dict[str, Entry[T]] | None = None
        # broken plugins by entry-point name: each is reported where it is
        # asked for, and listed (``broken``), without hiding the others
        self._broken_plugins: dict[str, PluginError] = {}

    @property
    def _form(self) -> str:
        return "NAME.vN" if self._versioned else "a lowercase NAME"

    def register(self, name: str, component: T, description: str) -> T:
        """Register a built-in component (used by bleukit itself)."""
        if not is_component_name(name, self._versioned):
            raise ValueError(f"{self.kind} name {name!r} is not of the form {self._form}")
        if name in self._builtin:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        self._builtin[name] = Entry(name, component, "builtin", description)
        return component

    def check(self, obj: object) -> T:
        """What ``obj`` is as a component of this registry (TypeError or
        ValueError when it is not one): the plugin contract."""
        return self._check(obj)

    def _load_plugins(self) -> dict[str, Entry[T]]:
        if self._plugins is not None:
            return self._plugins
        found: dict[str, Entry[T]] = {}
        broken: dict[str, PluginError] = {}
        for ep in _entry_points(self.group):
            where = f"{ep.value} (entry point {ep.name!r} in group {self.group})"
            dist = getattr(ep, "dist", None)
            provenance = None
            if dist is not None:
                provenance = f"{dist.metadata['Name']}=={dist.version}"
                where = f"{dist.metadata['Name']} {dist.version}: {where}"
            if ep.name in found or ep.name in broken:
                first = found[ep.name].origin if ep.name in found else "another plugin"
                found.pop(ep.name, None)
                broken[ep.name] = PluginError(
                    f"two plugins register {self.kind} {ep.name!r}: {first} and {where}"
                )
                continue
            try:
                entry = self._load_one(ep, where, provenance)
            except PluginError as exc:
                broken[ep.name] = exc
                continue
            found[ep.name] = entry
        self._plugins, self._broken_plugins = found, broken
        return found

    def _load_one(self, ep: metadata.EntryPoint, where: str, provenance: str | None) -> Entry[T]:
        """One plugin's entry, or the PluginError saying why it is broken."""
        if not is_component_name(ep.name, self._versioned):
            raise self._broken(ep.name, where, f"is not named {self._form}")
        if ep.name in self._builtin:
            raise self._broken(
                ep.name,
                where,
                f"would shadow the built-in {ep.name!r}; built-in components cannot be replaced",
            )
        # SystemExit too: a plugin that exits while loading must not end bleukit
        try:
            obj = ep.load()
        except (Exception, SystemExit) as exc:  # a broken plugin must not crash with a traceback
            raise self._broken(ep.name, where, f"failed to load: {_why(exc)}") from exc
        try:
            component = self._check(obj)
        except (Exception, SystemExit) as exc:  # the contract, or the plugin's own code, failed
            raise self._broken(ep.name, where, f"is not a valid {self.kind}: {_why(exc)}") from exc
        doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
        return Entry(ep.name, component, where, doc[0] if doc else "", provenance)

    def broken(self) -> dict[str, PluginError]:
        """The plugins of this registry that could not be loaded, by name."""
        self._load_plugins()
        return dict(self._broken_plugins)

    def _broken(self, name: str, where: str, why: str) -> PluginError:
        return PluginError(f"plugin {self.kind} {name!r} from {where} {why}")

    def reset_plugins(self) -> None:
        """Forget discovered plugins (for tests that install or fake them)."""
        self._plugins = None
        self._broken_plugins = {}

    def canonical(self, name: str) -> str:
        """The name ``name`` refers to; bare names mean ``.v1`` (versioned
        registries)."""
        if not isinstance(name, str) or not name:
            raise UnknownComponentError(f"{self.kind} name must be a non-empty string")
        if not self._versioned or has_version(name):
            return name
        return f"{name}.v1"

    def entry(self, name: str) -> Entry[T]:
        full = self.canonical(name)
        if full in self._builtin:
            return self._builtin[full]
        plugins = self._load_plugins()
        if full in plugins:
            return plugins[full]
        for asked in (full, name):  # a misnamed plugin is known by its own name
            if asked in self._broken_plugins:
                raise self._broken_plugins[asked]
        # each broken plugin named with where it comes from and why: one
        # that shadows a built-in, or fails to load, may be the one meant
        broken = (
            f" (broken plugins: {'; '.join(map(str, self._broken_plugins.values()))})"
            if self._broken_plugins
            else ""
        )
        raise UnknownComponentError(
            f"unknown {self.kind} {name!r}; {self._closest(name)}"
            f"available: {', '.join(self.names())}{broken}"
        )

    def _closest(self, name: str) -> str:
        """The names a mistyped one may mean, compared without versions
        (a version that does not exist: every version of the name)."""

        def bare(text: str) -> str:
            return _version_split(text)[0].casefold()

        names = self.names()
        versions = [n for n in names if bare(n) == bare(name)]
        if versions:
            return f"did you mean {' or '.join(versions)}? "
        return did_you_mean(bare(name), {bare(n): n for n in reversed(names)})

    def shadowed(self, name: str) -> str:
        """Where ``name`` is a built-in that a plugin also registers (the
        plugin is not used: built-ins cannot be replaced), what an error
        about that component adds, naming the plugin; else "". It loads the
        plugins, so only an error's path calls it, never a lookup."""
        full = self.canonical(name) if isinstance(name, str) and name else ""
        if full not in self._builtin:
            return ""
        self._load_plugins()
        broken = self._broken_plugins.get(full)
        return f" (and note: {broken})" if broken is not None else ""

    def get(self, name: str) -> T:
        component = self.entry(name).component
        if isinstance(component, Lazy):
            return component.instance()  # type: ignore[return-value]
        return component

    def names(self) -> list[str]:
        return sorted(self._builtin) + sorted(self._load_plugins())

    def entries(self) -> list[Entry[T]]:
        return [self.entry(n) for n in self.names()]

    def builtin_entries(self) -> list[Entry[T]]:
        """The built-in entries alone, by name: ``entries`` without reading
        any plugin's metadata (15 ms of a command's start-up)."""
        return [self._builtin[n] for n in sorted(self._builtin)]
