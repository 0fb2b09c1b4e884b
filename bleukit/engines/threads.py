"""Threads for engines whose kernel releases the GIL."""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import TypeVar

from ..core.errors import ConfigError

T = TypeVar("T")
R = TypeVar("R")

# limits for the current context: a call's, which wins, and a variant's or
# an executor worker's (the innermost of those)
_CALL: ContextVar[int | None] = ContextVar("bleukit_call_threads", default=None)
_LIMIT: ContextVar[int | None] = ContextVar("bleukit_threads", default=None)


@contextmanager
def _set(var: ContextVar[int | None], threads: int | None) -> Iterator[None]:
    if threads is None:
        yield
        return
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ConfigError(f"threads={threads!r}: expected a positive integer")
    token = var.set(threads)
    try:
        yield
    finally:
        var.reset(token)


def limited(threads: int | None) -> AbstractContextManager[None]:
    """Engines use at most ``threads`` threads inside the block (a
    variant's or a worker's limit; None: none), unless a call says otherwise."""
    return _set(_LIMIT, threads)


def call_limited(threads: int | None) -> AbstractContextManager[None]:
    """A call's limit (``threads=`` of one call), which wins over the others."""
    return _set(_CALL, threads)


def workers() -> int:
    """Threads for a kernel that counts without the GIL: a call's limit, a
    variant's or worker's limit, ``BLEUKIT_THREADS``, or the CPUs this
    process may use, the first that is set."""
    limit = _CALL.get() or _LIMIT.get()
    if limit is not None:
        return limit
    value = os.environ.get("BLEUKIT_THREADS")
    if value is not None:
        if not value.isdigit() or int(value) < 1:
            raise ConfigError(f"BLEUKIT_THREADS={value!r}: expected a positive integer")
        return int(value)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Slot:
    """One item's result, filled by a worker thread."""

    __slots__ = ("done", "error", "value")

    def __init__(self) -> None:
        import threading

        self.done = threading.Event()
        self.error: BaseException | None = None
        self.value: object = None

    def result(self) -> object:
        self.done.wait()
        if self.error is not None:
            raise self.error
        return self.value


def ordered_map(fn: Callable[[T], R], items: Iterable[T], threads: int) -> Iterator[R]:
    """fn over items in up to ``threads`` threads, results in order, with at
    most two items per thread in flight (so memory stays bounded); no thread
    for a single item. ``items`` is consumed in the calling thread.

    The pool is a few threads reading one queue, not concurrent.futures:
    that module imports logging, about a tenth of a WMT-sized command's
    start-up."""
    it = iter(items)
    first = list(itertools.islice(it, 2))
    if threads <= 1 or len(first) <= 1:
        yield from map(fn, itertools.chain(first, it))
        return
    import threading

    # queue.SimpleQueue is CPython's _queue.SimpleQueue (this package's
    # kernels make it CPython's); queue itself imports heapq: 0.5 ms a start
    from _queue import SimpleQueue

    tasks: SimpleQueue[tuple[_Slot, T] | None] = SimpleQueue()

    def work() -> None:
        while (task := tasks.get()) is not None:
            slot, item = task
            try:
                slot.value = fn(item)
            except BaseException as exc:  # re-raised in the calling thread
                slot.error = exc
            slot.done.set()

    pool = [threading.Thread(target=work, daemon=True) for _ in range(threads)]
    for thread in pool:
        thread.start()
    try:
        pending: deque[_Slot] = deque()
        for item in itertools.chain(first, it):
            slot = _Slot()
            tasks.put((slot, item))
            pending.append(slot)
            if len(pending) >= 2 * threads:
                yield pending.popleft().result()  # type: ignore[misc]
        while pending:
            yield pending.popleft().result()  # type: ignore[misc]
    finally:
        # the items already queued finish first, as an executor's shutdown
        for _ in pool:
            tasks.put(None)
        for thread in pool:
            thread.join()
