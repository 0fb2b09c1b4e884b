"""Optional extras: every integration module imports without its
dependency, and using it without the dependency is one MissingDependencyError
naming the extra to install (each case runs where that dependency is
absent)."""

from __future__ import annotations

import importlib.util

import pytest

from bleukit.core.errors import MissingDependencyError

CASES = [
    ("dask", "bleukit.dask", lambda m: m.corpus_score(None, "hyp", "ref"), "bleukit[dask]"),
    ("pyspark", "bleukit.spark", lambda m: m.corpus_score(None, "hyp", "ref"), "bleukit[spark]"),
    ("torch", "bleukit.torch", lambda m: m.sentence_bleu(None, None), "bleukit[torch]"),
    ("torchmetrics", "bleukit.torchmetrics", lambda m: m.BLEU(), "bleukit[torchmetrics]"),
    ("pyarrow", "bleukit.corpus.parquet", lambda m: m.corpus_score(None, "x", "hyp", ["ref"]),
     "bleukit[arrow]"),
]  # fmt: skip


@pytest.mark.parametrize(("dependency", "module", "use", "extra"), CASES, ids=[c[0] for c in CASES])
def test_a_missing_extra_is_one_clear_error(dependency, module, use, extra):
    if importlib.util.find_spec(dependency) is not None:
        pytest.skip(f"{dependency} is installed here")
    imported = importlib.import_module(module)
    with pytest.raises(MissingDependencyError, match=f"pip install '{extra}'".replace("[", r"\[")):
        use(imported)
