"""Issue 42's acceptance runs: whole commands on a million WMT lines, as a
user runs them, with wall time, CPU time and peak RSS for each.

    python benchmarks/million.py [--bleukit CMD] [--only NAMES] [--json OUT]

The corpora are WMT21 en-de from tests/data/wmt (1,002 segments), each file
repeated: 1,002,000 lines (reference A; UEdin and Facebook-AI) and 100,200
lines for eight systems (the six systems and references C and D). They are
written once to a temporary folder (about 1 GB). ``--bleukit`` runs another
build (``"python -m bleukit"`` with ``PYTHONPATH`` set to an older checkout)
for a before/after table; ``--only`` picks runs by name (comma-separated
substrings). Each command runs once, from a small launcher
(``launch.py``), so read the CPU seconds beside the wall time on a shared
machine. The targets (issue 42, on 2 cores): compare ≤ 60 s, report ≤ 75 s,
both ≤ 300 MB; --compat sacrebleu ≤ 300 MB; all pairs ≤ 30 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import tempfile
from pathlib import Path

from launch import launcher, measure

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wmt"
PAIR = "newstest2021.en-de"
TWO = ["UEdin", "Facebook-AI"]
EIGHT = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF", "VolcTrans-GLAT"]


def repeated(out: Path, name: str, times: int) -> str:
    """``name`` (a file of the test set) repeated ``times`` times, once."""
    path = out / f"{name}.x{times}.txt"
    if not path.exists():
        text = (DATA / f"{PAIR}.{name}.txt").read_text(encoding="utf-8")
        with path.open("w", encoding="utf-8") as fh:
            for _ in range(times):
                fh.write(text)
    return str(path)


def runs(out: Path) -> dict[str, list[str]]:
    ref = repeated(out, "ref.A", 1000)
    two = [repeated(out, f"hyp.{s}", 1000) for s in TWO]
    small_ref = repeated(out, "ref.A", 100)
    eight = [repeated(out, f"hyp.{s}", 100) for s in EIGHT]
    eight += [repeated(out, f"ref.{r}", 100) for r in "CD"]
    return {
        "score, 1M": ["score", "-v", "sacrebleu", "-r", ref, "-i", two[0]],
        "compare BLEU+chrF, 1M x 2": ["compare", "-v", "sacrebleu,chrF", "-r", ref, "-i", *two],
        "report BLEU+chrF, 1M x 2": [
            "report", "-v", "sacrebleu,chrF", "-r", ref, "-i", *two, "-o", str(out / "r.html")
        ],
        "compare --compat sacrebleu, 1M x 2": [
            "compare", "-v", "sacrebleu", "-r", ref, "-i", *two, "--paired-bs",
            "--compat", "sacrebleu",
        ],
        "sacrebleu --paired-bs (drop-in), 1M x 2": [
            "sacrebleu", ref, "-i", *two, "--paired-bs",
        ],
        "compare --all-pairs BLEU, 100k x 8": [
            "compare", "--all-pairs", "-v", "sacrebleu", "-r", small_ref, "-i", *eight
        ],
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bleukit", default="bleukit", help="the command to run")
    parser.add_argument("--only", help="runs whose names contain one of these (comma-separated)")
    parser.add_argument("--dir", help="where the corpora are written (default: a temporary one)")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.dir or tmp)
        out.mkdir(parents=True, exist_ok=True)
        table = runs(out)
        wanted = args.only.split(",") if args.only else None
        print(f"{args.bleukit}; measured by {launcher()}; load {os.getloadavg()}")
        print(f"{'run':<42} {'wall':>8} {'CPU':>8} {'peak RSS':>10}")
        for name, argv in table.items():
            if wanted and not any(w in name for w in wanted):
                continue
            run = measure([*shlex.split(args.bleukit), *argv])
            if run.code:
                raise SystemExit(f"{name} failed: {run.stderr.decode()[-500:]}")
            rows.append({"run": name, "wall_s": round(run.wall, 2), "cpu_s": round(run.cpu, 2),
                         "peak_rss_mib": round(run.peak_mib, 1)})  # fmt: skip
            print(f"{name:<42} {run.wall:>7.1f}s {run.cpu:>7.1f}s {run.peak_mib:>6.0f} MiB",
                  flush=True)  # fmt: skip
    if args.json:
        machine = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"bleukit": args.bleukit, "machine": machine, "runs": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
