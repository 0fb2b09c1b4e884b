"""Threads for engines whose kernel releases the GIL."""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from typing import TypeVar

from ..errors import ConfigError

T = TypeVar("T")
R = TypeVar("R")


def workers() -> int:
    """Threads for a kernel that counts without the GIL: the CPUs this
    process may use (``BLEUKIT_THREADS`` overrides)."""
    value = os.environ.get("BLEUKIT_THREADS")
    if value is not None:
        if not value.isdigit() or int(value) < 1:
            raise ConfigError(f"BLEUKIT_THREADS={value!r}: expected a positive integer")
        return int(value)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ordered_map(fn: Callable[[T], R], items: Iterable[T], threads: int) -> Iterator[R]:
    """fn over items in up to ``threads`` threads, results in order, with at
    most two items per thread in flight (so memory stays bounded); no thread
    for a single item. ``items`` is consumed in the calling thread."""
    it = iter(items)
    first = list(itertools.islice(it, 2))
    if threads <= 1 or len(first) <= 1:
        yield from map(fn, itertools.chain(first, it))
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads) as pool:
        pending: deque[Future[R]] = deque()
        for item in itertools.chain(first, it):
            pending.append(pool.submit(fn, item))
            if len(pending) >= 2 * threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
