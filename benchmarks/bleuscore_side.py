"""BLEU side by side with bleuscore 0.2.0 (Rust; HF evaluate's bleu: 13a
tokens, case kept, the shortest reference length, no smoothing), which
bleukit's ``hf-bleu`` variant computes: the corpus score, and every
segment's sentence score (bleuscore called once per segment, as it has no
batch call; bleukit in one call: ``SentenceReward`` values, and
``sentence_scores`` results with their signatures). WMT21 en-de (reference
A and UEdin from tests/data/wmt), repeated to ``--lines``. Every score must
agree to 1e-9 on the 0-100 scale (the script stops if not).

    pip install bleuscore==0.2.0
    python benchmarks/bleuscore_side.py [--lines 100200] [--repeats 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

from repeated import best, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    import bleuscore

    import bleukit
    from bleukit.rewards import SentenceReward

    hyps, refs = lines("hyp.UEdin", args.lines), lines("ref.A", args.lines)
    variant = bleukit.load_variant("hf-bleu")
    reward = SentenceReward(variant, scale=1.0, threads=None)
    rows: dict[str, float] = {}

    t, theirs = best(lambda: 100 * bleuscore.compute([[r] for r in refs], hyps)["bleu"], 1)
    rows["bleuscore corpus"] = t
    t, ours = best(lambda: variant.corpus_score(hyps, [refs]).score, args.repeats)
    rows["bleukit corpus"] = t
    if abs(ours - theirs) > 1e-9:
        raise SystemExit(f"corpus BLEU differs: bleukit {ours!r}, bleuscore {theirs!r}")

    def per_segment() -> list[float]:
        return [100 * bleuscore.compute([[r]], [h])["bleu"] for h, r in zip(hyps, refs)]

    t, theirs_s = best(per_segment, 1)
    rows["bleuscore sentence (a call each)"] = t
    t, values = best(lambda: reward(hyps, reference=refs), args.repeats)
    rows["bleukit sentence values (SentenceReward)"] = t
    t, results = best(lambda: variant.sentence_scores(hyps, [refs]), args.repeats)
    rows["bleukit sentence results (sentence_scores)"] = t
    worst = max(max(abs(a - b), abs(a - r.score)) for a, b, r in zip(theirs_s, values, results))
    if worst > 1e-9:
        raise SystemExit(f"sentence BLEU differs by up to {worst}")
    print(f"{args.lines:,} lines; engine {variant.engine.name}; all scores equal (1e-9)")
    for name, seconds in rows.items():
        print(f"{name:<44} {seconds:8.3f} s")
    corpus = rows["bleuscore corpus"] / rows["bleukit corpus"]
    sentence = (
        rows["bleuscore sentence (a call each)"] / rows["bleukit sentence values (SentenceReward)"]
    )
    print(f"corpus: {corpus:.1f}x bleuscore; sentence values: {sentence:.1f}x")
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        Path(args.json).write_text(
            json.dumps({"lines": args.lines, "machine": machine, "seconds": rows}, indent=1),
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
