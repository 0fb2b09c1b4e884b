"""Shared test helpers: the WMT data pack in tests/data/wmt (its
MANIFEST.md gives the provenance of every file)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from bleukit.io.files import read_lines

REPO = Path(__file__).resolve().parents[1]
WMT_DIR = REPO / "tests" / "data" / "wmt"


class WmtData:
    """Lines of the WMT files and references prepared per tokenization,
    cached for the whole session so that systems share reference work."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lines: dict[str, list[str]] = {}
        self._prepared: dict[tuple, object] = {}

    def lines(self, set_name: str, role: str) -> list[str]:
        name = f"{set_name}.{role}.txt"
        if name not in self._lines:
            self._lines[name] = read_lines(str(self.root / name))
        return self._lines[name]

    def hyps(self, set_name: str, system: str) -> list[str]:
        return self.lines(set_name, f"hyp.{system}")

    def refs(self, set_name: str, refs: list[str]) -> list[list[str]]:
        return [self.lines(set_name, f"ref.{r}") for r in refs]

    def prepared(self, variant, set_name: str, refs: list[str]):
        key = (set_name, tuple(refs), variant.reference_key(), getattr(variant, "stat_order", 0))
        if key not in self._prepared:
            self._prepared[key] = variant.prepare_references(self.refs(set_name, refs))
        return self._prepared[key]


@pytest.fixture(scope="session")
def wmt() -> WmtData:
    return WmtData(WMT_DIR)


@pytest.fixture(scope="session")
def numpy():
    """NumPy, for the tests that compare what bleukit reproduces of it
    (core/pcg64.py, core/float32.py) with NumPy itself: skipped where it is
    not installed, an error with BLEUKIT_REQUIRE_NUMPY=1 (tox -e oracle)."""
    if os.environ.get("BLEUKIT_REQUIRE_NUMPY") == "1":
        import numpy

        return numpy
    return pytest.importorskip("numpy", reason="NumPy not installed (tox -e oracle)")


@dataclass(frozen=True)
class AnalysisCase:
    """Two systems on four segments, analysed (test_profile, test_report_analysis)."""

    refs: tuple[str, ...] = ("the cat sat on the mat", "hello world , how are you ?",
                             "it rains today", "a b c d e f")  # fmt: skip
    base: tuple[str, ...] = ("the cat sat on a mat", "hello world how are you", "it rains",
                             "a b c d e f")  # fmt: skip
    good: tuple[str, ...] = ("the cat sat on the mat", "hello world , how are you ?",
                             "it rains today", "a b c d")  # fmt: skip
    names: tuple[str, ...] = ("base", "good")

    def run(self, variants, top=10, frequencies=None, systems=None):
        from bleukit.analysis import buckets, profile
        from bleukit.corpus.systems import collect

        systems = systems or (self.base, self.good)
        stats = collect(variants, list(zip(self.names, systems)), [list(self.refs)])
        counts = buckets.CorpusCounts(self.names)
        tok = variants[0].display_tokens
        counts.add(tok(list(self.refs)), [tok(list(s)) for s in systems])
        return profile.analyze(variants, stats, counts, "test tokens", frequencies, "refs", top)


@pytest.fixture(scope="session")
def analysis_case() -> AnalysisCase:
    return AnalysisCase()


#: the test files that run once, on Python 3.11 (tox -e golden): their numbers
#: are the recorded tools' and do not move with Python, or what they check is
#: text bleukit writes the same on every Python (the HTML report in Chromium,
#: the LaTeX paper table, this file's own machinery); marked ``once``, so that
#: the other environments leave them out (``-m "not once"``) and CI's shared
#: cores are not spent on them four times
ONCE = frozenset({
    "test_significance_compat.py", "test_golden.py", "test_nist.py", "test_ter.py",
    "test_chrf_variant.py", "test_sacrebleu_signature.py", "test_pytest_plugin.py",
    "test_eed.py", "test_gleu.py", "test_compare_mt_golden.py",
    "test_report.py", "test_paper.py", "test_conftest.py",
})  # fmt: skip


def pytest_collection_modifyitems(config, items):
    """``BLEUKIT_HYPOTHESIS_SCALE`` (tox.ini's other Pythons): every property
    test draws that share of its examples, ten at least. The default Python
    draws them all; CI's time does not hold them four times over.
    ``BLEUKIT_GOLDEN_STRIDE=k`` (tox -e engine-python): of each golden file
    test's cases, every k-th is run (the first, then k on). The files of
    ``ONCE`` are marked ``once``."""
    for item in items:
        if item.path.name in ONCE:
            item.add_marker("once")
    _stride_golden(config, items, os.environ.get("BLEUKIT_GOLDEN_STRIDE"))
    scale = os.environ.get("BLEUKIT_HYPOTHESIS_SCALE")
    if not scale:
        return
    import math

    from hypothesis import settings

    properties = scaled = 0
    for item in items:
        test = getattr(item, "obj", None)
        properties += hasattr(test, "hypothesis")
        # where Hypothesis keeps a test's settings (hypothesis/core.py)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is not None:
            examples = max(10, math.ceil(current.max_examples * float(scale)))
            test._hypothesis_internal_use_settings = settings(current, max_examples=examples)
            scaled += 1
    if properties and not scaled:
        raise pytest.UsageError(
            "BLEUKIT_HYPOTHESIS_SCALE: Hypothesis no longer keeps its settings where "
            "tests/conftest.py looks for them"
        )


def _stride_golden(config, items, stride: str | None) -> None:
    """Every ``stride``-th case of each test of tests/test_golden.py kept,
    the rest deselected (reported as such)."""
    if not stride:
        return
    seen: dict[str, int] = {}
    kept, dropped = [], []
    for item in items:
        if item.path.name != "test_golden.py" or not hasattr(item, "callspec"):
            kept.append(item)
            continue
        index = seen.get(item.originalname, 0)
        seen[item.originalname] = index + 1
        (kept if index % int(stride) == 0 else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(scope="session")
def pip_install(tmp_path_factory):
    """``pip_install(folder)``: a copy of the project in ``folder`` (the
    examples in docs/examples) installed for real, without its dependencies,
    into a fresh directory, which is returned (put it on PYTHONPATH). The
    copy is built, not the tree: parallel tox environments share it."""
    import shutil
    import subprocess
    import sys

    def install(folder: Path) -> Path:
        work = tmp_path_factory.mktemp(folder.name)
        source = work / "src"
        shutil.copytree(folder, source)
        site = work / "site"
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
             str(site), str(source)],
            check=True, capture_output=True,
        )  # fmt: skip
        return site

    return install
