"""The exact bootstrap kernel alone (``_accel.bootstrap_sums``, counted
path): milliseconds a resample for two systems of a million segments, at
BLEU's width (10 fields) and chrF's (18), rows uint16 and uint32, random
counts below 51, and BLEU's and chrF's four rows in one call (one pass of
draws for both, as ``compare -v sacrebleu,chrF`` makes it). Issue 42 asks
chrF to cost at most 1.3x BLEU a resample.

    python benchmarks/resample_kernel.py [--segments 1000000] [--samples 32]

Best of three calls each; needs the compiled engine.
"""

from __future__ import annotations

import argparse
import random
import time
from array import array

from bleukit.core.resampling import Draws
from bleukit.engines.compiled import accelerator


def per_resample(segments: int, fields: list[int], code: str, samples: int) -> float:
    """Best milliseconds a resample of the counted kernel, two systems of
    each width in ``fields`` in one call."""
    kernel = accelerator()
    if kernel is None:
        raise SystemExit("the compiled engine is not built")
    rng = random.Random(1)
    rows, widths = [], []
    for width in fields:
        values = [rng.randint(0, 50) for _ in range(segments * width)]
        rows += [array(code, values), array(code, values[::-1])]
        widths += [width, width]
    state = Draws.from_seed(segments, samples, 3).state
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        kernel.bootstrap_sums(state, rows, widths, samples, 0, samples, False)
        best = min(best, time.perf_counter() - start)
    return best / samples * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=32)
    args = parser.parse_args()
    for code in ("H", "I"):
        bleu = per_resample(args.segments, [10], code, args.samples)
        chrf = per_resample(args.segments, [18], code, args.samples)
        both = per_resample(args.segments, [10, 18], code, args.samples)
        print(f"rows {code}: BLEU {bleu:.2f} ms, chrF {chrf:.2f} ms a resample "
              f"({chrf / bleu:.2f}x); both in one pass {both:.2f} ms "
              f"(apart {bleu + chrf:.2f} ms)")  # fmt: skip


if __name__ == "__main__":
    main()
