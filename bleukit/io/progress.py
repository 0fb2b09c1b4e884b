"""A progress line on standard error for long runs.

Shown only when standard error is a terminal and the run has lasted more
than ``DELAY`` seconds, redrawn at most every ``INTERVAL`` seconds, and
erased at the end, so that piped or logged output never holds it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY = 2.0
INTERVAL = 0.25


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
def phase(what: str, stream: TextIO | None = None) -> Iterator[None]:
    """A line naming a long phase that reports no lines (resampling, the
    analyses) with its elapsed seconds, under the same rules as
    ``Progress``; a thread redraws it, as the work may sit in one call
    (the C bootstrap kernel releases the GIL while it runs)."""
    out = stream if stream is not None else sys.stderr
    if not getattr(out, "isatty", lambda: False)():
        yield
        return
    done = threading.Event()
    start = time.monotonic()
    shown = False

    def draw() -> None:
        nonlocal shown
        if done.wait(DELAY):
            return
        while True:
            out.write(f"\rbleukit: {what}, {time.monotonic() - start:.0f} s\x1b[K")
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
