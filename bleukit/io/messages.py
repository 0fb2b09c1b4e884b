"""What a command says on standard error besides its errors: bleukit's
warnings (``core.errors.BleukitWarning``), one line each."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def printed_warnings(quiet: bool) -> Iterator[None]:
    """bleukit's warnings (``BleukitWarning``: a byte-order mark read as
    text...) as ``bleukit: warning: ...`` lines on standard error, each
    once, none with ``quiet``; other warnings as Python prints them."""
    import warnings

    from ..core.errors import BleukitWarning

    shown = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], *rest: Any, **kw: Any) -> None:
        if not issubclass(category, BleukitWarning):
            shown(message, category, *rest, **kw)
        elif not quiet:
            sys.stderr.write(f"bleukit: warning: {message}\n")

    with warnings.catch_warnings():
        warnings.simplefilter("default", BleukitWarning)
        warnings.showwarning = show
        yield
