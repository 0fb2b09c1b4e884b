"""Per-sentence BLEU of batches of token ids, the RL-reward setting:
``bleukit.torch.sentence_bleu`` on the tensors' device (a GPU when one is
present) against bleukit's C engine on the same ids as lists
(``SentenceReward(token_ids=True)``) and NLTK's ``sentence_bleu`` per
segment. All three use NLTK's smoothing method 1, so every score is checked
equal (bit for bit between the two bleukit paths, to 1e-9 with NLTK).

    python benchmarks/torch_batch.py [--device cuda] [--lengths 256,512,1024]
        [--batch 256] [--repeats 5] [--json out.json]

Synthetic ids: a vocabulary of 32,000, one reference per completion, each
completion copying the reference's token with probability 0.6. Times are
the median of ``--repeats`` runs after one warm-up; on a GPU each run ends
with ``torch.cuda.synchronize()``. TensorBLEU (arXiv 2510.05485) reports
its speed-ups over NLTK for this setting: 13x on a T4 and 40x on an A100.
Needs torch and nltk.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

VARIANT = "nltk[smoothing=nltk-method1,tokenizer=char.v1,lowercase=false]"


def make_batch(size: int, length: int, seed: int) -> tuple[list[list[int]], list[list[int]]]:
    rng = random.Random(seed)
    refs = [[rng.randrange(1, 32000) for _ in range(length)] for _ in range(size)]
    hyps = [[t if rng.random() < 0.6 else rng.randrange(1, 32000) for t in r] for r in refs]
    return hyps, refs


def timed(run: Callable[[], Any], repeats: int, sync: Callable[[], None]) -> tuple[float, Any]:
    out = run()  # warm-up (CUDA kernels, caches)
    sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = run()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None, help="cuda or cpu (default: cuda if present)")
    parser.add_argument("--lengths", default="256,512,1024")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-nltk", action="store_true", help="skip NLTK (slow at 1024)")
    parser.add_argument("--json")
    args = parser.parse_args()
    import torch
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    import bleukit.torch
    from bleukit.rewards import SentenceReward

    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    variant = bleukit.load_variant(VARIANT)
    reward = SentenceReward(variant, token_ids=True, scale=1.0)
    method1 = SmoothingFunction().method1
    name = torch.cuda.get_device_name() if device.startswith("cuda") else platform.processor()
    print(f"device: {device} ({name}); batch {args.batch}; median of {args.repeats}")
    rows = []
    for length in map(int, args.lengths.split(",")):
        hyps, refs = make_batch(args.batch, length, seed=length)
        h = torch.tensor(hyps, device=device)
        r = torch.tensor(refs, device=device)
        on_device, scores = timed(
            lambda h=h, r=r: bleukit.torch.sentence_bleu(h, r, variant), args.repeats, sync
        )
        c_engine, expected = timed(
            lambda hyps=hyps, refs=refs: reward(hyps, completion_ids=hyps, reference=refs),
            1,
            lambda: None,
        )
        row: dict[str, Any] = {"length": length, "bleukit_torch_s": on_device,
                               "bleukit_c_s": c_engine}  # fmt: skip
        assert scores.tolist() == expected, "bleukit.torch differs from the C engine"
        if not args.no_nltk:
            nltk_s, nltk_scores = timed(
                lambda hyps=hyps, refs=refs: [
                    100 * sentence_bleu([b], a, smoothing_function=method1)
                    for a, b in zip(hyps, refs)
                ],
                1,
                lambda: None,
            )
            assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(nltk_scores, expected))
            row["nltk_s"] = nltk_s
        rows.append(row)
        parts = [f"length {length:>5}", f"bleukit.torch {on_device * 1000:8.1f} ms",
                 f"C engine {c_engine * 1000:8.1f} ms"]  # fmt: skip
        if "nltk_s" in row:
            parts.append(f"NLTK {row['nltk_s'] * 1000:9.1f} ms ({row['nltk_s'] / on_device:.1f}x)")
        print("  ".join(parts), flush=True)
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        meta = {"device": device, "device_name": name, "batch": args.batch, "machine": machine}
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({**meta, "runs": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
