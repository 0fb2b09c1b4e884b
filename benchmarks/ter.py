"""TER, side by side: sacrebleu 2.6.0's TER against bleukit's, on both of
bleukit's engines.

    python benchmarks/ter.py [DATA_DIR] [--json OUT.json]

WMT21 en-de (DATA_DIR defaults to tests/data/wmt: 1,002 segments), six
systems against reference A, and the first system against references A, C
and D: corpus scores, and sentence scores of the first system. Every tool
starts from the same lines in memory (normalization included). Best of
three runs (sacrebleu: one; it is slow). Needs sacrebleu (tox -e oracle has
it). The script stops if a bleukit score differs from sacrebleu's by more
than 1e-9.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

SYSTEMS = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF", "VolcTrans-GLAT"]
TOL = 1e-9


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")


def best_of(fn, arg, repeat: int):
    """The best time of ``repeat`` calls of fn(arg), and its value."""
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn(arg)
        best = min(best, time.perf_counter() - start)
    return best, value


def measure(root: Path) -> list[dict]:
    from sacrebleu.metrics import TER

    import bleukit

    ref_a = lines(root / "newstest2021.en-de.ref.A.txt")
    three = [lines(root / f"newstest2021.en-de.ref.{r}.txt") for r in "ACD"]
    hyps = {s: lines(root / f"newstest2021.en-de.hyp.{s}.txt") for s in SYSTEMS}
    first = hyps[SYSTEMS[0]]
    workloads = {
        "corpus, 6 systems, 1 reference": (
            lambda ter: [ter.corpus_score(h, [ref_a]).score for h in hyps.values()],
            lambda m: [m.corpus_score(h, [ref_a]).score for h in hyps.values()],
        ),
        "corpus, 1 system, 3 references": (
            lambda ter: [ter.corpus_score(first, three).score],
            lambda m: [m.corpus_score(first, three).score],
        ),
        "sentence, 1 system, 1 reference": (
            lambda ter: [ter.sentence_score(h, [r]).score for h, r in zip(first, ref_a)],
            lambda m: [r.score for r in m.sentence_scores(first, [ref_a])],
        ),
    }
    rows = []
    for name, (theirs, ours) in workloads.items():
        t_sacrebleu, expected = best_of(theirs, TER(), 1)
        row = {"workload": name, "sacrebleu_s": round(t_sacrebleu, 3)}
        for engine in ("python", "c"):
            metric = bleukit.load_metric("TER", engine=engine)
            seconds, got = best_of(ours, metric, 3)
            if any(abs(a - b) > TOL for a, b in zip(got, expected)) or len(got) != len(expected):
                sys.exit(f"{name}: bleukit ({engine}) differs from sacrebleu")
            row[f"bleukit_{engine}_s"] = round(seconds, 3)
            row[f"speedup_{engine}"] = round(t_sacrebleu / seconds, 1)
        rows.append(row)
        print(
            f"{name:<34} sacrebleu {row['sacrebleu_s']:8.3f} s   bleukit python "
            f"{row['bleukit_python_s']:7.3f} s ({row['speedup_python']}x)   c "
            f"{row['bleukit_c_s']:7.3f} s ({row['speedup_c']}x)",
            flush=True,
        )
    return rows


def main() -> None:
    args = sys.argv[1:]
    out = None
    if "--json" in args:
        i = args.index("--json")
        out = args[i + 1]
        del args[i : i + 2]
    root = Path(args[0] if args else Path(__file__).parents[1] / "tests" / "data" / "wmt")
    rows = measure(root)
    if out:
        meta = {"python": platform.python_version(), "cpus": os.cpu_count()}
        Path(out).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1), "utf-8")


if __name__ == "__main__":
    main()
