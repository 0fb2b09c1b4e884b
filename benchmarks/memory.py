"""Peak resident memory (and wall time) of each ``bleukit`` command on a
large corpus: each command runs in a fresh process, and its peak RSS is the
kernel's ``ru_maxrss`` for that child, read by a small launcher
(``launch.py``: a child forked from this script would count its memory too).

    python benchmarks/make_corpus.py /tmp/m1 --lines 1000000 --seed 1
    python benchmarks/make_corpus.py /tmp/m2 --lines 1000000 --seed 2
    python benchmarks/memory.py /tmp/m1/ref.txt /tmp/m1/hyp.txt /tmp/m2/hyp.txt \\
        [--samples 100] [--only compare,matrix] [--json out.json]

Two systems (the hypothesis files) are scored against one reference file.
``--bleukit CMD`` runs another build (e.g. ``"python -m bleukit"`` with
``PYTHONPATH`` set to an older checkout) for a before/after table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import tempfile

from launch import launcher, measure


def commands(ref: str, hyps: list[str], samples: str, out_dir: str) -> dict[str, list[str]]:
    first = hyps[0]
    systems = ["-r", ref, "-i", *hyps]
    return {
        "score": ["score", "-r", ref, "-i", first],
        "score --sentence": ["score", "--sentence", "-r", ref, "-i", first],
        "compare": ["compare", *systems, "--samples", samples],
        "matrix": ["matrix", *systems],
        "agree": ["agree", "BLEUw4", "BLEUc18", *systems],
        "report": ["report", *systems, "--samples", samples, "-o", f"{out_dir}/report.html"],
    }


def peak(argv: list[str]) -> tuple[float, float]:
    """Peak RSS (MiB) and wall seconds of one command, which must succeed
    (measured from a small launcher: ``launch.py``)."""
    run = measure(argv)
    if run.code:
        raise SystemExit(f"{shlex.join(argv)} failed: {run.stderr.decode()[-500:]}")
    return run.peak_mib, run.wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref")
    parser.add_argument("hyps", nargs="+")
    parser.add_argument("--samples", default="100")
    parser.add_argument("--only", help="comma-separated commands (default: all)")
    parser.add_argument("--bleukit", default="bleukit", help="the command to run")
    parser.add_argument("--json")
    args = parser.parse_args()
    with open(args.ref, "rb") as fh:
        lines = sum(1 for _ in fh)
    rows = []
    with tempfile.TemporaryDirectory() as out_dir:
        table = commands(args.ref, args.hyps, args.samples, out_dir)
        chosen = args.only.split(",") if args.only else list(table)
        print(
            f"{lines:,} lines, {len(args.hyps)} systems; {args.bleukit}; measured by {launcher()}"
        )
        print(f"{'command':<18} {'peak RSS':>10} {'wall':>8}")
        for name in chosen:
            rss, wall = peak([*shlex.split(args.bleukit), *table[name]])
            rows.append({"command": name, "peak_rss_mib": round(rss, 1), "wall_s": round(wall, 2)})
            print(f"{name:<18} {rss:>7.0f} MiB {wall:>7.1f}s", flush=True)
    if args.json:
        meta = {"lines": lines, "systems": len(args.hyps), "bleukit": args.bleukit}
        meta["machine"] = f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()}"
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({**meta, "runs": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
