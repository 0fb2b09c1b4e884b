"""Record what sacrebleu releases print, signature and score, on the WMT data
in tests/data/wmt, for tests/test_sacrebleu_signature.py: the lines a paper
copies, read back by ``bleukit verify``. Each argument is the command of one
sacrebleu release, installed in its own virtual environment:

    python tests/golden/make_sacrebleu_signature_golden.py \\
        /tmp/sb1.4.14/bin/sacrebleu /tmp/sb1.5.1/bin/sacrebleu \\
        /tmp/sb2.0.0/bin/sacrebleu .venv/bin/sacrebleu > tests/golden/sacrebleu_signatures.json

Scores are printed with ``-w 12`` (1.x's chrF with 13 decimals, between 0
and 1), long and ``--short`` signatures, one reference and two.
"""

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"

#: (language pair set, system, references, arguments); {1: ...} and {2: ...}
#: arguments only for that release
BLEU = [[], ["-lc"], ["-tok", "intl"], ["-tok", "char"], ["-tok", "none"], ["-s", "floor"],
        ["-s", "floor", "-sv", "0.3"], ["-s", "add-k"], ["-s", "add-k", "-sv", "2"],
        ["-s", "none"], ["--short"], ["--short", "-s", "floor", "-lc"]]  # fmt: skip
CHRF = {1: [["-m", "chrf"], ["-m", "chrf", "--chrf-whitespace"],
            ["-m", "chrf", "--chrf-order", "4", "--chrf-beta", "1"], ["-m", "chrf", "--short"]],
        2: [["-m", "chrf"], ["-m", "chrf", "--chrf-whitespace"],
            ["-m", "chrf", "-cc", "4", "--chrf-beta", "1"], ["-m", "chrf", "-cw", "2"],
            ["-m", "chrf", "--chrf-lowercase"], ["-m", "chrf", "--chrf-eps-smoothing"],
            ["-m", "chrf", "-cw", "2", "--short"]]}  # fmt: skip
TER = {1: [["-m", "ter"], ["-m", "ter", "--short"]],
       2: [["-m", "ter"], ["-m", "ter", "--ter-normalized"], ["-m", "ter", "--ter-case-sensitive"],
           ["-m", "ter", "--ter-no-punct"], ["-m", "ter", "--ter-asian-support"],
           ["-m", "ter", "--short", "--ter-case-sensitive"]]}  # fmt: skip
DATASETS = [
    ("newstest2021.en-de", "Facebook-AI", ["A"]),
    ("newstest2021.en-de", "Online-W", ["A", "C"]),
    ("newstest2021.en-cs", "CUNI-DocTransformer", ["A", "B"]),
]
ZH = [("newstest2021.en-zh", "Facebook-AI", ["A"], ["-tok", "zh"])]


def run(command: str, release: str, args: list[str], name: str, system: str,
        refs: list[str]) -> list[str]:  # fmt: skip
    out = subprocess.run(
        [command, *(str(DATA / f"{name}.ref.{r}.txt") for r in refs), "-i",
         str(DATA / f"{name}.hyp.{system}.txt"), "-w", "12", *args,
         *(["-f", "text"] if release.startswith("2.") else [])],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [line for line in out.splitlines() if " = " in line]


def version(command: str) -> str:
    out = subprocess.run([command, "--version"], capture_output=True, text=True, check=True)
    return (out.stdout or out.stderr).split()[-1]


def main(commands: list[str]) -> None:
    cases = []
    for command in commands:
        release = version(command)
        generation = int(release[0])
        plans = [
            (d, args) for d in DATASETS for args in [*BLEU, *CHRF[generation], *TER[generation]]
        ]
        plans += [((name, system, refs), extra) for name, system, refs, extra in ZH]
        for (name, system, refs), args in plans:
            try:
                lines = run(command, release, args, name, system, refs)
            except subprocess.CalledProcessError:  # 1.4's TER fails with --short (#131)
                print(f"sacrebleu {release} fails on {args}: not recorded", file=sys.stderr)
                continue
            for line in lines:
                cases.append({"sacrebleu": release, "args": args, "set": name,
                              "system": system, "refs": refs, "line": line})  # fmt: skip
    meta = {"source": "sacrebleu's command line, each release in its own environment"}
    json.dump({"meta": meta, "cases": cases}, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
