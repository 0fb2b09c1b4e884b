"""Wall time, CPU time and peak memory of ``bleukit meta`` with a grid of
variants, on a study of the size issue 25 names: 15 systems x 1,002
segments (``--repeat 2``: the test set twice, 2,004 segments, issue 40's
size).

The systems are WMT21 en-de: the 9 distinct system outputs of
tests/data/wmt and tests/data/mqm, references C and D scored as systems,
and 4 more made from outputs with every other word dropped (a stand-in for
weaker systems); reference A is the reference. The human scores are
random (seeded) but consistent with quality: each system's segment score
is its sentence chrF plus noise, so that the statistics are not all near
zero. Each command runs in a fresh process; its peak RSS is the kernel's
``ru_maxrss`` for that child, read by a small launcher (``launch.py``).

    python benchmarks/meta_grid.py [--repeat 2] [--grid "tokenizer=13a.v1 ..."] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shlex
import sys
import tempfile
from pathlib import Path

from launch import measure

ROOT = Path(__file__).resolve().parents[1]
WMT, MQM = ROOT / "tests" / "data" / "wmt", ROOT / "tests" / "data" / "mqm"
GRID = (
    "tokenizer=13a.v1,intl.v1,char.v1 max_order=2..18 smoothing=none.v1,exp.v1 lowercase=false,true"
)


def lines(path: Path) -> list[str]:
    return path.read_text("utf-8").split("\n")[:-1]


def make_study(folder: Path, seed: int = 1, repeat: int = 1) -> tuple[Path, Path, Path, Path]:
    """The reference, a directory of 15 systems, their human scores, and
    the same scores as a DA campaign would rate them: each system on two
    thirds of the "documents" (blocks of 10 segments), other ones for each
    system, so that few segments are rated for all 15; the test set
    ``repeat`` times over (each copy's human scores drawn anew)."""
    import bleukit

    systems = folder / "systems"
    systems.mkdir()
    outputs = {p.name.split(".")[-2]: p for p in (MQM / "newstest2021.en-de").iterdir()}
    for p in WMT.glob("newstest2021.en-de.hyp.*.txt"):
        outputs.setdefault(p.name.split(".")[-2], p)
    texts = {name: lines(path) * repeat for name, path in sorted(outputs.items())}
    for ref in ("C", "D"):
        texts[f"ref-{ref}"] = lines(WMT / f"newstest2021.en-de.ref.{ref}.txt") * repeat
    for name in sorted(texts)[:4]:
        texts[f"{name}-half"] = [" ".join(line.split()[::2]) for line in texts[name]]
    reference = lines(WMT / "newstest2021.en-de.ref.A.txt") * repeat
    chrf = bleukit.load_metric("chrF")
    rng = random.Random(seed)
    scores, apart = [], []
    for k, (name, text) in enumerate(texts.items()):
        (systems / f"{name}.txt").write_text("\n".join(text) + "\n", encoding="utf-8")
        for i, (hyp, ref) in enumerate(zip(text, reference), 1):
            score = chrf.sentence_score(hyp, [ref]).score + rng.gauss(0, 15)
            scores.append(f"{name}\t{i}\t{score:.3f}")
            if ((i - 1) // 10 + k) % 3:
                apart.append(scores[-1])
    human = folder / "human.tsv"
    human.write_text("\n".join(scores) + "\n", encoding="utf-8")
    rated = folder / "human-apart.tsv"
    rated.write_text("\n".join(apart) + "\n", encoding="utf-8")
    ref_path = folder / "ref.txt"
    ref_path.write_text("\n".join(reference) + "\n", encoding="utf-8")
    return ref_path, systems, human, rated


def run(argv: list[str]) -> tuple[float, float, float, dict[str, object]]:
    """Peak RSS (MiB), wall and CPU seconds and the JSON output of one
    command (measured from a small launcher: ``launch.py``; this script
    holds the study it made, which a child forked from it would count)."""
    result = measure(argv)
    if result.code:
        raise SystemExit(f"{shlex.join(argv)} failed: {result.stderr.decode()[-500:]}")
    return result.peak_mib, result.wall, result.cpu, json.loads(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", default=GRID, help=f"--search's fields (default {GRID})")
    parser.add_argument("--json", help="also write the measurements here")
    parser.add_argument("--repeat", type=int, default=1, help="the test set this many times")
    parser.add_argument("--only", help="run only the runs whose label holds this text")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ref, systems, human, apart = make_study(Path(tmp), repeat=args.repeat)
        base = [sys.executable, "-m", "bleukit", "meta", "-H", str(human), "-r", str(ref),
                "-i", str(systems), "-f", "json"]  # fmt: skip
        rated = [*base, "-H", str(apart), "--segments", "rated"]
        wmt, grid = [*base, "-H", str(apart)], args.grid.split()
        rows = []
        for label, argv in (
            ("7 variants", base),
            ("7 variants, --calibrate system,none", [*base, "--calibrate", "system,none"]),
            ("7 variants + grid", [*base, "--search", *args.grid.split()]),
            (
                "7 variants + grid, no tests",
                [*base, "--search", *args.grid.split(), "--samples", "0", "--trials", "0"],
            ),
            ("7 variants, rated apart, --segments rated", rated),
            ("the same, --calibrate system,none", [*rated, "--calibrate", "system,none"]),
            ("7 variants, rated apart, --segments wmt (the default there)", wmt),
            ("7 variants + grid, rated apart, --segments wmt", [*wmt, "--search", *grid]),
            ("7 variants + grid, rated apart, --segments rated", [*rated, "--search", *grid]),
            (
                "7 variants + grid, rated apart, --segments wmt, no tests",
                [*wmt, "--search", *grid, "--samples", "0", "--trials", "0"],
            ),
        ):
            if args.only and args.only not in label:
                continue
            rss, wall, cpu, out = run(argv)
            variants = out["variants"]
            tested = sum(v["tested"] for v in variants)
            rows.append(
                {
                    "run": label,
                    "variants": len(variants),
                    "tested": tested,
                    "systems": len(out["systems"]),
                    "segments": out["segments"],
                    "wall_s": round(wall, 1),
                    "cpu_s": round(cpu, 1),
                    "peak_rss_mib": round(rss),
                }
            )
            print(f"{label}: {len(variants)} variants ({tested} tested), "
                  f"{len(out['systems'])} systems x {out['segments']} segments: {wall:.1f} s, "
                  f"{cpu:.1f} CPU s, {rss:.0f} MiB")  # fmt: skip
    if args.json:
        info = {"python": platform.python_version(), "cpus": os.cpu_count(), "runs": rows}
        Path(args.json).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
