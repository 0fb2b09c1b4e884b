"""Registries of versioned components, with entry-point plugins.

Every behavioural choice in bleukit (tokenizer, token splitter, reference
length policy, smoothing method) is a component registered under a versioned
name such as ``13a.v1``. A component whose behaviour changes is registered
under a new version; an existing version is never edited, so a name in a
signature always means the same computation.

A bare name (``13a``) always means ``.v1``: adding ``13a.v2`` later never
changes what ``13a`` computes.

Third-party components are discovered through the entry-point group named by
the registry (for example ``bleukit.tokenizers``). The entry-point name is the
versioned component name; the object it points to is the component. Built-in
names cannot be shadowed, and two plugins claiming one name is an error that
names both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata
from typing import Generic, TypeVar

from .errors import UnknownComponentError

T = TypeVar("T")

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_+-]*\.v[1-9][0-9]*$")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """A registered component and where it came from."""

    name: str
    component: T
    origin: str
    description: str


class Lazy:
    """A built-in component whose construction imports an optional extra:
    built on first use, so that importing bleukit never imports it."""

    def __init__(self, factory: Callable[[], object]) -> None:
        self._factory = factory
        self._instance: object | None = None

    def instance(self) -> object:
        if self._instance is None:
            self._instance = self._factory()
        return self._instance


def _entry_points(group: str) -> Iterable[metadata.EntryPoint]:
    return metadata.entry_points(group=group)


class Registry(Generic[T]):
    """Versioned names to components, built-ins first, then entry points."""

    def __init__(
        self,
        kind: str,
        group: str,
        check: Callable[[object], T] | None = None,
    ) -> None:
        self.kind = kind
        self.group = group
        self._check = check
        self._builtin: dict[str, Entry[T]] = {}
        self._plugins: dict[str, Entry[T]] | None = None

    def register(self, name: str, component: T, description: str) -> T:
        """Register a built-in component (used by bleukit itself)."""
        if not NAME_PATTERN.match(name):
            raise ValueError(f"{self.kind} name {name!r} is not of the form NAME.vN")
        if name in self._builtin:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        self._builtin[name] = Entry(name, component, "builtin", description)
        return component

    def _load_plugins(self) -> dict[str, Entry[T]]:
        if self._plugins is not None:
            return self._plugins
        found: dict[str, Entry[T]] = {}
        for ep in _entry_points(self.group):
            origin = f"{ep.value} (entry point {ep.name!r} in group {self.group})"
            dist = getattr(ep, "dist", None)
            if dist is not None:
                origin = f"{dist.metadata['Name']} {dist.version}: {origin}"
            if not NAME_PATTERN.match(ep.name):
                raise UnknownComponentError(
                    f"plugin {self.kind} {ep.name!r} from {origin} is not named NAME.vN"
                )
            if ep.name in self._builtin:
                raise UnknownComponentError(
                    f"plugin {self.kind} {ep.name!r} from {origin} would shadow the "
                    f"built-in {ep.name!r}; built-in components cannot be replaced"
                )
            if ep.name in found:
                raise UnknownComponentError(
                    f"two plugins register {self.kind} {ep.name!r}: "
                    f"{found[ep.name].origin} and {origin}"
                )
            try:
                obj = ep.load()
            except Exception as exc:  # a broken plugin must not crash with a traceback
                raise UnknownComponentError(
                    f"plugin {self.kind} {ep.name!r} from {origin} failed to load: {exc}"
                ) from exc
            component = self._check(obj) if self._check else obj
            doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
            found[ep.name] = Entry(ep.name, component, origin, doc[0] if doc else "")
        self._plugins = found
        return found

    def reset_plugins(self) -> None:
        """Forget discovered plugins (for tests that install or fake them)."""
        self._plugins = None

    def canonical(self, name: str) -> str:
        """The versioned name ``name`` refers to; bare names mean ``.v1``."""
        if not isinstance(name, str) or not name:
            raise UnknownComponentError(f"{self.kind} name must be a non-empty string")
        if re.search(r"\.v[0-9]+$", name):
            return name
        return f"{name}.v1"

    def entry(self, name: str) -> Entry[T]:
        full = self.canonical(name)
        if full in self._builtin:
            return self._builtin[full]
        plugins = self._load_plugins()
        if full in plugins:
            return plugins[full]
        raise UnknownComponentError(
            f"unknown {self.kind} {name!r}; available: {', '.join(self.names())}"
        )

    def get(self, name: str) -> T:
        component = self.entry(name).component
        if isinstance(component, Lazy):
            return component.instance()  # type: ignore[return-value]
        return component

    def names(self) -> list[str]:
        return sorted(self._builtin) + sorted(self._load_plugins())

    def entries(self) -> list[Entry[T]]:
        return [self.entry(n) for n in self.names()]
