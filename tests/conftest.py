"""Shared test helpers: the WMT data pack in tests/data/wmt (its
MANIFEST.md gives the provenance of every file)."""

from __future__ import annotations

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
