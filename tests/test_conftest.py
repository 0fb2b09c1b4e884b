"""tests/conftest.py's CI switches, as tox.ini sets them: every k-th golden
case of each test (tox -e engine-python), nothing else deselected."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def collected(stride: str | None) -> tuple[int, int]:
    """(selected, deselected) of tests/test_golden.py and tests/test_chrf.py."""
    env = {k: v for k, v in os.environ.items() if k != "BLEUKIT_GOLDEN_STRIDE"}
    if stride:
        env["BLEUKIT_GOLDEN_STRIDE"] = stride
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests/test_golden.py", "tests/test_chrf.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    selected = int(re.search(r"(\d+)(?:/\d+)? tests? collected", out).group(1))
    deselected = re.search(r"(\d+) deselected", out)
    return selected, int(deselected.group(1)) if deselected else 0


def test_the_golden_stride_keeps_every_kth_case_of_each_golden_test():
    everything, none = collected(None)
    kept, dropped = collected("2")
    assert none == 0 and kept + dropped == everything
    # each parametrized golden test keeps its first case and every second one
    # after it; the unparametrized tests and tests/test_chrf.py stay
    assert 0.4 * everything < dropped < 0.5 * everything


def test_the_files_marked_once_are_the_once_list():
    """tox -e golden runs ``-m once``, every other environment ``-m "not
    once"``: together, every test file, each where tests/conftest.py says,
    and the single tests marked ``@pytest.mark.once`` in their files."""
    from conftest import ONCE

    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests", "-m", "once"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    files = {line.split("::")[0].split("/")[-1] for line in out.splitlines() if "::" in line}
    single = {path.name for path in (ROOT / "tests").glob("test_*.py")
              if any(line.startswith("@pytest.mark.once")
                     for line in path.read_text("utf-8").splitlines())}  # fmt: skip
    assert single and not single & ONCE
    assert files == ONCE | single
    assert all((ROOT / "tests" / name).is_file() for name in ONCE)
