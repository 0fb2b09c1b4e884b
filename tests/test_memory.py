"""bleukit.io.memory: the heap's free pages given back where glibc can."""

from __future__ import annotations

import platform

from bleukit.io import memory


def test_free_memory_is_given_back_on_glibc_and_nothing_is_done_elsewhere(monkeypatch):
    memory._malloc_trim.cache_clear()
    glibc = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert memory.release_free_memory() is glibc
    monkeypatch.setattr(memory.sys, "platform", "darwin")
    memory._malloc_trim.cache_clear()
    assert memory.release_free_memory() is False
    monkeypatch.undo()
    memory._malloc_trim.cache_clear()
