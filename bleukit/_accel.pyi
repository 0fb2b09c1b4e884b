# Types of the compiled engine (bleukit/_accel.c); see the docstrings there.
from collections.abc import Sequence

def block_stats(
    hyp: str,
    refs: Sequence[str | None],
    present: Sequence[bytes | None],
    mode: int,
    order: int,
    categories: bytes = ...,
    /,
) -> tuple[bytes, bytes, bytes, bytes]: ...
def block_words(text: str, mode: int, categories: bytes = ..., /) -> str: ...
def bootstrap_sums(
    state: tuple[int, ...],
    rows: bytes,
    nfields: int,
    samples: int,
    systems: int = ...,
    first: int = ...,
    last: int = ...,
    /,
) -> bytes: ...
def ar_sums(
    state: tuple[int, ...], base: bytes, other: bytes, nfields: int, trials: int, /
) -> bytes: ...
