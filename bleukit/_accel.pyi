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
    nfields: int | Sequence[int],
    samples: int,
    first: int = ...,
    last: int = ...,
    gather: bool = ...,
    /,
) -> bytes: ...
def ar_sums(
    state: tuple[int, ...], base: Buffer, other: Buffer, nfields: int, trials: int, /
) -> bytes: ...
def ter_edit_counts(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], /
) -> bytes: ...
def pcg64_bootstrap(
    state: tuple[int, ...], rows: Sequence[Buffer], nfields: int, samples: int, /
) -> bytes: ...
def pcg64_randomization(
    state: tuple[int, ...], base: Buffer, other: Buffer, nfields: int, trials: int, /
) -> tuple[bytes, bytes, tuple[int, int, int, int, int, int]]: ...
def group_sums(rows: Buffer, nfields: int, groups: Buffer, ngroups: int, /) -> bytes: ...
def sentence_bleu(
    hyp_len: Buffer,
    matches: Buffer,
    nearest: Buffer,
    width: int,
    order: int,
    column: int,
    at_least_one: bool,
    method: int,
    k: float,
    effective_order: bool,
    parts: bool = False,
    /,
) -> bytes: ...
def sentence_bleu_orders(
    hyp_len: Buffer,
    matches: Buffer,
    nearest: Buffer,
    width: int,
    orders: Buffer,
    column: int,
    at_least_one: bool,
    method: int,
    k: float,
    effective_order: bool,
    /,
) -> bytes: ...
def bleu_rows(
    rows: Buffer,
    other: Buffer | None,
    stat_order: int,
    order: int,
    method: int,
    k: float,
    effective_order: bool,
    /,
) -> bytes: ...
def chrf_rows(
    rows: Buffer, other: Buffer | None, order: int, beta: int, eps_smoothing: bool, /
) -> bytes: ...
def nist_rows(
    rows: Buffer, other: Buffer | None, order: int, info_bits: int, beta: float, /
) -> bytes: ...
def table_rows(
    hyp_len: Buffer | Sequence[int],
    refs: Buffer | Sequence[int],
    ref_width: int,
    ref_column: int,
    matches: Buffer | Sequence[int],
    match_width: int,
    order: int,
    floor: int,
    /,
) -> tuple[str, bytes] | None: ...
def triple_rows(
    parts: Sequence[
        tuple[Buffer | Sequence[int], Buffer | Sequence[int], Buffer | Sequence[int], int, int]
    ],
    /,
) -> tuple[str, bytes] | None: ...
def narrow_ints(ints: Buffer, itemsize: int, /) -> bytes | None: ...

class MatchTable:
    def __init__(self, systems: int, order: int) -> None: ...
    def add(
        self,
        ref: str | Sequence[Sequence[str]],
        hyps: Sequence[str | Sequence[Sequence[str]]],
        keep_empty: bool,
        /,
    ) -> bytes: ...
    def words(self, column: int, /) -> dict[str, int]: ...
    def matched(
        self, system: int, min_order: int, max_order: int, /
    ) -> dict[tuple[str, ...], int]: ...
    def ranked(
        self, a: int, b: int, min_order: int, alpha: float, count: int, losses: bool, /
    ) -> list[tuple[tuple[str, ...], int, int]]: ...

class InfoTable:
    def __init__(self, references: int, order: int, bits: int, falsy: str | None = ...) -> None: ...
    def add(self, blocks: list[str], /) -> bytes: ...
    def weigh(self) -> None: ...
    def matches(self, block: str, first: int, /) -> tuple[bytes, bytes]: ...
    def hold(self, key: int, block: str, /) -> None: ...
    def held_matches(self, key: int, first: int, count: int, /) -> tuple[bytes, bytes]: ...
