# Types of the compiled meta-evaluation kernels (bleukit/meta/_kernels.c); see
# the docstrings there.
from typing_extensions import Buffer

def pair_counts(
    metric: Buffer, human: Buffer, skip_unrated: bool = ..., /
) -> tuple[int, int, int, int, int]: ...
def human_order(human: Buffer, groups: int, /) -> bytes: ...
def group_pair_counts(metric: Buffer, order: Buffer, groups: int, /) -> bytes: ...
def resampled_pair_counts(
    metric: Buffer,
    human: Buffer,
    systems: int,
    items: int,
    indices: Buffer,
    by_system: bool,
    epsilon: float = ...,
    /,
) -> bytes: ...
def cell_weights(x: Buffer, y: Buffer, human: Buffer, kind: int, /) -> bytes: ...
def pooled_calibration(
    metric: Buffer, human: Buffer, collect: int = ..., first: int = ..., /
) -> tuple[int, int, float]: ...
def item_pairs(
    metric: Buffer,
    human: Buffer,
    systems: int,
    items: int,
    threshold: float,
    first: int = ...,
    /,
) -> tuple[bytes, float]: ...
def pair_swap_trials(
    state: tuple[int, ...],
    vectors: Buffer,
    human: Buffer,
    pairs: Buffer,
    systems: int,
    items: int,
    kind: int,
    threshold: float,
    trials: int,
    weights: Buffer = ...,
    /,
) -> tuple[bytes, bytes, int]: ...
def calibrated_swap_sums(
    state: tuple[int, ...],
    za: Buffer,
    zb: Buffer,
    human: Buffer,
    weights: Buffer,
    systems: int,
    items: int,
    skip: int,
    trials: int,
    first: int = ...,
    /,
) -> bytes: ...
def pair_disagreements(
    a: Buffer, b: Buffer, human: Buffer, epsilon_a: float, epsilon_b: float, lo: int, hi: int, /
) -> tuple[int, int]: ...
def system_swaps(
    state: tuple[int, ...], a: Buffer, b: Buffer, human: Buffer, statistic: int, trials: int, /
) -> int: ...
def bootstrap_positions(state: tuple[int, ...], n: int, count: int, /) -> bytes: ...
def system_statistics(metric: Buffer, human: Buffer, systems: int, statistic: int, /) -> bytes: ...
def signed_trials(state: tuple[int, ...], cells: int, weights: Buffer, trials: int, /) -> bytes: ...
def gathered_sums(values: Buffer, cells: int, indices: Buffer, resamples: int, /) -> bytes: ...
def selected_sums(
    state: tuple[int, ...], rows: Buffer, width: int, trials: int, /
) -> tuple[bytes, bytes]: ...
def pair_cell_weights(vectors: Buffer, human: Buffer, pairs: Buffer, kind: int, /) -> bytes: ...
