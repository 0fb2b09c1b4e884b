"""Sentence BLEU of every row of a pandas DataFrame: the ``df.apply`` pattern
(one ``sacrebleu.sentence_bleu`` call per row, what ``evaluate``'s sacrebleu
module runs for each row it is given) against one
``bleukit.frames.sentence_scores`` call on the columns. Scores are checked
equal.

    python benchmarks/make_corpus.py /tmp/synth --lines 100000
    python benchmarks/frames.py /tmp/synth [--rows 20000] [--json out.json]

Needs pandas and sacrebleu.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", help="a folder with hyp.txt and ref.txt (make_corpus.py)")
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--json")
    args = parser.parse_args()
    import pandas as pd
    import sacrebleu

    import bleukit.frames

    folder = Path(args.corpus)
    hyps = (folder / "hyp.txt").read_text(encoding="utf-8").splitlines()[: args.rows]
    refs = (folder / "ref.txt").read_text(encoding="utf-8").splitlines()[: args.rows]
    df = pd.DataFrame({"hyp": hyps, "ref": refs})

    start = time.perf_counter()
    applied = df.apply(lambda row: sacrebleu.sentence_bleu(row.hyp, [row.ref]).score, axis=1)
    apply_s = time.perf_counter() - start

    start = time.perf_counter()
    scores = bleukit.frames.sentence_scores(df["hyp"], df["ref"])
    bleukit_s = time.perf_counter() - start

    same = all(math.isclose(a, b, rel_tol=0, abs_tol=1e-9) for a, b in zip(applied, scores))
    print(f"{len(df):,} rows; sacrebleu.sentence_bleu defaults")
    print(f"df.apply(sacrebleu.sentence_bleu)      {apply_s:8.3f} s")
    print(f"bleukit.frames.sentence_scores         {bleukit_s:8.3f} s")
    print(f"speed-up {apply_s / bleukit_s:.1f}x; same scores: {same}")
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        data = {"rows": len(df), "apply_s": round(apply_s, 3), "bleukit_s": round(bleukit_s, 3),
                "same_scores": same, "machine": machine}  # fmt: skip
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)


if __name__ == "__main__":
    main()
