"""Public import paths that moved, kept for one minor version: importing
one gives the module at its new path and a ``DeprecationWarning`` that names
it (docs/api.md, "Moved paths"). No module file is kept for them: an import
finder on ``sys.meta_path`` answers for exactly these names.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from types import ModuleType

#: the release that removes them
REMOVED_IN = "0.2"

#: old path -> new path
MOVED = {
    "bleukit.agreement": "bleukit.analysis.agreement",
    "bleukit.chrf_variant": "bleukit.metrics.chrf.variant",
    "bleukit.errors": "bleukit.core.errors",
    "bleukit.files": "bleukit.io.files",
    "bleukit.smoothing": "bleukit.core.smoothing",
    "bleukit.spec": "bleukit.core.spec",
    "bleukit.streaming": "bleukit.corpus.streaming",
    "bleukit.variant": "bleukit.metrics.bleu.variant",
    "bleukit.verify": "bleukit.analysis.verify",
}


class _Alias:
    """The loader of an old path: the module at its new path, with the
    warning (importlib's Loader protocol; the ABC is not imported, to keep
    ``import bleukit`` light)."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new}; the old path is removed in bleukit "
            f"{REMOVED_IN}: import {self.new}",
            DeprecationWarning,
            stacklevel=2,
        )
        module = importlib.import_module(self.new)
        # importlib sets __spec__ to the old path's after this returns: the
        # module keeps its own (its relative imports read it)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new path's, already executed: only its own
        spec is put back."""
        module.__spec__ = self.own_spec


class MovedFinder:
    """Finds the moved paths (``MOVED``), and nothing else (importlib's
    MetaPathFinder protocol)."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))  # type: ignore[arg-type]


def install() -> None:
    """Put the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(MovedFinder())
