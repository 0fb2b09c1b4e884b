"""What the library-call benchmarks share: a WMT21 en-de file of
tests/data/wmt repeated to a number of lines, and the best time of a few
runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wmt"


def lines(name: str, count: int) -> list[str]:
    """``newstest2021.en-de.NAME.txt``'s lines, repeated to ``count``."""
    text = (DATA / f"newstest2021.en-de.{name}.txt").read_text(encoding="utf-8").splitlines()
    return (text * (count // len(text) + 1))[:count]


def best(run: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """The least wall time of ``repeats`` runs, and the last run's value."""
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    return min(times), value
