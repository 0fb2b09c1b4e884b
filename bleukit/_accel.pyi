# Types of the compiled engine (bleukit/_accel.c); see the docstrings there.
from collections.abc import Sequence

from typing_extensions import Buffer

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
    rows: Sequence[Buffer],
    nfields: int,
    samples: int,
    first: int = ...,
    last: int = ...,
    gather: bool = ...,
    /,
) -> bytes: ...
def ar_sums(
    state: tuple[int, ...], base: Buffer, other: Buffer, nfields: int, trials: int, /
) -> bytes: ...
def ter_edit_count(hyp: Buffer, ref: Buffer, /) -> int: ...
