"""Record what ``sacrebleu -m chrf`` 2.6.0 prints for paired tests
(``--paired-bs``, ``--paired-ar``) and intervals (``-ci``) of chrF and chrF++
on WMT21 en-de, with the ``bleukit compare`` / ``bleukit score
--confidence --compat sacrebleu`` command line that must print the same
numbers. tests/test_significance_compat.py reads the recorded output;
tests_oracle/test_sacrebleu_cli.py runs both command lines live. Run with
sacrebleu and NumPy installed (tox -e oracle has them):

    python tests/golden/make_chrf_cli_golden.py > tests/golden/sacrebleu_chrf_cli.json
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "wmt"
REF = "newstest2021.en-de.ref.A.txt"
SYSTEMS = [f"newstest2021.en-de.hyp.{s}.txt" for s in ("UEdin", "Online-W", "UF")]
#: decimals sacrebleu prints scores and intervals with (-w)
WIDTH = 6
#: per case, sacrebleu's options (``sacrebleu_argv`` adds the reference,
#: the systems and the output format) and bleukit's command, variant and
#: options (``bleukit_argv`` adds the rest)
CASES = [
    ("chrF-bs", ["-m", "chrf", "--paired-bs"], ["compare", "chrF"]),
    ("chrF++-bs", ["-m", "chrf", "-cw", "2", "--paired-bs", "-pbsn", "500"],
     ["compare", "chrF++", "--samples", "500"]),
    ("chrF-ar", ["-m", "chrf", "--paired-ar", "-parn", "2000"],
     ["compare", "chrF", "--paired-ar", "--samples", "2000", "--confidence-samples", "0"]),
    ("chrF++-ar", ["-m", "chrf", "-cw", "2", "--paired-ar", "-parn", "2000"],
     ["compare", "chrF++", "--paired-ar", "--samples", "2000", "--confidence-samples", "0"]),
    ("chrF-ci", ["-m", "chrf", "-ci"], ["score", "chrF", "--confidence"]),
    ("chrF++-ci", ["-m", "chrf", "-cw", "2", "-ci", "-cin", "300"],
     ["score", "chrF++", "--confidence", "--samples", "300"]),
]  # fmt: skip

_NUMBERS = re.compile(r"(\d+\.\d+)(?: \((?:μ = )?(\d+\.\d+) ± (\d+\.\d+)\))?")
_P = re.compile(r"\(p = (\d\.\d+)\)")


def sacrebleu_argv(args: list[str], sacrebleu: str = "sacrebleu") -> list[str]:
    """The sacrebleu command line of a case (run in tests/data/wmt)."""
    systems = SYSTEMS if "-ci" not in args else SYSTEMS[2:]
    return [sacrebleu, REF, "-i", *systems, *args, "-f", "text", "-w", str(WIDTH)]


def bleukit_argv(args: list[str]) -> list[str]:
    """The bleukit command line of a case (paths under tests/data/wmt)."""
    command, variant, *rest = args
    systems = SYSTEMS if command == "compare" else SYSTEMS[2:]
    return [command, "-v", variant, "-r", str(DATA / REF), "-i", *(str(DATA / s) for s in systems),
            *rest, "--compat", "sacrebleu", "-f", "json"]  # fmt: skip


def sacrebleu_rows(stdout: str) -> list[tuple[str, str | None, str | None, str | None]]:
    """Per system, as sacrebleu prints them: the score, the interval's mean
    and half-width (None without an interval) and the p-value (None for the
    baseline, or a single system)."""
    if "│" not in stdout:  # -ci of one system: "NAME|SIGNATURE = S (μ = M ± H)"
        score, mean, half = _NUMBERS.search(stdout.split(" = ", 1)[1]).groups()
        return [(score, mean, half, None)]
    rows: list[tuple[str, str | None, str | None, str | None]] = []
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) != 2:
            continue
        p = _P.search(cells[1])
        if p and rows:  # the p-value's line under its system's
            rows[-1] = (*rows[-1][:3], p.group(1))
        elif cells[0] and cells[0] != "System":
            score, mean, half = _NUMBERS.search(cells[1]).groups()
            rows.append((score, mean, half, None))
    return rows


def bleukit_rows(blocks: list[dict]) -> list[tuple[str, str | None, str | None, str | None]]:
    """bleukit's JSON rows at sacrebleu's printed precision."""

    def fixed(value: float | None, width: int = WIDTH) -> str | None:
        return None if value is None else f"{value:.{width}f}"

    return [(fixed(b["score"]), fixed(b.get("ci_mean")), fixed(b.get("ci_half_width")),
             fixed(b.get("p_value"), 4)) for b in blocks]  # fmt: skip


def main() -> None:
    import sacrebleu

    cases = []
    for name, theirs, ours in CASES:
        argv = sacrebleu_argv(theirs)
        out = subprocess.run(argv, capture_output=True, check=True, cwd=DATA, text=True)
        cases.append({"name": name, "sacrebleu": theirs, "bleukit": ours, "stdout": out.stdout})
    meta = {"sacrebleu": sacrebleu.__version__, "data": "tests/data/wmt", "width": WIDTH}
    json.dump({"meta": meta, "cases": cases}, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
