"""Record what sacrebleu 2.6.0 prints for the command lines of
tests_oracle/sacrebleu_commands.txt that need no MeCab (paired tests and
intervals included: bleukit needs no NumPy for them), for
tests/test_compat_sacrebleu_cli.py (which runs `bleukit sacrebleu` on them
in every environment; tox -e oracle compares all of them live). Run with
sacrebleu installed (tox -e oracle has it):

    python tests/golden/make_sacrebleu_cli_golden.py [PYTHON...] > tests/golden/sacrebleu_cli.json

Each PYTHON is another Python's executable with sacrebleu 2.6.0 beside it
(e.g. a virtual environment's bin/python): where sacrebleu prints other
digits under it, that output is recorded for that Python too ("by_python").
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests_oracle"))

from test_sacrebleu_cli import COMMANDS, DATA, TOOLS  # noqa: E402

NEEDS = (
    "ja-mecab",
    "-l en-ja",
    "ref.gz",
    "refs.AC",
    "hyps.3",
    "bom.txt",
    "SACREBLEU=",
)


def selected(commands: list[str]) -> list[str]:
    """The command lines recorded: those that need nothing of NEEDS."""
    return [c for c in commands if not any(n in c for n in NEEDS)]


def small(command: str) -> bool:
    """Sentence-level output is a line per segment: recorded as its SHA-256
    and line count (``digested``), the rest as it is."""
    return "-sl" not in command or " -b" in command


def recorded(command: str, out: str) -> dict[str, object]:
    """What a command printed: its output, or for a long one its digest."""
    if small(command):
        return {"stdout": out}
    import hashlib

    return {"stdout_sha256": hashlib.sha256(out.encode("utf-8")).hexdigest(),
            "lines": out.count("\n")}  # fmt: skip


def _record(sacrebleu: str, commands: list[str]) -> list[str]:
    """What a sacrebleu executable prints for each command line."""
    outputs = []
    with tempfile.TemporaryDirectory() as t:
        for command in commands:
            # run in the data directory (D=.): system names in tables are the
            # paths given, the same on every machine
            env = {**os.environ, "SB": sacrebleu, "D": ".", "T": t}
            out = subprocess.run(
                ["bash", "-c", command], capture_output=True, env=env, check=True, cwd=DATA
            )
            outputs.append(out.stdout.decode("utf-8"))
    return outputs


def _python(executable: str) -> str:
    """The major.minor version of a Python executable."""
    code = "import sys; print('{}.{}'.format(*sys.version_info[:2]))"
    return subprocess.run([executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()  # fmt: skip


def main(others: list[str]) -> None:
    """``others``: Python executables (each beside its own sacrebleu 2.6.0)
    whose outputs are recorded too where they differ: full-precision
    numbers of paired tests move in their last digit with Python's sum(),
    which compensates its rounding from 3.12 on, in sacrebleu itself."""
    import sacrebleu

    chosen = selected(COMMANDS)
    outputs = _record(TOOLS["sacrebleu"], chosen)
    cases = [{"command": c, **recorded(c, out)} for c, out in zip(chosen, outputs)]
    for executable in others:
        version = _python(executable)
        sacrebleu_there = str(Path(executable).parent / "sacrebleu")
        for case, out in zip(cases, _record(sacrebleu_there, chosen)):
            theirs = recorded(case["command"], out)
            if any(case[k] != v for k, v in theirs.items()):
                case.setdefault("by_python", {})[version] = theirs
    meta = {
        "sacrebleu": sacrebleu.__version__,
        "source": "tests_oracle/sacrebleu_commands.txt",
        "python": "{}.{}".format(*sys.version_info[:2]),
        "also": sorted(_python(e) for e in others),
    }
    json.dump({"meta": meta, "cases": cases}, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
