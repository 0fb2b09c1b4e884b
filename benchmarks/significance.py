"""Paired significance tests, side by side: sacrebleu 2.6.0 vs bleukit.

    python benchmarks/significance.py [DATA_DIR] [--json OUT.json]

WMT21 en-de (DATA_DIR defaults to tests/data/wmt), reference A, six
systems (the first is the baseline), paired bootstrap with 1000 resamples and
approximate randomization with 10000 trials, seed 12345. Both tools start
from the same lines in memory, so "end to end" includes tokenization and
statistics; "stats only" times bleukit's test on statistics computed before.
Needs sacrebleu and NumPy (tox -e oracle has both). The script stops if
bleukit --compat sacrebleu gives other p-values than sacrebleu.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

SYSTEMS = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF", "VolcTrans-GLAT"]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8")[:-1].split("\n")


def best_of(fn, repeat: int):
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def measure(root: Path) -> list[dict]:
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    import bleukit
    from bleukit.significance.paired import SignificanceSpec, paired_test

    refs = [lines(root / "newstest2021.en-de.ref.A.txt")]
    named = [(s, lines(root / f"newstest2021.en-de.hyp.{s}.txt")) for s in SYSTEMS]
    variant = bleukit.load_variant("sacrebleu")
    os.environ.pop("SACREBLEU_SEED", None)

    def run_sacrebleu(test: str, samples: int) -> list:
        ps = PairedTest(named, {"BLEU": BLEU()}, refs, test_type=test, n_samples=samples)
        return [r.p_value for r in ps()[1]["BLEU"]]

    def stats() -> list:
        prepared = variant.prepare_references(refs)
        return [(s, variant.segment_stats(h, prepared)[0]) for s, h in named]

    def run_bleukit(test: str, samples: int, compat: str, systems=None) -> list:
        spec = SignificanceSpec(test, samples=samples, compat=compat)
        return [r.p_value for r in paired_test(variant, systems or stats(), 1, spec)]

    precomputed = stats()
    rows = []
    for test, samples in (("bs", 1000), ("ar", 10000)):
        repeat = 1 if test == "ar" else 3
        t_sb, p_sb = best_of(lambda t=test, n=samples: run_sacrebleu(t, n), repeat)
        for compat in ("sacrebleu", "none"):
            t_all, p_bk = best_of(lambda t=test, n=samples, c=compat: run_bleukit(t, n, c), repeat)
            t_stats, _ = best_of(
                lambda t=test, n=samples, c=compat: run_bleukit(t, n, c, precomputed), repeat
            )
            if compat == "sacrebleu" and p_bk != p_sb:
                raise SystemExit(f"p-values differ from sacrebleu: {p_bk} vs {p_sb}")
            rows.append(
                {
                    "test": test,
                    "samples": samples,
                    "mode": compat,
                    "sacrebleu_s": t_sb,
                    "bleukit_s": t_all,
                    "bleukit_stats_only_s": t_stats,
                    "speedup": t_sb / t_all,
                    "speedup_stats_only": t_sb / t_stats,
                    "p_values_equal_sacrebleu": p_bk == p_sb,
                }
            )
    return rows


def main(argv: list[str]) -> None:
    out_json = None
    if "--json" in argv:
        i = argv.index("--json")
        out_json = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    root = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "tests/data/wmt"
    rows = measure(root)
    print("test mode        sacrebleu s  end to end s     x  stats only s     x  same p")
    for r in rows:
        print(
            f"{r['test']:<5}{r['mode']:<11}{r['sacrebleu_s']:>13.2f}{r['bleukit_s']:>14.2f}"
            f"{r['speedup']:>6.1f}{r['bleukit_stats_only_s']:>14.2f}"
            f"{r['speedup_stats_only']:>6.1f}  {r['p_values_equal_sacrebleu']}"
        )
    if out_json:
        import sacrebleu

        import bleukit

        meta = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "sacrebleu": sacrebleu.__version__,
            "bleukit": bleukit.__version__,
        }
        Path(out_json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
