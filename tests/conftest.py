"""Shared test helpers: the WMT data pack in ../shared/data/wmt.

Set BLEUKIT_WMT_DATA to use another copy. When the data is missing, tests
that need it are skipped with the reason shown, unless BLEUKIT_REQUIRE_DATA=1
(set by tox and CI), where its absence is an error.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bleukit.files import read_lines
from bleukit.variant import SharedReferences

REPO = Path(__file__).resolve().parents[1]
WMT_DIR = Path(os.environ.get("BLEUKIT_WMT_DATA", REPO.parent / "shared" / "data" / "wmt"))


class WmtData:
    """Lines of the WMT files and references prepared per tokenization,
    cached for the whole session so that systems share reference work."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lines: dict[str, list[str]] = {}
        self._shared: dict[tuple, SharedReferences] = {}

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
        key = (set_name, tuple(refs))
        if key not in self._shared:
            self._shared[key] = SharedReferences(self.refs(set_name, refs))
        return self._shared[key].for_variant(variant)


def _data_or_skip() -> WmtData:
    if (WMT_DIR / "oracle.json").is_file():
        return WmtData(WMT_DIR)
    message = f"WMT data pack not found at {WMT_DIR}"
    if os.environ.get("BLEUKIT_REQUIRE_DATA") == "1":
        pytest.fail(message + " (BLEUKIT_REQUIRE_DATA=1)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def wmt() -> WmtData:
    return _data_or_skip()
