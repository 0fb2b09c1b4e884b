"""The compiled kernels a meta grid and a million-line ``compare`` spend
most of their time in, each alone, at the shapes those commands give them:

- counting (``_accel.block_stats``): WMT21 en-de's reference against
  UEdin and Facebook-AI, each repeated ten times (20,040 segments), as
  chrF's characters to order 6, BLEU's 13a words to order 4 and BLEUc18's
  characters to order 18;
- a variant's pair counts by item with acc_eq's tie calibration
  (``meta._kernels.item_pairs``): 15 systems x 2,004 items, human scores
  of 100 values;
- a variant's pair counts pooled and by system
  (``meta._kernels.group_pair_counts``), against human scores ordered once
  (``human_order``, as a grid orders them once for all its variants);
- the segment-level intervals' resampled pair counts
  (``meta._kernels.resampled_pair_counts``): 15 systems x 2,004 items, a
  third of the human scores unrated, 1,000 resamples, pooled and by system;
- the system-level bootstrap (``_accel.bootstrap_sums``, gathered rows): 15
  systems x 2,004 segments, 1,000 resamples, at BLEU's 10 fields and
  BLEUc18's 38;
- approximate randomization's split of a system's rows
  (``meta._kernels.selected_sums``): 2,004 rows of 38 fields, 1,000 trials;
- system-level PERM-BOTH (``meta._kernels.system_swaps``): 15 systems,
  10,000 trials of each statistic;
- PERM-BOTH's item-grouped trials (``meta._kernels.pair_swap_trials``):
  the 78 pairs of 13 variants (a grid's tested ones), each over the 105
  pairs of systems of each of 2,004 items (15 systems), 1,000 trials.

    python benchmarks/kernels.py [--repeat 7]

Best in-process CPU milliseconds of ``--repeat`` calls each, with a digest
of each output, so that two builds (run each from its own checkout) can be
compared for speed and for identical results. Needs the compiled engine.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import random
import time
from array import array
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wmt"
PAIR = "newstest2021.en-de"


def best(call: Callable[[], object], repeat: int) -> tuple[float, str]:
    """The best CPU milliseconds of ``repeat`` calls, and a digest of the
    output (bytes, or a sequence of bytes-like objects)."""
    fastest, out = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        out = call()
        fastest = min(fastest, time.process_time() - start)
    parts = out if isinstance(out, (tuple, list)) else [out]
    digest = hashlib.md5(b"".join(bytes(p) for p in parts)).hexdigest()[:12]
    return fastest * 1000, digest


def counting(accel, repeat: int) -> None:
    def lines(name: str) -> str:
        text = (DATA / f"{PAIR}.{name}.txt").read_text(encoding="utf-8")
        return "\n".join(text.splitlines() * 10)

    ref = lines("ref.A")
    hyps = [lines("hyp.UEdin"), lines("hyp.Facebook-AI")]

    def both(mode: int, order: int) -> list[bytes]:
        return [a for h in hyps for a in accel.block_stats(h, [ref], [None], mode, order)]

    for name, mode, order in (("chrF", 3, 6), ("BLEU 13a", 7, 4), ("BLEUc18", 3, 18)):
        ms, digest = best(functools.partial(both, mode, order), repeat)
        print(f"counting, {name}: {ms:.1f} ms for 20,040 segments  [{digest}]")


def meta(kernels, accel, repeat: int) -> None:
    rng = random.Random(1)
    systems, items = 15, 2004
    metric = array("d", [rng.choice([0.5, rng.random()]) for _ in range(systems * items)])
    human = array("d", [rng.random() if rng.random() > 1 / 3 else float("nan")
                        for _ in range(systems * items)])  # fmt: skip
    rated = array("d", [float(rng.randrange(100)) for _ in range(systems * items)])

    def item_pairs() -> tuple[bytes, bytes]:
        counts, epsilon = kernels.item_pairs(metric, rated, systems, items, 0.0)
        return counts, array("d", [epsilon]).tobytes()

    ms, digest = best(item_pairs, repeat)
    print(f"pair counts and tie calibration by item: {ms:.1f} ms  [{digest}]")
    for groups in (1, systems):
        order = kernels.human_order(human, groups)
        call = functools.partial(kernels.group_pair_counts, metric, order, groups)
        ms, digest = best(call, repeat)
        grouping = "by system" if groups > 1 else "pooled"
        print(f"pair counts, {grouping}: {ms:.1f} ms  [{digest}]")
    indices = array("i", [rng.randrange(items) for _ in range(1000 * items)])
    for by in (False, True):
        call = functools.partial(kernels.resampled_pair_counts, metric, human, systems, items,
                                 indices, by)  # fmt: skip
        ms, digest = best(call, repeat)
        grouping = "by system" if by else "pooled"
        print(f"resampled pair counts, {grouping}: {ms:.1f} ms  [{digest}]")
    state = random.Random(12345).getstate()[1]
    for fields in (10, 38):
        rows = [array("I", [rng.randrange(60) for _ in range(items * fields)])
                for _ in range(systems)]  # fmt: skip
        ms, digest = best(
            functools.partial(accel.bootstrap_sums, state, rows, fields, 1000), repeat
        )
        print(f"system-level bootstrap, {fields} fields: {ms:.1f} ms  [{digest}]")
    a, b, h = (array("d", [rng.random() for _ in range(systems)]) for _ in range(3))

    def swaps() -> bytes:
        return array(
            "q", [kernels.system_swaps(state, a, b, h, s, 10000) for s in range(5)]
        ).tobytes()

    ms, digest = best(swaps, repeat)
    print(f"system-level PERM-BOTH, 5 statistics: {ms:.1f} ms  [{digest}]")
    rows16 = array("H", [rng.randrange(60) for _ in range(items * 38)])
    ms, digest = best(functools.partial(kernels.selected_sums, state, rows16, 38, 1000), repeat)
    print(f"randomization's split sums, 38 fields: {ms:.1f} ms  [{digest}]")
    # a grid's 13 tested variants' z-scores and every pair of them, as the
    # item-grouped statistics test them (acc_eq)
    variants = 13
    vectors = array("d", [rng.gauss(0, 1) for _ in range(variants * systems * items)])
    pairs = array("i", [x for a in range(variants) for b in range(a + 1, variants) for x in (b, a)])

    def trials() -> tuple[bytes, bytes]:
        sums, observed, _ = kernels.pair_swap_trials(
            state, vectors, rated, pairs, systems, items, 1, 0.0, 1000
        )
        return sums, observed

    ms, digest = best(trials, repeat)
    print(f"item-grouped trials, {len(pairs) // 2} pairs of variants: {ms:.1f} ms  [{digest}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    try:
        from bleukit import _accel
        from bleukit.meta import _kernels
    except ImportError:
        raise SystemExit("the compiled engine is not built") from None
    counting(_accel, args.repeat)
    meta(_kernels, _accel, args.repeat)


if __name__ == "__main__":
    main()
