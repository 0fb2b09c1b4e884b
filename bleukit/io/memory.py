"""Giving the process's free heap back to the system between long phases.

Reading a corpus a chunk at a time allocates and frees blocks of megabytes
(a chunk's lines, its tokens, a kernel's copy of them). glibc's allocator
raises its mmap threshold to the largest block freed, so later blocks of
that size come from the heap, and the heap keeps the pages they leave free:
``report`` on a million segments held 40 MB of them through its resampling.
``malloc_trim(0)`` returns every free page of the heap (glibc 2.8 and
later); dask.distributed's workers call it for the same reason. Elsewhere
(macOS, Windows, musl) there is nothing to call, and nothing is done.

The other way round, a phase of many kernel calls that each allocate and
free megabytes of scratch (``meta``'s tests) gains from keeping the freed
pages (``keep_freed_heap``): glibc otherwise maps large blocks anew and
gives the heap's free top back once it passes twice the largest block
freed, and every call faults its scratch in again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache


@cache
def _glibc(name: str) -> Callable[..., int] | None:
    """A glibc function from the process's own symbols, or None."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        fn: Callable[..., int] = getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    return fn


def release_free_memory() -> bool:
    """Return the heap's free pages to the system, where the C library can
    (glibc's ``malloc_trim``); whether it could. Call it after a phase that
    freed many large blocks (reading a corpus), before one that holds its
    memory for long (resampling)."""
    trim = _glibc("malloc_trim")
    if trim is None:
        return False
    trim(0)
    return True


#: glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
#: blocks below this come from the heap (glibc's largest threshold on 64-bit)
_MMAP_BELOW = 32 << 20
#: the heap's free top kept up to this
_TRIM_ABOVE = 256 << 20


def keep_freed_heap() -> bool:
    """Keep freed memory in the heap for the rest of the process, where the
    C library allows it (glibc's ``mallopt``): blocks below 32 MB from the
    heap, and its free top given back only past 256 MB (``release_free_memory``
    still gives it all back). Whether it could. A meta grid's tie-calibrated
    PERM-BOTH prepares 30 MB of scratch a pair of variants: with the pages
    kept, its 20 first pairs' preparation took 193-231 ms instead of
    332-449 ms, and the grid's peak RSS rose from 232 to 251-253 MiB."""
    mallopt = _glibc("mallopt")
    if mallopt is None:
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_BELOW) and mallopt(_M_TRIM_THRESHOLD, _TRIM_ABOVE))
