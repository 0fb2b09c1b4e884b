"""Record what sacrebleu 2.6.0 prints for the command lines of
tests_oracle/sacrebleu_commands.txt that need no MeCab (paired tests and
intervals included: bleukit needs no NumPy for them), for
tests/test_compat_sacrebleu_cli.py (which runs `bleukit sacrebleu` on them
in every environment; tox -e oracle compares all of them live). Run with
sacrebleu installed (tox -e oracle has it):

    python tests/golden/make_sacrebleu_cli_golden.py > tests/golden/sacrebleu_cli.json
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
    "ja",
    "ref.gz",
    "refs.AC",
    "hyps.3",
    "bom.txt",
    "SACREBLEU=",
)


def small(command: str) -> bool:
    """Sentence-level output is a line per segment: only its -b form here."""
    return "-sl" not in command or " -b" in command


def main() -> None:
    import sacrebleu

    chosen = [c for c in COMMANDS if not any(n in c for n in NEEDS) and small(c)]
    cases = []
    with tempfile.TemporaryDirectory() as t:
        for command in chosen:
            # run in the data directory (D=.): system names in tables are the
            # paths given, the same on every machine
            env = {**os.environ, "SB": TOOLS["sacrebleu"], "D": ".", "T": t}
            out = subprocess.run(
                ["bash", "-c", command], capture_output=True, env=env, check=True, cwd=DATA
            )
            cases.append({"command": command, "stdout": out.stdout.decode("utf-8")})
    meta = {"sacrebleu": sacrebleu.__version__, "source": "tests_oracle/sacrebleu_commands.txt"}
    json.dump({"meta": meta, "cases": cases}, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
