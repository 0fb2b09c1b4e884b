"""Whole commands on one WMT test set, as users run them: bleukit against
sacrebleu 2.6.0, start-up included.

    pip install . 'sacrebleu==2.6.0' numpy      # a regular install, not -e
    python benchmarks/commands.py [DATA_DIR] [--runs 11] [--json OUT.json]

DATA_DIR defaults to tests/data/wmt (WMT21 en-de: 1,002 segments, references
A, C and D, six systems). Each workload runs both tools' commands in
alternation, ``--runs`` times each, and reports the median wall time of
each and their ratio. The commands are the ``bleukit`` and ``sacrebleu``
executables beside this Python (``sys.executable``), so both start as a
user's shell starts them. An editable install (``pip install -e``) adds
about 15 ms to every bleukit start (its import hook), so measure a regular
one. Before timing, the script checks that both commands print the same
numbers (scores; p-values and intervals too where bleukit runs in
``--compat sacrebleu`` mode) and stops if they do not.

For ``score`` and ``score --sentence`` a third program runs in the same
alternation: ``minimal.py``, the least Python can do to print sacrebleu's
numbers with bleukit's kernel (no variants, signatures or checks). Its time
is the floor under any Python tool for that job; where a tenth of
sacrebleu's time lies below it, no Python command can be ten times faster.

The machine's load average is recorded before and after: on a busy machine
the medians move, so quote them with it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

COMPAT = ["--paired-bs", "--compat", "sacrebleu"]
SYSTEMS = ["UEdin", "Facebook-AI", "HuaweiTSC", "Online-W", "UF", "VolcTrans-GLAT"]


@dataclass(frozen=True)
class Workload:
    name: str
    bleukit: list[str]
    peer: list[str]
    # what both outputs must agree on: a function from output to a list
    check: str
    # minimal.py doing the same job, where it can: the floor of any Python tool
    minimum: list[str] | None = None


def workloads(root: Path, bindir: Path) -> list[Workload]:
    def ref(x: str) -> str:
        return str(root / f"newstest2021.en-de.ref.{x}.txt")

    hyps = [str(root / f"newstest2021.en-de.hyp.{s}.txt") for s in SYSTEMS]
    bk, sb = str(bindir / "bleukit"), str(bindir / "sacrebleu")
    least = [sys.executable, str(Path(__file__).with_name("minimal.py"))]
    three = [ref("A"), ref("C"), ref("D")]
    return [
        Workload(
            "score, 3 references",
            [bk, "score", "-v", "sacrebleu", "-r", *three, "-i", hyps[0]],
            [sb, *three, "-i", hyps[0], "-f", "text", "-w", "2"],
            "bleu",
            [*least, "score", "-r", *three, "-i", hyps[0]],
        ),
        Workload(
            "score --sentence, 1 reference",
            [bk, *"score --sentence -v sacrebleu-sentence -r".split(), ref("A"), "-i", hyps[0]],
            [sb, ref("A"), "-i", hyps[0], "--sentence-level", "-f", "text", "-w", "2"],
            "sentence",
            [*least, "sentence", "-r", ref("A"), "-i", hyps[0]],
        ),
        Workload(
            "score -v TER, 1 reference",
            [bk, "score", "-v", "TER", "-r", ref("A"), "-i", hyps[0]],
            [sb, ref("A"), "-i", hyps[0], "-m", "ter", "-f", "text", "-w", "2"],
            "ter",
        ),
        Workload(
            "score --sentence -v TER, 1 reference",
            [bk, "score", "--sentence", "-v", "TER", "-r", ref("A"), "-i", hyps[0]],
            [sb, ref("A"), "-i", hyps[0], "-m", "ter", "--sentence-level", "-f", "text", "-w", "2"],
            "ter",
        ),
        Workload(
            "bleukit sacrebleu (drop-in), 1 reference",
            [bk, "sacrebleu", ref("A"), "-i", hyps[0]],
            [sb, ref("A"), "-i", hyps[0]],
            "identical",
        ),
        Workload(
            "bleukit sacrebleu -m bleu chrf ter (drop-in), 2 references",
            [bk, "sacrebleu", ref("A"), ref("C"), "-i", hyps[0], "-m", "bleu", "chrf", "ter"],
            [sb, ref("A"), ref("C"), "-i", hyps[0], "-m", "bleu", "chrf", "ter"],
            "identical",
        ),
        Workload(
            "compare --paired-bs, 6 systems",
            [bk, "compare", "-v", "sacrebleu", "-r", ref("A"), "-i", *hyps, "--paired-bs"],
            [sb, ref("A"), "-i", *hyps, "--paired-bs", "-f", "text", "-w", "2"],
            "systems",
        ),
        Workload(
            "compare --paired-bs --compat sacrebleu, 6 systems",
            [bk, *"compare -v sacrebleu -r".split(), ref("A"), "-i", *hyps, *COMPAT],
            [sb, ref("A"), "-i", *hyps, "--paired-bs", "-f", "text", "-w", "2"],
            "paired",
        ),
        Workload(
            "matrix, 6 systems x BLEU and chrF",
            [bk, "matrix", "--variants", "sacrebleu,chrF", "-r", ref("A"), "-i", *hyps],
            [sb, ref("A"), "-i", *hyps, "-m", "bleu", "chrf", "-f", "text", "-w", "2"],
            "matrix",
        ),
        Workload(
            "report, 6 systems, 1000 resamples",
            [
                bk,
                *"report --variants sacrebleu -r".split(),
                ref("A"),
                "-i",
                *hyps,
                "-o",
                os.devnull,
            ],
            [sb, ref("A"), "-i", *hyps, "--paired-bs", "-f", "text", "-w", "2"],
            "none",
        ),
    ]


# ------------------------------------------------------------ agreement

_NUMBER = r"([0-9]+\.[0-9]+)"


def _bleu_lines(text: str) -> list[str]:
    # "BLEU = 57.03 83.4/64.4/50.2/39.2 (BP = ... ref_len = 27898)": the same
    # line in both tools' text output, after sacrebleu's signature
    return [m.group(1) for m in re.finditer(r"BLEU\S* = (\S+ \S+ \(BP .*?\))", text)]


def _paired(text: str, bleukit: bool) -> list[tuple[str, ...]]:
    """(score, mean, half-width, p-value) per system, as printed with two
    decimals (p-values with four)."""
    if bleukit:
        rows = re.findall(rf"{_NUMBER}\s+μ = {_NUMBER} ± {_NUMBER}\s+({_NUMBER})?", text)
        return [(s, m, h, p) for s, m, h, p, _ in rows]
    rows = re.findall(rf"{_NUMBER} \({_NUMBER} ± {_NUMBER}\)", text)
    pvalues = ["", *re.findall(r"\(p = ([0-9.]+)\)", text)]
    return [(s, m, h, p) for (s, m, h), p in zip(rows, pvalues)]


def _matrix(text: str, bleukit: bool) -> list[str]:
    """Per system, its BLEU and chrF as printed with two decimals."""
    if bleukit:
        # "NAME   29.90 (3)  59.47 (5)": a score and its rank per variant
        rows = re.findall(rf"(?m)^\S+\s+{_NUMBER} \(\d+\)\s+{_NUMBER}", text)
    else:  # sacrebleu's multi-system table: "│ NAME │ 29.90  │  59.47  │"
        rows = re.findall(rf"│\s*{_NUMBER}\s*│\s*{_NUMBER}\s*│", text)
    return [x for row in rows for x in row]


def agree(w: Workload, ours: str, theirs: str) -> str:
    """What both printed, the same; raises SystemExit when it differs."""
    if w.check == "bleu":
        a, b = _bleu_lines(ours), _bleu_lines(theirs)
    elif w.check == "sentence":
        a = re.findall(rf"BLEU = {_NUMBER}", ours)
        b = re.findall(rf"BLEU\S* = {_NUMBER}", theirs)
    elif w.check == "ter":
        a = re.findall(rf"TER\S* = {_NUMBER}", ours)
        b = re.findall(rf"TER\S* = {_NUMBER}", theirs)
    elif w.check == "identical":
        a, b = ours.splitlines(), theirs.splitlines()
    elif w.check == "systems":
        a = re.findall(rf"(?m)^\S+(?: \(baseline\))?\s+{_NUMBER}\s", ours)
        b = [s for s, *_ in _paired(theirs, False)]
    elif w.check == "paired":
        a, b = _paired(ours, True), _paired(theirs, False)
    elif w.check == "matrix":
        a, b = _matrix(ours, True), _matrix(theirs, False)
    else:
        return "not compared (the peer prints other statistics)"
    if not a or a != b:
        raise SystemExit(f"{w.name}: the outputs differ:\nbleukit {a[:8]}\npeer    {b[:8]}")
    return f"{len(a)} values equal"


# ------------------------------------------------------------- timing


def run(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8")
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])}... failed:\n{done.stderr[-2000:]}")
    return elapsed, done.stdout


def measure(w: Workload, runs: int) -> dict[str, object]:
    commands = {"bleukit": w.bleukit, "peer": w.peer}
    if w.minimum is not None:
        commands["minimum"] = w.minimum
    outputs = {k: run(cmd)[1] for k, cmd in commands.items()}
    agreement = agree(w, outputs["bleukit"], outputs["peer"])
    if w.minimum is not None:
        agree(w, outputs["minimum"], outputs["peer"])
    times: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(runs):
        for k, cmd in commands.items():
            times[k].append(run(cmd)[0])
    ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
    return {
        "workload": w.name,
        "bleukit": " ".join(Path(w.bleukit[0]).name.split() + w.bleukit[1:3]) + " ...",
        "bleukit_ms": round(ms["bleukit"], 1),
        "peer_ms": round(ms["peer"], 1),
        "ratio": round(ms["peer"] / ms["bleukit"], 2),
        # benchmarks/minimal.py: the same numbers with nothing but the kernel
        "minimum_ms": round(ms["minimum"], 1) if "minimum" in ms else None,
        "agreement": agreement,
        "runs": runs,
    }


#: what ``bleukit score`` imports before it reads a line
#: what ``bleukit score -v sacrebleu`` imports (tests/test_metric_registry.py
#: keeps the heavy modules out of it), with the garbage collector paused as
#: the executable pauses it (``cli.app.run``)
SCORE_IMPORTS = (
    "import gc; gc.disable(); "
    "import bleukit.cli.parser, bleukit.cli.commands, bleukit.cli.arguments, "
    "bleukit.io.messages, bleukit.executors.files, bleukit.report.text, "
    "bleukit.metrics.bleu.variant, bleukit.tokenizers.languages, bleukit.variants.table, "
    "bleukit.corpus.streaming, bleukit._accel, bleukit.core.hashing, _queue; gc.freeze()"
)


def measure_floors(runs: int) -> dict[str, float]:
    """Medians of the interpreter's start alone, and with the imports of
    ``bleukit score``: the part of a whole command no scoring can shorten."""
    times: dict[str, list[float]] = {"python_ms": [], "imports_ms": []}
    for _ in range(runs):
        times["python_ms"].append(run([sys.executable, "-c", "pass"])[0])
        times["imports_ms"].append(run([sys.executable, "-c", SCORE_IMPORTS])[0])
    return {k: round(statistics.median(v) * 1000, 1) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default="tests/data/wmt")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--only", help="workloads whose name contains this")
    parser.add_argument("--json")
    args = parser.parse_args()
    bindir = Path(sys.executable).parent
    for tool in ("bleukit", "sacrebleu"):
        if not (bindir / tool).exists():
            raise SystemExit(f"no {tool} executable beside {sys.executable}")
    load_before = os.getloadavg()
    floors = measure_floors(args.runs)
    print(
        f"floor: the interpreter starting {floors['python_ms']:.1f} ms; starting and importing "
        f"what bleukit score imports {floors['imports_ms']:.1f} ms",
        flush=True,
    )
    rows = []
    for w in workloads(Path(args.data), bindir):
        if args.only and args.only not in w.name:
            continue
        row = measure(w, args.runs)
        rows.append(row)
        least = "" if row["minimum_ms"] is None else f"  minimal.py {row['minimum_ms']:.1f} ms"
        print(
            f"{row['workload']:<52} bleukit {row['bleukit_ms']:>7.1f} ms  "
            f"sacrebleu {row['peer_ms']:>7.1f} ms  {row['ratio']:>5.1f}x  ({row['agreement']})"
            f"{least}",
            flush=True,
        )
    report = {
        "machine": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "floors": floors,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "rows": rows,
    }
    print(f"load average before {report['load_before']}, after {report['load_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
