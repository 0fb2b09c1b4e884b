"""Per-sentence BLEU of batches of token ids, the RL-reward setting:
``bleukit.torch.sentence_bleu`` on the tensors' device (a GPU when one is
present) against bleukit's C engine on the same ids as lists
(``SentenceReward(token_ids=True)``) and NLTK's ``sentence_bleu`` per
segment, and a TensorBLEU-style baseline written here (``tensorbleu_style``).
All use NLTK's smoothing method 1. Every bleukit score is checked equal to
the other bleukit path bit for bit and to NLTK's to 1e-9; the baseline's
float32 scores are checked to 1e-3 and their largest error is reported.
NLTK's method 1 is scored in Python (as NLTK computes it, with fractions
and ``math.fsum``); sacrebleu's floor smoothing at 0.1 gives the same
scores here (checked to 1e-9) and is scored by the C kernel, so
``bleukit.torch`` is timed with it too ("floor"), and on a GPU with
``cuda_graph=True`` ("graph"; "first" is the call that captures it).

    python benchmarks/torch_batch.py [--device cuda] [--lengths 256,512,1024]
        [--batches 256] [--repeats 5] [--no-nltk] [--json out.json]

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
FLOOR = "sacrebleu[smoothing=floor,effective_order=false,tokenizer=char.v1,lowercase=false]"


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


def tensorbleu_style(hyps: Any, refs: Any, order: int = 4) -> Any:
    """Sentence BLEU (0-100, float32) the way TensorBLEU describes it
    (arXiv 2510.05485, section 3), for the baseline: the n-grams of a row
    by ``unfold``; one ``torch.unique(dim=0)`` per order over the batch's
    hypothesis and reference n-grams gives each a compact id; an offset
    ``bincount`` (row * U + id) counts them per row; clipping is the
    minimum of the two counts; precisions, NLTK's method 1 (0.1 for a zero
    count), the brevity penalty and the geometric mean in float32 on the
    device. One reference per row and no padding (every row full), as in
    this benchmark's batches."""
    import torch

    batch = hyps.shape[0]
    offsets = torch.arange(batch, device=hyps.device).unsqueeze(1)
    log_sum = torch.zeros(batch, dtype=torch.float32, device=hyps.device)
    for n in range(1, order + 1):
        h, r = hyps.unfold(1, n, 1), refs.unfold(1, n, 1)
        grams = torch.cat([h.reshape(-1, n), r.reshape(-1, n)])
        unique, inverse = torch.unique(grams, dim=0, return_inverse=True)
        size = unique.shape[0]
        h_ids = inverse[: h.shape[0] * h.shape[1]].view(batch, -1) + offsets * size
        r_ids = inverse[h.shape[0] * h.shape[1] :].view(batch, -1) + offsets * size
        h_counts = torch.bincount(h_ids.reshape(-1), minlength=batch * size).view(batch, size)
        r_counts = torch.bincount(r_ids.reshape(-1), minlength=batch * size).view(batch, size)
        clipped = torch.minimum(h_counts, r_counts).sum(1).float()
        clipped = torch.where(clipped > 0, clipped, torch.full_like(clipped, 0.1))
        log_sum += torch.log(clipped / h.shape[1])
    c, ref = float(hyps.shape[1]), float(refs.shape[1])
    penalty = 1.0 if c > ref else math.exp(1 - ref / c)
    return 100 * penalty * torch.exp(log_sum / order)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None, help="cuda or cpu (default: cuda if present)")
    parser.add_argument("--lengths", default="256,512,1024")
    parser.add_argument("--batches", default="256", help="batch sizes, comma-separated")
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
    variant, floor = bleukit.load_variant(VARIANT), bleukit.load_variant(FLOOR)
    reward = SentenceReward(variant, token_ids=True, scale=1.0)
    method1 = SmoothingFunction().method1
    name = torch.cuda.get_device_name() if device.startswith("cuda") else platform.processor()
    print(f"device: {device} ({name}); torch {torch.__version__}; median of {args.repeats}")
    rows = []
    for batch in map(int, args.batches.split(",")):
        for length in map(int, args.lengths.split(",")):
            hyps, refs = make_batch(batch, length, seed=length)
            h = torch.tensor(hyps, device=device)
            r = torch.tensor(refs, device=device)
            on_device, scores = timed(
                lambda h=h, r=r: bleukit.torch.sentence_bleu(h, r, variant), args.repeats, sync
            )
            with_floor, floor_scores = timed(
                lambda h=h, r=r: bleukit.torch.sentence_bleu(h, r, floor), args.repeats, sync
            )
            graphed = capture = None
            if device.startswith("cuda"):  # a captured CUDA graph per shape
                start = time.perf_counter()
                bleukit.torch.sentence_bleu(h, r, floor, cuda_graph=True)
                capture = time.perf_counter() - start
                graphed, graph_scores = timed(
                    lambda h=h, r=r: bleukit.torch.sentence_bleu(h, r, floor, cuda_graph=True),
                    args.repeats,
                    sync,
                )
                assert graph_scores.tolist() == floor_scores.tolist()
            counting, _ = timed(
                lambda h=h, r=r: bleukit.torch.segment_table(h, r, 4), args.repeats, sync
            )
            baseline, approx = timed(lambda h=h, r=r: tensorbleu_style(h, r), args.repeats, sync)
            c_engine, expected = timed(
                lambda hyps=hyps, refs=refs: reward(hyps, completion_ids=hyps, reference=refs),
                1,
                lambda: None,
            )
            assert scores.tolist() == expected, "bleukit.torch differs from the C engine"
            assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(floor_scores, expected))
            error = max(abs(a - b) for a, b in zip(approx.tolist(), expected))
            assert error < 1e-3, f"the TensorBLEU-style baseline is off by {error}"
            row: dict[str, Any] = {"batch": batch, "length": length,
                                   "bleukit_torch_s": on_device,
                                   "bleukit_torch_floor_s": with_floor,
                                   "bleukit_torch_floor_graph_s": graphed,
                                   "cuda_graph_first_call_s": capture,
                                   "bleukit_torch_counting_s": counting,
                                   "tensorbleu_style_s": baseline,
                                   "tensorbleu_style_max_error": error,
                                   "bleukit_c_s": c_engine}  # fmt: skip
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
            parts = [f"batch {batch:>4} length {length:>5}",
                     f"bleukit.torch {on_device * 1000:7.1f} ms (floor {with_floor * 1000:.1f}, "
                     f"counting {counting * 1000:.1f})",
                     f"TensorBLEU-style {baseline * 1000:8.1f} ms (error {error:.1e})",
                     f"C engine {c_engine * 1000:8.1f} ms"]  # fmt: skip
            if graphed is not None:
                parts.insert(2, f"graph {graphed * 1000:.1f} ms (first {capture * 1000:.0f})")
            if "nltk_s" in row:
                parts.append(f"NLTK {row['nltk_s'] * 1000:9.1f} ms")
            print("  ".join(parts), flush=True)
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        meta = {"device": device, "device_name": name, "torch": torch.__version__,
                "repeats": args.repeats, "machine": machine}  # fmt: skip
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({**meta, "runs": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
