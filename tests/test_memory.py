"""bleukit.io.memory: the heap's free pages given back, or kept, where glibc
can."""

from __future__ import annotations

import platform
import subprocess
import sys

from bleukit.io import memory

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


def test_free_memory_is_given_back_on_glibc_and_nothing_is_done_elsewhere(monkeypatch):
    memory._glibc.cache_clear()
    assert memory.release_free_memory() is GLIBC
    monkeypatch.setattr(memory.sys, "platform", "darwin")
    memory._glibc.cache_clear()
    assert memory.release_free_memory() is False
    assert memory.keep_freed_heap() is False
    monkeypatch.undo()
    memory._glibc.cache_clear()


FREED_PAGES = """
import sys
from bleukit.io.memory import keep_freed_heap
kept = keep_freed_heap() if sys.argv[1] == "keep" else None

def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1])

block = bytearray(16 << 20)  # zeroed: every page touched
before = resident()
del block
print(kept, before - resident())
"""


def test_freed_heap_is_kept_on_glibc():
    # each in a process of its own: the allocator's settings last as long
    # as it. By default glibc maps a 16 MB block apart and unmaps it when
    # freed; kept, the block comes from the heap, whose pages stay.
    def freed(mode: str) -> tuple[str, int]:
        out = subprocess.run([sys.executable, "-c", FREED_PAGES, mode], capture_output=True,
                             text=True, check=True).stdout.split()  # fmt: skip
        return out[0], int(out[1])

    kept, pages = freed("keep")
    if not GLIBC:
        assert kept == "False"
        return
    _, default_pages = freed("default")
    assert kept == "True"
    assert default_pages > 3000  # 16 MB of 4 KiB pages given back
    assert pages < 100
