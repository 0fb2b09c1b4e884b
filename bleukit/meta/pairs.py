"""How the pairs of a metric's and the humans' scores compare, the counts
that meta-evaluation's pair statistics are made of (``meta.statistics``):
concordant, discordant and tied pairs, WMT's DARR pairs, and tie
calibration's sweep over the metric differences. The functions here are
the reference; the compiled engine counts the pairs of every item of a
matrix in C (``kernels.MetaKernels.item_pairs``).

Scores are oriented so that higher is better on both sides.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from ..core.errors import InputError
from ..core.resampling import Draws

Vector = Sequence[float]
#: a ``Pairs``' five counts in its fields' order, as a plain tuple (many
#: resamples' counts: ``MetaKernels.resampled_pair_rows``)
PairRow = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Pairs:
    """How the pairs of a metric vector and a human vector compare:
    concordant, discordant, tied only in the metric, tied only in the
    human scores, tied in both."""

    con: int = 0
    dis: int = 0
    tie_metric: int = 0
    tie_human: int = 0
    tie_both: int = 0

    @property
    def total(self) -> int:
        return self.con + self.dis + self.tie_metric + self.tie_human + self.tie_both

    def row(self) -> PairRow:
        return (self.con, self.dis, self.tie_metric, self.tie_human, self.tie_both)

    def __add__(self, other: Pairs) -> Pairs:
        return Pairs(
            self.con + other.con,
            self.dis + other.dis,
            self.tie_metric + other.tie_metric,
            self.tie_human + other.tie_human,
            self.tie_both + other.tie_both,
        )


def check(x: Vector, y: Vector) -> None:
    if len(x) != len(y):
        raise InputError(f"{len(x)} metric scores for {len(y)} human scores")


def _tied_pairs(values: Iterable[Hashable]) -> int:
    return sum(c * (c - 1) // 2 for c in Counter(values).values())


def _inversions(values: list[float]) -> int:
    """Pairs i < j with values[i] > values[j] (merge sort; sorts in place)."""
    if len(values) < 2:
        return 0
    mid = len(values) // 2
    left, right = values[:mid], values[mid:]
    count = _inversions(left) + _inversions(right)
    i = j = k = 0
    while i < len(left) and j < len(right):
        if right[j] < left[i]:
            values[k] = right[j]
            count += len(left) - i
            j += 1
        else:
            values[k] = left[i]
            i += 1
        k += 1
    values[k:] = left[i:] + right[j:]
    return count


def pair_counts(metric: Vector, human: Vector) -> Pairs:
    """Every pair of positions classified (``Pairs``), in O(n log n) as
    scipy's ``kendalltau`` counts them: discordant pairs are the
    inversions of the human scores ordered by (metric, human). The
    reference of ``kernels.MetaKernels.pair_counts``."""
    check(metric, human)
    n = len(metric)
    total = n * (n - 1) // 2
    tie_m, tie_h = _tied_pairs(metric), _tied_pairs(human)
    tie_both = _tied_pairs(zip(metric, human))
    order = sorted(range(n), key=lambda i: (metric[i], human[i]))
    dis = _inversions([human[i] for i in order])
    con = total - dis - (tie_m - tie_both) - (tie_h - tie_both) - tie_both
    return Pairs(con, dis, tie_m - tie_both, tie_h - tie_both, tie_both)


def _agrees(dm: float, dh: float) -> bool:
    """Whether a pair agrees as acc_eq counts it: concordant, or tied on
    both sides."""
    return (dm == 0 and dh == 0) or (dm != 0 and dh != 0 and (dm > 0) == (dh > 0))


def epsilon_pairs(metric: Vector, human: Vector, epsilon: float) -> Pairs:
    """Every pair classified, metric differences of at most ``epsilon``
    counting as ties (one pass over the pairs: for small groups)."""
    check(metric, human)
    con = dis = tie_m = tie_h = tie_both = 0
    for i, j in itertools.combinations(range(len(metric)), 2):
        dm, dh = metric[i] - metric[j], human[i] - human[j]
        m_tied = abs(dm) <= epsilon
        if m_tied and dh == 0:
            tie_both += 1
        elif m_tied:
            tie_m += 1
        elif dh == 0:
            tie_h += 1
        elif (dm > 0) == (dh > 0):
            con += 1
        else:
            dis += 1
    return Pairs(con, dis, tie_m, tie_h, tie_both)


def window_pairs(metric: Vector, human: Vector, epsilon: float) -> Pairs:
    """``epsilon_pairs`` in O(n log n), for long vectors: in metric order,
    the scores within epsilon below the current one form a window (its
    metric ties, and its ties in both by human score); those further below
    are in a Fenwick tree by human rank (its discordant pairs: a higher
    human score)."""
    check(metric, human)
    order = sorted(range(len(metric)), key=metric.__getitem__)
    values = sorted(set(human))
    rank = {v: r for r, v in enumerate(values)}
    tree = [0] * (len(values) + 1)
    window: Counter[float] = Counter()
    in_window = below = dis = tie_m = tie_both = 0
    lo = 0
    for k, i in enumerate(order):
        while lo < k and metric[i] - metric[order[lo]] > epsilon:
            left = human[order[lo]]
            r = rank[left] + 1
            while r <= len(values):
                tree[r] += 1
                r += r & -r
            below += 1
            in_window -= 1
            window[left] -= 1
            lo += 1
        tie_m += in_window
        tie_both += window[human[i]]
        r, at_most = rank[human[i]] + 1, 0
        while r > 0:
            at_most += tree[r]
            r -= r & -r
        dis += below - at_most
        in_window += 1
        window[human[i]] += 1
    n = len(metric)
    tie_h = _tied_pairs(human)
    con = n * (n - 1) // 2 - dis - (tie_m - tie_both) - (tie_h - tie_both) - tie_both
    return Pairs(con, dis, tie_m - tie_both, tie_h - tie_both, tie_both)


def darr_pairs(metric: Vector, human: Vector, threshold: float) -> tuple[int, int]:
    """WMT's DARR pairs of one item: (concordant, discordant) among the
    pairs whose human scores differ by at least ``threshold`` and at all;
    a metric tie is discordant (mt-metrics-eval ``KendallLike``)."""
    check(metric, human)
    con = dis = 0
    for i, j in itertools.combinations(range(len(metric)), 2):
        diff = human[i] - human[j]
        if diff == 0 or abs(diff) < threshold:
            continue
        if (diff > 0 and metric[i] > metric[j]) or (diff < 0 and metric[i] < metric[j]):
            con += 1
        else:
            dis += 1
    return con, dis


#: a tie-calibration event: |metric difference|, group, change of the
#: group's agreeing pairs when that pair becomes a metric tie
Event = tuple[float, int, int]


def calibration_events(metric: Vector, human: Vector, group: int) -> tuple[int, int, list[Event]]:
    """A group's agreeing pairs at epsilon 0, its pairs, and the events of
    the pairs whose agreement changes once their metric difference counts
    as a tie (a metric tie agrees exactly when the humans tie the pair)."""
    check(metric, human)
    good = total = 0
    events = []
    for i, j in itertools.combinations(range(len(metric)), 2):
        dm, dh = metric[i] - metric[j], human[i] - human[j]
        total += 1
        agrees = _agrees(dm, dh)
        good += agrees
        change = int(dh == 0) - int(agrees)
        if change and dm != 0:
            events.append((abs(dm), group, change))
    return good, total, events


def calibrate(goods: Sequence[int], totals: Sequence[int], events: list[Event]) -> float:
    """Tie calibration's sweep (Deutsch et al. 2023, section 5; as
    mt-metrics-eval's ``tau_optimization``): the epsilon, 0 or a pair's
    metric difference, that maximizes the mean of the groups' agreeing
    share (groups without pairs left out; the smallest of equals). The mean
    is kept exactly, as an integer over the least common multiple of the
    groups' pair counts (a running float sum would drift, and could prefer
    a larger epsilon for an equal value). ``events`` is sorted in place."""
    return _sweep(goods, totals, events)[1]


def _sweep(goods: Sequence[int], totals: Sequence[int], events: list[Event]) -> tuple[int, float]:
    """``calibrate``'s sweep: the most agreeing pairs, weighed by the least
    common multiple of the groups' pair counts over the group's own, and
    the smallest epsilon where they agree."""
    if not any(totals):
        return 0, 0.0
    common = math.lcm(*(t for t in totals if t))
    weight = [common // t if t else 0 for t in totals]
    running = sum(g * w for g, w in zip(goods, weight))
    best, best_eps = running, 0.0
    events.sort()
    k = 0
    while k < len(events):
        eps = events[k][0]
        while k < len(events) and events[k][0] == eps:
            _, g, change = events[k]
            running += change * weight[g]
            k += 1
        if running > best:
            best, best_eps = running, eps
    return best, best_eps


def calibrated_epsilon(groups: Sequence[tuple[Vector, Vector]]) -> float:
    """The epsilon tie calibration chooses for groups of (metric, human)
    vectors (``calibrate`` over every group's events)."""
    goods, totals, events = [], [], []
    for g, (metric, human) in enumerate(groups):
        good, total, more = calibration_events(metric, human, g)
        goods.append(good)
        totals.append(total)
        events.extend(more)
    return calibrate(goods, totals, events)


#: one item's counts (``item_pairs``): concordant, discordant, tied in the
#: metric only, in the humans only, in both (epsilon 0); WMT's DARR
#: concordant and discordant pairs; the agreeing pairs at the calibrated
#: epsilon; and all pairs
ItemCounts = tuple[int, int, int, int, int, int, int, int, int]


def rated(metric: Vector, human: Vector) -> tuple[list[float], list[float]]:
    """The entries of a (metric, human) pair of vectors that are rated: a
    NaN on either side marks a score that is not (a system the humans did
    not rate on that segment), and its pairs do not count."""
    if not any(map(math.isnan, metric)) and not any(map(math.isnan, human)):
        return list(metric), list(human)
    kept = [(m, h) for m, h in zip(metric, human) if not (math.isnan(m) or math.isnan(h))]
    return [m for m, _ in kept], [h for _, h in kept]


def item_pairs(
    metric: Sequence[Vector], human: Sequence[Vector], threshold: float
) -> tuple[list[ItemCounts], float]:
    """The pairs of every item (column) of two system x item matrices, and
    the calibrated epsilon of acc_eq grouped by item, NaN cells left out
    (``rated``; the reference of ``kernels.MetaKernels.item_pairs``)."""
    if len(metric) != len(human) or any(len(m) != len(h) for m, h in zip(metric, human)):
        raise InputError("metric and human scores must be matrices of one shape")
    columns = [rated(m, h) for m, h in zip(zip(*metric), zip(*human))] if metric else []
    epsilon = calibrated_epsilon(columns)
    out: list[ItemCounts] = []
    for m, h in columns:
        p = epsilon_pairs(m, h, 0.0)
        at = epsilon_pairs(m, h, epsilon)
        con, dis = darr_pairs(m, h, threshold)
        out.append((p.con, p.dis, p.tie_metric, p.tie_human, p.tie_both, con, dis,
                    at.con + at.tie_both, p.total))  # fmt: skip
    return out, epsilon


#: the statistics ``swap_tables`` makes tables of
SWAP_KINDS = ("darr", "acc_eq")


def _weight_term(d: float, dh: float, kind: str) -> int:
    """A pair's part of ``cell_weights``: acc_eq, 1 where it agrees; DARR
    at threshold 0, twice its concordance (a pair the humans tie counts 0,
    and the -1 of every other pair cancels in the weights)."""
    concordant = (d > 0 and dh > 0) or (d < 0 and dh < 0)
    if kind == "darr":
        return 2 * concordant
    return int(concordant or (d == 0 and dh == 0))


def cell_weights(x: Vector, y: Vector, human: Vector, kind: str) -> list[int]:
    """PERM-BOTH of a statistic summed over every pair of one vector of
    cells, made linear. With x the better variant's z-scores and y the
    other's, a trial keeps or swaps each cell (sign s_i = +1 or -1), and
    the difference it gives, summed over the pairs, is
    sum_i s_i * w_i / 2: a pair's difference under the two cells' swaps is
    s_i (a + b) / 2 + s_j (a - b) / 2, a and b its differences with neither
    and with the second swapped. So the weight of cell i is the sum over
    every j of f(x_i - x_j) - f(y_i - y_j) + f(x_i - y_j) - f(y_i - x_j),
    f ``_weight_term`` of the metric and human differences; with no cell
    swapped the sum is twice the observed difference. Every pair visited
    (the reference of ``kernels.MetaKernels.cell_weights``)."""
    check(x, human)
    check(y, human)
    if kind not in SWAP_KINDS:
        raise InputError(f"kind {kind!r}: expected one of {', '.join(SWAP_KINDS)}")
    n = len(x)
    return [
        sum(
            _weight_term(x[i] - x[j], human[i] - human[j], kind)
            - _weight_term(y[i] - y[j], human[i] - human[j], kind)
            + _weight_term(x[i] - y[j], human[i] - human[j], kind)
            - _weight_term(y[i] - x[j], human[i] - human[j], kind)
            for j in range(n)
        )
        for i in range(n)
    ]


def _outcome(dm: float, dh: float, kind: str) -> int:
    if kind == "darr":  # concordant +1, discordant (a metric tie too) -1
        return 1 if dm != 0 and (dm > 0) == (dh > 0) else -1
    return int(_agrees(dm, dh))


def swap_tables(
    za: Sequence[Vector], zb: Sequence[Vector], human: Sequence[Vector], kind: str, threshold: float
) -> tuple[list[int], list[int], list[int]]:
    """PERM-BOTH's pair tables (``kernels.MetaKernels.pair_swap_sums``) of an
    item-grouped statistic that sums over the pairs of each item's systems,
    WMT's Kendall-like tau (``darr``: its DARR pairs, +1 concordant, -1
    discordant, pooled) or acc_eq at epsilon 0 (``acc_eq``: 1 where a pair
    agrees; the mean of the items' shares, so a pair weighs the least common
    multiple of the items' pair counts over its own item's: 1 where every
    item has as many). Per pair its two cells (system-major flat indices of
    the system x item matrices), and how much b's sum minus a's changes for
    each way the two cells may be swapped between a and b (neither, the
    second, the first, both). Pairs with a NaN (unrated) human score are
    left out. The reference of ``kernels.MetaKernels.swap_tables``."""
    if kind not in SWAP_KINDS:
        raise InputError(f"pair tables of {kind!r}: expected one of {', '.join(SWAP_KINDS)}")
    systems, items = _shape(za, zb, human)
    weight = item_weights(human) if kind == "acc_eq" else [1] * items
    first, second, table = [], [], []
    for j in range(items):
        for s, t in itertools.combinations(range(systems), 2):
            dh = human[s][j] - human[t][j]
            if math.isnan(dh) or (kind == "darr" and (dh == 0 or abs(dh) < threshold)):
                continue
            first.append(s * items + j)
            second.append(t * items + j)
            for swap_s, swap_t in ((0, 0), (0, 1), (1, 0), (1, 1)):
                xs, ys = (zb[s][j], za[s][j]) if swap_s else (za[s][j], zb[s][j])
                xt, yt = (zb[t][j], za[t][j]) if swap_t else (za[t][j], zb[t][j])
                change = _outcome(ys - yt, dh, kind) - _outcome(xs - xt, dh, kind)
                table.append(change * weight[j])
    return first, second, table


def item_weights(human: Sequence[Vector]) -> list[int]:
    """Per item (column), the least common multiple of the items' rated
    pair counts over its own (0 for an item without pairs): what a pair
    weighs in a mean of the items' shares kept as an integer."""
    if not any(map(math.isnan, itertools.chain.from_iterable(human))):
        # every cell rated (common segments): every item has as many pairs,
        # and a grid asks for these once per pair of variants
        k = len(human)
        return [1 if k > 1 else 0] * (len(human[0]) if human else 0)
    counts = []
    for column in zip(*human):
        k = len(column) - sum(map(math.isnan, column))
        counts.append(k * (k - 1) // 2)
    common = math.lcm(*(c for c in counts if c)) if any(counts) else 1
    return [common // c if c else 0 for c in counts]


def _shape(*matrices: Sequence[Vector]) -> tuple[int, int]:
    """The systems and items of matrices that must all have that shape."""
    shapes = {(len(x), *(len(r) for r in x)) for x in matrices}
    if len(shapes) != 1 or len({len(r) for r in matrices[0]}) > 1:
        raise InputError("metric and human scores must be matrices of one shape")
    return len(matrices[0]), len(matrices[0][0]) if matrices[0] else 0


def calibrated_agreeing(metric: Sequence[Vector], human: Sequence[Vector]) -> int:
    """The pairs of systems that agree at acc_eq's epsilon calibrated by
    item, over every item (column) of two system x item matrices, NaN cells
    left out: the mean share's numerator over the least common multiple of
    the items' pair counts (``calibrate``; each pair weighs that multiple
    over its item's count, 1 where every item has as many)."""
    goods, totals, events = [], [], []
    for g, (m, h) in enumerate(rated(*c) for c in zip(zip(*metric), zip(*human))):
        good, total, more = calibration_events(m, h, g)
        goods.append(good)
        totals.append(total)
        events.extend(more)
    return _sweep(goods, totals, events)[0]


def calibrated_swap_sums(
    draws: Draws, za: Sequence[Vector], zb: Sequence[Vector], human: Sequence[Vector]
) -> list[int]:
    """PERM-BOTH (Deutsch et al. 2021) of acc_eq with tie calibration by
    item, the calibration (Deutsch et al. 2023) run again in every trial on
    the swapped scores, as mt-metrics-eval's ``PermutationSigDiff`` of
    ``KendallWithTiesOpt`` does: per trial (``draws.count``; bit c of
    ``getrandbits(draws.n)`` swaps cell c, system-major, between a and b),
    b's agreeing pairs at its own calibrated epsilon minus a's
    (``calibrated_agreeing``). The reference of
    ``kernels.MetaKernels.calibrated_swap_sums``."""
    systems, items = _shape(za, zb, human)
    if draws.n != systems * items:
        raise InputError(f"calibrated swaps: {draws.n} cells drawn for {systems * items}")
    rng = draws.rng()
    sums = []
    for _ in range(draws.count):
        bits = rng.getrandbits(draws.n)
        swapped = [[(bits >> (s * items + j)) & 1 for j in range(items)] for s in range(systems)]
        a = [[y if k else x for x, y, k in zip(*rows)] for rows in zip(za, zb, swapped)]
        b = [[x if k else y for x, y, k in zip(*rows)] for rows in zip(za, zb, swapped)]
        sums.append(calibrated_agreeing(b, human) - calibrated_agreeing(a, human))
    return sums


def _agrees_at(dm: float, dh: float, epsilon: float) -> bool:
    """Whether a pair agrees as acc_eq counts it at ``epsilon``."""
    return dh == 0 if abs(dm) <= epsilon else _agrees(dm, dh)


def pair_disagreements(
    a: Vector, b: Vector, human: Vector, epsilon_a: float, epsilon_b: float
) -> tuple[int, int]:
    """The pairs of one vector on which acc_eq of a at ``epsilon_a`` and of
    b at ``epsilon_b`` disagree: (b agrees and a does not, a agrees and b
    does not). Exactly these pairs change the difference when mt-metrics-
    eval's ``PairwisePermutationSigDiff`` swaps the two metrics' pair
    outcomes. Every pair visited (the reference of
    ``kernels.MetaKernels.pair_disagreements``)."""
    check(a, human)
    check(b, human)
    b_only = a_only = 0
    for i, j in itertools.combinations(range(len(a)), 2):
        dh = human[i] - human[j]
        ok_a = _agrees_at(a[i] - a[j], dh, epsilon_a)
        ok_b = _agrees_at(b[i] - b[j], dh, epsilon_b)
        b_only += ok_b and not ok_a
        a_only += ok_a and not ok_b
    return b_only, a_only


def pair_swap_sums(
    draws: Draws, first: Sequence[int], second: Sequence[int], table: Sequence[int]
) -> list[int]:
    """Per trial (``draws.count`` of them, ``draws.n`` cells), a random
    choice of cells to swap (bit c of ``getrandbits(n)``: cell c) and the
    sum over pairs p of ``table[4p + 2 swapped(first[p]) +
    swapped(second[p])]`` (the reference of ``kernels.MetaKernels.pair_swap_sums``)."""
    if len(first) != len(second) or len(table) != 4 * len(first):
        raise InputError("pair swaps: one first and one second cell and four entries a pair")
    if any(not 0 <= c < draws.n for c in itertools.chain(first, second)):
        raise InputError(f"pair swaps: a pair names a cell outside 0..{draws.n - 1}")
    rng = draws.rng()
    sums = []
    for _ in range(draws.count):
        bits = rng.getrandbits(draws.n)
        sums.append(sum(table[4 * p + 2 * ((bits >> a) & 1) + ((bits >> b) & 1)]
                        for p, (a, b) in enumerate(zip(first, second))))  # fmt: skip
    return sums
