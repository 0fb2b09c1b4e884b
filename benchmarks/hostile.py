"""The third hostile battery's pathological inputs (issue 38), each run as a
user runs it: every one must be refused with one line and a non-zero exit,
or finish, within 256 MiB and 30 seconds. Peak memory is read by a small
launcher (``launch.py``).

    python benchmarks/hostile.py [--bleukit "python -m bleukit"] [--json out.json]

The inputs are made in a temporary folder: WMT21 en-de (tests/data/wmt),
its first 30 segments; a 200 MB judgements file of random bytes and one of
text after a valid line; one segment of 100,000 characters for TER (50,000
one-letter words, reference shuffled). The script exits 1 if any case
breaks a bound, prints a traceback, or exits 0 where it should refuse.
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

from launch import launcher, measure

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "wmt"
LIMIT_MIB, LIMIT_S = 256, 30
#: random bytes in the large judgement files
GARBAGE_BYTES = 200 * 1024 * 1024


def _write_inputs(t: Path) -> dict[str, str]:
    def lines(name: str) -> list[str]:
        return (DATA / name).read_text("utf-8").split("\n")[:30]

    files = {}
    for key, name in (("ref", "ref.A"), ("a", "hyp.UEdin"), ("b", "hyp.UF"), ("c", "hyp.Online-W")):
        path = t / f"{key}.txt"
        path.write_text("\n".join(lines(f"newstest2021.en-de.{name}.txt")) + "\n", "utf-8")
        files[key] = str(path)
    rows = [
        f"{s}\td\t1\t{i}\tr1\tsrc\ttgt\tAccuracy/Mistranslation\t{'Major' if i % 3 else 'Minor'}"
        for s in ("a", "b", "c")
        for i in range(1, 31)
    ]
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
    (t / "mqm.tsv").write_text("\n".join([header, *rows]) + "\n", "utf-8")
    (t / "flat.tsv").write_text("".join(f"{s}\t{i}\t1.0\n" for s in "abc" for i in range(1, 31)))
    files["mqm"], files["flat"] = str(t / "mqm.tsv"), str(t / "flat.tsv")
    rng = random.Random(1)
    with open(t / "garbage.bin", "wb") as fh:
        for _ in range(GARBAGE_BYTES >> 20):
            fh.write(rng.randbytes(1 << 20))
    with open(t / "garbage.txt", "wb") as fh:
        fh.write(b"a\t1\t1.0\n")
        for _ in range(GARBAGE_BYTES >> 20):
            fh.write(rng.randbytes(3 << 18).hex().encode()[: 1 << 20])
    files["garbage_bin"], files["garbage_txt"] = str(t / "garbage.bin"), str(t / "garbage.txt")
    words = [rng.choice("abcde") for _ in range(50_000)]
    (t / "long.hyp").write_text(" ".join(words) + "\n", "utf-8")
    rng.shuffle(words)
    (t / "long.ref").write_text(" ".join(words) + "\n", "utf-8")
    files["long_hyp"], files["long_ref"] = str(t / "long.hyp"), str(t / "long.ref")
    (t / "extends.yaml").write_text("extends: /dev/zero\n", "utf-8")
    files["extends"] = str(t / "extends.yaml")
    curve = {"signature": "bleukit|x", "a": 7, "b": 1.0, "pairs": 5, "agreed": 4, "source": ""}
    (t / "curves.json").write_text(json.dumps({"curves": [curve]}), "utf-8")
    files["curves"] = str(t / "curves.json")
    (t / "odd.tsv").write_text("a\t10^30\t1.0\n", "utf-8")
    files["odd"] = str(t / "odd.tsv")
    return files


def cases(f: dict[str, str]) -> list[tuple[str, list[str], bool]]:
    """(name, arguments, whether it should finish with status 0)."""
    systems = ["-r", f["ref"], "-i", f["a"], f["b"], f["c"], "--names", "a,b,c"]
    meta = ["meta", *systems, "-v", "BLEUw4,chrF", "--samples", "20", "--trials", "40"]
    sig = "bleukit|tok:13a.v1|split:unicode.v1|case:mixed|order:4|weights:uniform|"
    sig += "reflen:closest.v1|smooth:exp.v1|eff:no|totals:exact|nrefs:1|version:"
    ter = ["score", "-v", "TER", "-r", f["long_ref"], "-i", f["long_hyp"]]
    agreement = ["compare", *systems, "--paired-bs", "--human-agreement", f["curves"]]

    def variant(path: str) -> list[str]:
        return ["score", "-v", path, "-r", f["ref"], "-i", f["a"]]

    return [
        ("1 meta, constant human scores", [*meta, "-H", f["flat"], "-f", "json"], True),
        ("2 --mqm-weights Major:nan", [*meta, "-H", f["mqm"], "--mqm-weights", "Major:nan"], False),
        ("2 --mqm-weights Major:inf", [*meta, "-H", f["mqm"], "--mqm-weights", "Major:inf"], False),
        ("2 --mqm-weights 1e308", [*meta, "-H", f["mqm"], "--mqm-weights", "Major:1e308"], False),
        ("3 TER, one segment of 100,000 chars", ter, True),
        ("4 report -o a hypothesis file", ["report", *systems, "-o", f["a"]], False),
        (
            "4 meta --save-agreement the judgements",
            [*meta, "-H", f["mqm"], "--save-agreement", f["mqm"]],
            False,
        ),
        ("5 -v /dev/zero", variant("/dev/zero"), False),
        ("5 -v /dev/urandom", variant("/dev/urandom"), False),
        ("5 extends: /dev/zero", variant(f["extends"]), False),
        (
            "6 --search max_order=1..100000000",
            [*meta, "-H", f["mqm"], "--search", "max_order=1..100000000"],
            False,
        ),
        ("7 200 MB judgements of random bytes", [*meta, "-H", f["garbage_bin"]], False),
        ("7 200 MB judgements, text after a valid line", [*meta, "-H", f["garbage_txt"]], False),
        ("9 segment id 10^30", [*meta, "-H", f["odd"]], False),
        ("10 a curve with a = 7", [*agreement, "--samples", "20"], False),
        ("11 meta --threshold nan", [*meta, "-H", f["mqm"], "--threshold", "nan"], False),
        ("13 signature parse version:abc", ["signature", "parse", sig + "abc"], False),
        (
            "14 sacrebleu --echo ref -t wmt99",
            ["sacrebleu", "--echo", "ref", "-t", "wmt99", "-l", "en-de"],
            False,
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bleukit", default=f"{sys.executable} -m bleukit")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows, broken = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        files = _write_inputs(Path(tmp))
        print(f"bounds: {LIMIT_MIB} MiB, {LIMIT_S} s; peak RSS by {launcher()}")
        print(f"{'case':<48} {'exit':>4} {'peak':>9} {'wall':>7}  verdict")
        for name, argv, succeeds in cases(files):
            run = measure([*shlex.split(args.bleukit), *argv], timeout=10 * LIMIT_S)
            err = run.stderr.decode("utf-8", "replace")
            problems = []
            if run.peak_mib > LIMIT_MIB:
                problems.append("memory")
            if run.wall > LIMIT_S:
                problems.append("time")
            if "Traceback" in err:
                problems.append("traceback")
            if succeeds != (run.code == 0):
                problems.append(f"exit {run.code}")
            if not succeeds and len([x for x in err.splitlines() if "error" in x]) != 1:
                problems.append("not one error line")
            broken += bool(problems)
            verdict = ", ".join(problems) or ("finished" if succeeds else "refused")
            print(f"{name:<48} {run.code:>4} {run.peak_mib:>5.0f} MiB {run.wall:>6.2f}s  "
                  f"{verdict}", flush=True)  # fmt: skip
            rows.append({"case": name, "exit": run.code, "peak_mib": round(run.peak_mib, 1),
                         "wall_s": round(run.wall, 2), "verdict": verdict,
                         "stderr": err.strip().splitlines()[-1:] if err else []})  # fmt: skip
    if args.json:
        meta = {
            "bleukit": args.bleukit,
            "python": platform.python_version(),
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
            "launcher": launcher(),
        }
        Path(args.json).write_text(json.dumps({**meta, "runs": rows}, indent=1), "utf-8")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
