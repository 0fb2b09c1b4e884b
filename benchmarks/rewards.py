"""Sentence-BLEU rewards on token ids, as an RL trainer asks for them:
batches of 256 completions of 256 token ids, each against its own
reference. bleukit's ``SentenceReward(token_ids=True)`` against NLTK's
``sentence_bleu`` and fast-bleu, one call per segment (the way reward
functions use them today), all three with NLTK's smoothing method 1 so that
the scores can be checked equal.

    python benchmarks/rewards.py [--batches 20] [--repeats 3] [--json out.json]

Each scorer runs ``--repeats`` times; the best run counts (this machine's
timings vary by a factor of up to 1.6 from run to run).

Synthetic ids: a vocabulary of 32,000, each reference a fresh draw, each
completion copying the reference's token with probability 0.6 (so that
matches thin out with the order, as in real outputs). Needs nltk;
fast-bleu is used where installed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import time
from collections.abc import Callable

BATCH = 256
LENGTH = 256
VARIANT = "nltk[smoothing=nltk-method1]"


def batches(count: int, seed: int = 1) -> list[tuple[list[list[int]], list[list[int]]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        refs = [[rng.randrange(32000) for _ in range(LENGTH)] for _ in range(BATCH)]
        hyps = [[t if rng.random() < 0.6 else rng.randrange(32000) for t in r] for r in refs]
        out.append((hyps, refs))
    return out


def bleukit_rewards(
    threads: int | None,
) -> Callable[[list[list[int]], list[list[int]]], list[float]]:
    from bleukit.rewards import SentenceReward

    reward = SentenceReward(VARIANT, token_ids=True, scale=1.0, threads=threads)
    return lambda hyps, refs: reward(hyps, completion_ids=hyps, reference=refs)


def nltk_rewards() -> Callable[[list[list[int]], list[list[int]]], list[float]]:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method1 = SmoothingFunction().method1
    return lambda hyps, refs: [
        100 * sentence_bleu([r], h, smoothing_function=method1) for h, r in zip(hyps, refs)
    ]


def fast_bleu_rewards() -> Callable[[list[list[int]], list[list[int]]], list[float]] | None:
    try:
        from fast_bleu import BLEU
    except ImportError:
        return None

    def score(hyps: list[list[int]], refs: list[list[int]]) -> list[float]:
        # one object per segment: each completion has its own reference
        weights = {"bleu": (0.25, 0.25, 0.25, 0.25)}
        return [100 * BLEU([r], weights).get_score([h])["bleu"][0] for h, r in zip(hyps, refs)]

    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3, help="runs per scorer; the best counts")
    parser.add_argument("--json")
    args = parser.parse_args()
    data = batches(args.batches)
    scorers = {
        "bleukit, 1 thread": bleukit_rewards(1),
        "bleukit, default threads": bleukit_rewards(None),
        "nltk sentence_bleu": nltk_rewards(),
    }
    fast = fast_bleu_rewards()
    if fast is not None:
        scorers["fast-bleu"] = fast
    rows, reference = [], None
    print(f"{args.batches} batches of {BATCH} x {LENGTH} token ids; {VARIANT}")
    for name, scorer in scorers.items():
        walls = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            scores = [s for hyps, refs in data for s in scorer(hyps, refs)]
            walls.append(time.perf_counter() - start)
        wall = min(walls)
        if reference is None:
            reference = scores
        same = all(math.isclose(a, b, rel_tol=0, abs_tol=1e-9) for a, b in zip(scores, reference))
        rate = len(scores) / wall
        rows.append({"scorer": name, "seconds": round(wall, 3), "segments_per_s": round(rate),
                     "same_scores": same})  # fmt: skip
        print(f"{name:<26} {wall:8.3f} s {rate:>10,.0f} segments/s  same scores: {same}")
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        meta = {"batches": args.batches, "batch": BATCH, "length": LENGTH, "variant": VARIANT,
                "machine": machine}  # fmt: skip
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({**meta, "runs": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
