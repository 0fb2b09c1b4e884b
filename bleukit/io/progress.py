"""A progress line on standard error for long runs.

Shown only when standard error is a terminal and the run has lasted more
than ``DELAY`` seconds, redrawn at most every ``INTERVAL`` seconds, and
erased at the end, so that piped or logged output never holds it.

A phase (``phase``) that resamples counts its work on a ``Meter``: the
library plans how many resamples (or trials) it will run (``plan``), and
the engines count those done, the compiled kernels in the meter's buffer
as they go (``counter``), so that the line gives done/total, the rate and
the time left. Where more than ``LONG`` seconds are left once the rate is
known, one line (kept) says how long the phase will take and that the time
grows with ``--samples``.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO

DELAY = 2.0
INTERVAL = 0.25
#: a phase with more than this many seconds left gets a line saying so
LONG = 60.0
#: the unit the resampling kernels count in (a stage of another unit, such
#: as meta's variants, is not counted by them)
RESAMPLES = "resamples or trials"


class Meter:
    """The work of a phase: ``total`` planned, ``done`` counted (by Python
    code with ``add``, by compiled kernels in ``buffer``, a native int64
    they add to atomically), in ``unit``; ``label``: the stage of the phase
    it counts (``stage``), else None."""

    def __init__(self, unit: str = RESAMPLES) -> None:
        self.total = 0
        self._added = 0
        self.buffer = bytearray(8)
        self.unit = unit
        self.label: str | None = None
        self.started = time.monotonic()

    def add(self, count: int) -> None:
        self._added += count

    @property
    def done(self) -> int:
        return self._added + int.from_bytes(self.buffer, sys.byteorder)

    def stage(self, label: str, total: int, unit: str) -> None:
        """Count a new stage of the phase from zero: ``total`` ``unit``."""
        self.label, self.total, self.unit = label, total, unit
        self._added = 0
        self.buffer[:] = bytes(8)
        self.started = time.monotonic()


_ACTIVE: ContextVar[Meter | None] = ContextVar("bleukit_meter", default=None)


def plan(count: int) -> None:
    """Add ``count`` resamples or trials to the running phase's total."""
    meter = _ACTIVE.get()
    if meter is not None:
        meter.total += count


def stage(label: str, total: int, unit: str) -> None:
    """Start counting a stage of the running phase (``meta``: measuring the
    variants, then testing them): ``total`` ``unit``, each ``advance``d."""
    meter = _ACTIVE.get()
    if meter is not None:
        meter.stage(label, total, unit)


def advance(count: int = 1) -> None:
    """``count`` more of the running phase's work done."""
    meter = _ACTIVE.get()
    if meter is not None:
        meter.add(count)


def counter() -> Meter | None:
    """The running phase's meter, for an engine to count its resamples and
    trials on (None: no phase is counting them)."""
    meter = _ACTIVE.get()
    return meter if meter is not None and meter.unit == RESAMPLES else None


def _seconds(value: float) -> str:
    value = round(value)
    if value < 120:
        return f"{value} s"
    return f"{value // 60} min {value % 60:02d} s"


class Progress:
    def __init__(self, what: str, total: int | None, stream: TextIO | None = None) -> None:
        self.what = what
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = self._last = time.monotonic()
        self.done = 0
        self._shown = False

    def advance(self, lines: int) -> None:
        self.done += lines
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < DELAY or now - self._last < INTERVAL:
            return
        self._last = now
        rate = self.done / (now - self.start)
        text = f"bleukit: {self.what}: {self.done:,} lines"
        if self.total:
            text += f" of {self.total:,} ({100 * self.done / self.total:.0f}%)"
        self.stream.write(f"\r{text}, {rate:,.0f} lines/s\x1b[K")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False


@contextmanager
def phase(what: str, stream: TextIO | None = None) -> Iterator[Meter]:
    """A line naming a long phase (resampling, the analyses) with its
    elapsed seconds, and where the phase plans its work, done/total, the
    rate and the time left; under the same rules as ``Progress``. A thread
    redraws it, as the work may sit in one call (the C bootstrap kernel
    releases the GIL while it runs)."""
    out = stream if stream is not None else sys.stderr
    meter = Meter()
    token = _ACTIVE.set(meter)
    try:
        if not getattr(out, "isatty", lambda: False)():
            yield meter
            return
        with _drawn(what, meter, out):
            yield meter
    finally:
        _ACTIVE.reset(token)


@contextmanager
def _drawn(what: str, meter: Meter, out: TextIO) -> Iterator[None]:
    done = threading.Event()
    start = time.monotonic()
    shown = False

    said: set[str] = set()

    def name() -> str:
        return what if meter.label is None else f"{what}: {meter.label}"

    def line() -> str:
        count, total = meter.done, meter.total
        if not total or not count:
            return f"bleukit: {name()}, {time.monotonic() - start:.0f} s"
        rate = count / (time.monotonic() - meter.started)
        left = max(0.0, (total - count) / rate)
        return (
            f"bleukit: {name()}: {count:,} of {total:,} ({100 * count / total:.0f}%), "
            f"{rate:,.1f}/s, {_seconds(left)} left"
        )

    def estimate() -> str | None:
        count, total = meter.done, meter.total
        if not total or not count or count >= total or name() in said:
            return None
        elapsed = time.monotonic() - meter.started
        left = (total - count) * elapsed / count
        if left <= LONG:
            return None
        said.add(name())
        more = "; the time grows with --samples" if meter.unit == RESAMPLES else ""
        return (
            f"bleukit: {name()} will take about {_seconds(elapsed + left)} in all "
            f"({total:,} {meter.unit}){more}\n"
        )

    def draw() -> None:
        nonlocal shown
        if done.wait(DELAY):
            return
        while True:
            text = estimate()
            if text is not None:
                out.write("\r\x1b[K" + text)
            out.write(f"\r{line()}\x1b[K")
            out.flush()
            shown = True
            if done.wait(INTERVAL):
                return

    thread = threading.Thread(target=draw, name="bleukit-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if shown:
            out.write("\r\x1b[K")
            out.flush()
