"""Every Python example in README.md and docs/*.md runs and prints what it shows."""

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples_in_docs(page):
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0


def test_examples_in_module_docstrings():
    import importlib
    import pkgutil

    import bleukit

    failed = 0
    for info in pkgutil.walk_packages(bleukit.__path__, "bleukit."):
        if info.name == "bleukit.__main__":
            continue
        module = importlib.import_module(info.name)
        failed += doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed
    assert failed == 0


def test_docs_have_examples():
    examples = sum(
        doctest.DocTestParser().get_examples(p.read_text("utf-8")).__len__() for p in PAGES
    )
    assert examples >= 25
