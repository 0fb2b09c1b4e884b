"""Giving the process's free heap back to the system between long phases.

Reading a corpus a chunk at a time allocates and frees blocks of megabytes
(a chunk's lines, its tokens, a kernel's copy of them). glibc's allocator
raises its mmap threshold to the largest block freed, so later blocks of
that size come from the heap, and the heap keeps the pages they leave free:
``report`` on a million segments held 40 MB of them through its resampling.
``malloc_trim(0)`` returns every free page of the heap (glibc 2.8 and
later); dask.distributed's workers call it for the same reason. Elsewhere
(macOS, Windows, musl) there is nothing to call, and nothing is done.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` from the process's own symbols, or None."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has none)
        return None
    return trim


def release_free_memory() -> bool:
    """Return the heap's free pages to the system, where the C library can
    (glibc's ``malloc_trim``); whether it could. Call it after a phase that
    freed many large blocks (reading a corpus), before one that holds its
    memory for long (resampling)."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
