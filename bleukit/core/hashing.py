"""SHA-256 (signature digests, SentencePiece model digests) without loading
hashlib's OpenSSL binding, about 4 ms of every start. CPython's own
implementation, which hashlib falls back to, gives the same digests; the
standard library's ``random`` takes its SHA-512 the same way."""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import import_module
from typing import Protocol, cast


class Hash(Protocol):
    def update(self, data: bytes, /) -> None: ...

    def hexdigest(self) -> str: ...


# CPython's built-in modules: _sha2 from 3.12 on, _sha256 before
_BUILTIN = ("_sha2", "_sha256")


@functools.cache  # found once: a score's digest is computed again and again
def _constructor() -> Callable[[bytes], Hash]:
    for name in _BUILTIN:
        try:
            return cast("Callable[[bytes], Hash]", import_module(name).sha256)
        except ImportError:
            continue
    import hashlib  # another Python, or a build without them

    return hashlib.sha256


def sha256(data: bytes = b"") -> Hash:
    """A SHA-256 hash object (``update``, ``hexdigest``) of ``data``."""
    return _constructor()(data)
