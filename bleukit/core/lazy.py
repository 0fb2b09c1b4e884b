"""Names a module gives only when first asked for (PEP 562's module
``__getattr__``), so that importing a package does not pay for what a
command does not use: ``bleukit``'s own names, and the sacrebleu API's
chrF and TER (``bleukit.compat.sacrebleu``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(
    names: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module's ``__getattr__`` and ``__dir__`` for ``names`` (name ->
    the module that defines it, relative to the module's package), each
    imported when first asked for and then kept in ``namespace`` (the
    module's globals)."""
    module_name, package = namespace["__name__"], namespace["__package__"]

    def get(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        value = getattr(import_module(f".{where}", package), name)
        namespace[name] = value
        return value

    def listed() -> list[str]:
        return sorted({*namespace, *names})

    return get, listed
